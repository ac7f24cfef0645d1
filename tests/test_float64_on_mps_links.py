"""SC403 links of stop 45: float64 numpy data drawn by a random generator (`rng.normal(...)` of `rng =
np.random.default_rng(seed)`), an array of float literals, a float ufunc of an integer range, and arithmetic with a
parameter defaulting to a number, handed by another module's factory to a helper moving it to a device always
"mps"."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

DATA = """
    import numpy as np


    def make_regression(n=64, noise=0.1, seed=0):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(n, 3))
        w = np.array([0.5, -1.0, 2.0])
        y = x @ w + noise * rng.standard_normal(n)
        return x, y
"""

TRAIN = """
    import torch
    import torch.nn as nn

    from data import make_regression

    DEVICE = torch.device("mps")


    def to_device(array):
        return torch.from_numpy(array).to(DEVICE)


    def main():
        x_np, y_np = make_regression()
        x, y = to_device(x_np), to_device(y_np).unsqueeze(1)
        model = nn.Linear(3, 1).to(DEVICE)
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        for _ in range(5):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def _lint(tmp_path: Path, train: str = TRAIN, data: str = DATA) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"data.py": data, "train.py": train}, "SC403")


def test_a_generator_s_draws_moved_to_mps_by_a_helper(tmp_path: Path) -> None:
    assert _lint(tmp_path) == [("train.py", 11)]


def test_the_helper_casting_to_float32_is_clean(tmp_path: Path) -> None:
    fixed = TRAIN.replace("torch.from_numpy(array).to(DEVICE)", "torch.from_numpy(array).float().to(DEVICE)")
    assert fixed != TRAIN
    assert _lint(tmp_path, fixed) == []


def test_float32_draws_are_clean(tmp_path: Path) -> None:
    single = DATA.replace("    return x, y", "    return x.astype(np.float32), y.astype(np.float32)")
    assert single != DATA
    assert _lint(tmp_path, data=single) == []


SCRIPT = """
    import numpy as np
    import torch

    device = torch.device("mps")
    rng = np.random.default_rng(0)
    arr = %s
    x = torch.tensor(arr).to(device)
"""


def test_numpy_s_float64_spellings(tmp_path: Path) -> None:
    for spelled in ("np.array([0.5, 1.5, 2.5])", "np.sin(np.arange(64) / 10.0)", "rng.normal(size=(64, 2))",
                    "np.random.default_rng(0).standard_normal((64, 2))", "np.eye(3)", "np.exp(np.random.rand(64))",
                    "np.arange(10) / 2"):
        assert lint_project(tmp_path, {"t.py": SCRIPT % spelled}, "SC403") == [("t.py", 8)], spelled


def test_integer_and_float32_arrays_are_clean(tmp_path: Path) -> None:
    for spelled in ("np.array([1, 2, 3])", "np.arange(10) // 2", "np.exp(np.random.rand(64).astype(np.float32))",
                    "np.sin(np.linspace(0, 1, 8, dtype=np.float32))"):
        assert lint_project(tmp_path, {"t.py": SCRIPT % spelled}, "SC403") == [], spelled
