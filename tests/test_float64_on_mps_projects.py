"""SC403 with the device a constant of another module of the project (`DEVICE = torch.device("mps")` in
config.py, read as `from config import DEVICE`, `config.DEVICE` or a trainer's `self.device = settings.DEVICE`), in a
file whose own text never names mps; a device picked at run time there, one assigned under a condition, or one the
importer reassigns, stays silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

TRAIN = """
    import numpy as np
    import torch

    import config
    from config import DEVICE

    def main():
        table = np.loadtxt("data.csv", delimiter=",")
        x = torch.from_numpy(table[:, :-1]).to(DEVICE)
        y = torch.from_numpy(table[:, -1]).to(config.DEVICE)
        return x, y
    """

TRAINER = """
    import numpy as np
    import torch

    from tab import settings

    class Trainer:
        def __init__(self, model):
            self.device = settings.DEVICE
            self.model = model.to(self.device)

        def batches(self, n, d, bs=32):
            table = np.random.randn(n, d)
            for i in range(0, n, bs):
                yield torch.from_numpy(table[i:i + bs]).to(self.device)
    """


def test_a_device_constant_of_another_module_imported_by_name_or_through_the_module(tmp_path: Path) -> None:
    files = {"config.py": 'import torch\n\nDEVICE = torch.device("mps")\n', "train.py": TRAIN}
    assert lint_project(tmp_path, files, "SC403") == [("train.py", 10), ("train.py", 11)]


def test_a_trainer_s_device_from_a_settings_module_of_its_package(tmp_path: Path) -> None:
    files = {"tab/__init__.py": "", "tab/settings.py": 'DEVICE = "mps"\n', "tab/trainer.py": TRAINER}
    assert lint_project(tmp_path, files, "SC403") == [("tab/trainer.py", 15)]


def test_a_device_picked_at_run_time_assigned_under_a_condition_or_reassigned_is_silent(tmp_path: Path) -> None:
    picked = 'import torch\n\nDEVICE = "mps" if torch.backends.mps.is_available() else "cpu"\n'
    assert lint_project(tmp_path, {"config.py": picked, "train.py": TRAIN}, "SC403") == []
    conditional = 'import torch\n\nDEVICE = "cpu"\nif torch.backends.mps.is_available():\n    DEVICE = "mps"\n'
    assert lint_project(tmp_path, {"config.py": conditional, "train.py": TRAIN}, "SC403") == []
    reassigned = TRAIN.replace("    def main():\n", "    def main():\n        config.DEVICE = 'cpu'\n").replace(
        ".to(DEVICE)", ".to('cpu')")
    assert lint_project(tmp_path, {"config.py": 'DEVICE = "mps"\n', "train.py": reassigned}, "SC403") == []


# A trainer whose device is made from a dataclass config of another module (`torch.device(cfg.device)`, the field
# defaulting to "mps"), handed arrays that a function of another module draws with numpy (float64); `%s` builds
# the config.
REGRESSION_CONFIG = """
    from dataclasses import dataclass

    @dataclass
    class Config:
        n_features: int = 8
        epochs: int = 2
        device: str = "mps"
    """

REGRESSION_DATA = """
    import numpy as np

    def synthetic_regression(n, d):
        X = np.random.randn(n, d)
        w = np.random.randn(d)
        y = X @ w + 0.1 * np.random.randn(n)
        return X, y
    """

REGRESSION_TRAIN = """
    import torch
    from torch import nn

    from config import Config
    from data import synthetic_regression

    class Trainer:
        def __init__(self, cfg):
            self.cfg = cfg
            self.device = torch.device(cfg.device)
            self.model = nn.Linear(cfg.n_features, 1).to(self.device)
            self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01)

        def fit(self, X, y):
            inputs = torch.from_numpy(X)%s.to(self.device)
            targets = torch.from_numpy(y)%s.to(self.device)
            for epoch in range(self.cfg.epochs):
                self.opt.zero_grad()
                loss = nn.functional.mse_loss(self.model(inputs).squeeze(-1), targets)
                loss.backward()
                self.opt.step()

    if __name__ == "__main__":
        cfg = %s
        X, y = synthetic_regression(256, cfg.n_features)
        Trainer(cfg).fit(X, y)
    """


def _regression(tmp_path: Path, cast: str = "", config: str = "Config()") -> list[tuple[str, int]]:
    files = {"config.py": REGRESSION_CONFIG, "data.py": REGRESSION_DATA,
             "train.py": REGRESSION_TRAIN % (cast, cast, config)}
    return lint_project(tmp_path, files, "SC403")


def test_arrays_of_another_module_sent_to_a_device_a_dataclass_config_defaults_to_mps(tmp_path: Path) -> None:
    assert _regression(tmp_path) == [("train.py", 16), ("train.py", 17)]


def test_float32_arrays_or_a_config_naming_another_device_are_silent(tmp_path: Path) -> None:
    assert _regression(tmp_path, cast=".float()") == []
    assert _regression(tmp_path / "cpu", config='Config(device="cpu")') == []
    assert _regression(tmp_path / "picked", config='Config(device="mps" if torch.backends.mps.is_available() '
                                                   'else "cpu")') == []


# The device a helper of another module returns (`device = get_device()`), float64 batches drawn with numpy.
GET_DEVICE = """
    import torch

    def get_device():
        return torch.device(%s)
    """

GET_DEVICE_TRAIN = """
    import numpy as np
    import torch
    from torch import nn

    from utils import get_device

    def main():
        device = get_device()
        model = nn.Linear(6, 1).to(device)
        for step in range(10):
            xb = np.random.rand(16, 6)
            x = torch.tensor(xb, device=device)
            model(x)
    """


def test_a_device_a_helper_of_another_module_returns(tmp_path: Path) -> None:
    files = {"utils.py": GET_DEVICE % '"mps"', "train.py": GET_DEVICE_TRAIN}
    assert lint_project(tmp_path, files, "SC403") == [("train.py", 13)]
    files["utils.py"] = GET_DEVICE % '"mps" if torch.backends.mps.is_available() else "cpu"'
    assert lint_project(tmp_path / "picked", files, "SC403") == []


PREPARE = """
    import numpy as np


    def make_regression(n, d=4, noise=0.1, seed=0):
        rng = RNG
        X = rng.randn(n, d)
        w = rng.randn(d)
        y = X @ w + noise * rng.randn(n)
        return X.astype(np.float32), TARGETS
