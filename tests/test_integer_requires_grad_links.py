"""SC204 link of stop 45: coefficients a constructor takes from a default list of ints where its parameter is
left None (`torch.tensor(coeffs if coeffs is not None else [1, 0, -2, 1])`), every construction leaving it so."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

POLY = """
    import torch
    import torch.nn as nn


    class Poly(nn.Module):
        def __init__(self, coeffs=None):
            super().__init__()
            self.coeffs = nn.Parameter(torch.tensor(coeffs if coeffs is not None else [1, 0, -2, 1]))

        def forward(self, x):
            return sum(c * x ** i for i, c in enumerate(self.coeffs))

"""

TRAIN = """
    import torch

    from poly import Poly


    def main():
        model = Poly()
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        x = torch.linspace(-1, 1, 16)
        for _ in range(3):
            loss = (model(x) - x.sin()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def _lint(tmp_path: Path, poly: str = POLY, train: str = TRAIN) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"poly.py": poly, "train.py": train}, "SC204")


def test_an_int_list_replacing_a_parameter_left_none(tmp_path: Path) -> None:
    assert _lint(tmp_path) == [("poly.py", 9)]


def test_a_float_list_is_clean(tmp_path: Path) -> None:
    floats = POLY.replace("else [1, 0, -2, 1]", "else [1.0, 0.0, -2.0, 1.0]")
    assert floats != POLY
    assert _lint(tmp_path, floats) == []


def test_a_construction_passing_floats_is_clean(tmp_path: Path) -> None:
    given = TRAIN.replace("model = Poly()", "model = Poly([0.5, 1.0, 0.0])")
    assert given != TRAIN
    assert _lint(tmp_path, train=given) == []