"""

REGRESSION = """
    import torch
    import torch.nn as nn

    import config
    from prepare import make_regression


    def main():
        X_np, y_np = make_regression(CALL)
        X = torch.from_numpy(X_np).to(config.DEVICE)
        y = torch.from_numpy(y_np).to(config.DEVICE)
        model = nn.Linear(X.shape[1], 1).to(config.DEVICE)
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        for epoch in range(5):
            loss = ((model(X).squeeze(-1) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""


def test_targets_a_numpy_generator_draws_in_another_module(tmp_path: Path) -> None:
    """`y = X @ w + noise * rng.randn(n)` of `rng = np.random.RandomState(seed)` (or `default_rng`'s `normal`),
    returned by a function of another module, then moved to a device constant that is always mps."""
    def found(rng: str = "np.random.RandomState(seed)", targets: str = "y", call: str = "256",
              draw: str = "randn") -> list:
        files = {"config.py": 'import torch\n\nDEVICE = torch.device("mps")\n',
                 "prepare.py": PREPARE.replace("RNG", rng).replace("TARGETS", targets).replace("randn", draw),
                 "train.py": REGRESSION.replace("CALL", call)}
        return lint_project(tmp_path, files, "SC403")

    assert found() == [("train.py", 12)]
    assert found(call="256, noise=0.5") == [("train.py", 12)]
    assert found("np.random.default_rng(seed)", draw="standard_normal") == [("train.py", 12)]
    assert found(targets="y.astype(np.float32)") == []
    # the noise scale a caller hands may be an array of any dtype
    assert found(call="256, noise=np.ones(256, dtype=np.float32)") == []
    # a generator of another library: its draws' dtype is not numpy's
    assert found("torch.Generator()") == []


TABLE = """
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class TabularDataset(Dataset):
        def __init__(self, n_rows=128, n_features=6):
            rng = np.random.default_rng(0)
            self.X = rng.normal(size=(n_rows, n_features))

        def __len__(self):
            return len(self.X)

        def __getitem__(self, idx):
            return torch.from_numpy(self.X[idx]).float(), TARGET
"""

TABLE_TRAIN = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader

    from data import TabularDataset

    device = torch.device("mps")


    def main():
        loader = DataLoader(TabularDataset(), batch_size=16, shuffle=True)
        model = nn.Linear(6, 1).to(device)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(2):
            for xb, yb in loader:
                xb, yb = xb.to(device), yb.to(device)
                loss = ((model(xb)[:, 0] - yb) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
"""


def test_a_batch_of_a_dataset_whose_items_are_float64_numpy_rows(tmp_path: Path) -> None:
    """The loader's batches stack what `__getitem__` returns: a float64 row of a table numpy drew, moved to a device
    that is always mps."""
    def found(target: str, loader: str = "DataLoader(TabularDataset(), batch_size=16, shuffle=True)") -> list:
        files = {"data.py": TABLE.replace("TARGET", target),
                 "train.py": TABLE_TRAIN.replace("DataLoader(TabularDataset(), batch_size=16, shuffle=True)", loader)}
        return lint_project(tmp_path, files, "SC403")

    assert found("torch.from_numpy(self.X[idx].sum(keepdims=True) * 2.0)") == [("train.py", 17)]
    assert found("torch.from_numpy(self.X[idx].sum(keepdims=True) * 2.0).float()") == []
    assert found("torch.tensor(1.0)") == []
    # a collate function of the project's may cast what it stacks
    assert found("torch.from_numpy(self.X[idx].sum(keepdims=True))",
                 "DataLoader(TabularDataset(), batch_size=16, collate_fn=collate)") == []
