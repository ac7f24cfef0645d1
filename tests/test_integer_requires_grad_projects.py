"""SC204 across a project's modules: int coefficients from a command-line option converted by `type=int`, and from
a config dict a helper deep-copies before handing it out; the look-alikes that may hold floats stay silent."""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from tests.helpers import lint_project
from tests.helpers import project_rows as rows_of_project

LAYERS = """
    import torch
    from torch import nn

    class Rational(nn.Module):
        def __init__(self, coeffs):
            super().__init__()
            self.p = nn.Parameter(torch.tensor(coeffs))

    class Net(nn.Module):
        def __init__(self, opts):
            super().__init__()
            self.fc = nn.Linear(4, opts.hidden)
            self.act = Rational(opts.num_coeffs)
    """

# A package in a src/ layout: the options parsed by a helper of another module, the model handed the namespace.
OPTIONS = """
    import argparse

    def get_args():
        parser = argparse.ArgumentParser(description="rational activations")
        parser.add_argument("--hidden", type=int, default=32)
        parser.add_argument("--num-coeffs", %s, nargs="*", default=[0, 1, 1, 0])
        return parser.parse_args()
    """

TRAIN = """
    from .model import Net
    from .options import get_args

    def main():
        args = get_args()
        net = Net(args)
    """

# The config a helper of another module deep-copies, then changes with overrides it is handed.
CONFIG = """
    import copy

    _BASE = {"act": {"num": [0, 1, 1], "den": [1.0]}, "width": 8}

    def get_config(overrides=None):
        cfg = copy.deepcopy(_BASE)%s
        return cfg
    """

OVERRIDES = """
        for key, value in (overrides or {}).items():
            section, name = key.split(".")
            cfg[section][name] = value"""

RATIONAL = """
    import torch
    from torch import nn

    class Rational(nn.Module):
        def __init__(self, spec):
            super().__init__()
            self.num = nn.Parameter(torch.tensor(spec["num"]))
            self.den = nn.Parameter(torch.tensor(spec["den"]))
    """

project_rows = partial(rows_of_project, select="SC204")  # the rows SC204 reports in a written project




def _options_package(tmp_path: Path, option_type: str) -> list[int]:
    return project_rows(tmp_path, "src/poly/model.py", {
        "src/poly/__init__.py": "", "src/poly/model.py": LAYERS, "src/poly/options.py": OPTIONS % option_type,
        "src/poly/train.py": TRAIN})


def test_an_option_converted_to_int_holds_ints_whatever_the_command_line(tmp_path: Path) -> None:
    assert _options_package(tmp_path, "type=int") == [8]


def test_an_option_converted_to_float_or_not_converted_is_silent(tmp_path: Path) -> None:
    # `type=float` leaves the int default as it is but makes floats of what the command line gives: not certain
    assert _options_package(tmp_path, "type=float") == []
    assert _options_package(tmp_path, "type=str") == []


def test_an_option_in_the_script_s_own_parser() -> None:
    source = textwrap.dedent("""
        import argparse
        import torch
        from torch import nn

        class PolyAct(nn.Module):
            def __init__(self, coeffs):
                super().__init__()
                self.coeffs = nn.Parameter(torch.tensor(coeffs))

        parser = argparse.ArgumentParser()
        parser.add_argument("--coeffs", type=int, nargs="+", default=[0, 1, 0])
        parser.add_argument("--float-coeffs", type=float, nargs="+", default=[0, 1, 0])
        args = parser.parse_args()
        act = PolyAct(args.coeffs)
        """)
    found = lint_text(source, "train.py", resolve(["SC204"])).findings
    assert [finding.location.row for finding in found] == [9]
    floats = source.replace("PolyAct(args.coeffs)", "PolyAct(args.float_coeffs)")
    assert lint_text(floats, "train.py", resolve(["SC204"])).findings == []


def _config_package(tmp_path: Path, changes: str, train: str) -> list[int]:
    return project_rows(tmp_path, "pkg/layers.py", {
        "pkg/__init__.py": "", "pkg/config.py": CONFIG % changes, "pkg/layers.py": RATIONAL, "train.py": train})


def test_a_deep_copy_of_a_config_holds_its_int_defaults(tmp_path: Path) -> None:
    train = "from pkg.config import get_config\nfrom pkg.layers import Rational\nact = Rational(get_config()['act'])\n"
    assert _config_package(tmp_path, "", train) == [8]
    # overrides the call does not hand leave the defaults
    assert _config_package(tmp_path, OVERRIDES, train) == [8]


def test_a_config_changed_with_overrides_from_the_command_line_is_silent(tmp_path: Path) -> None:
    train = """
        import sys
        from pkg.config import get_config
        from pkg.layers import Rational
        cfg = get_config(dict(arg.split("=") for arg in sys.argv[1:]))
        act = Rational(cfg["act"])
        """
    assert _config_package(tmp_path, OVERRIDES, train) == []


# A rational activation whose coefficients default to None, replaced in the constructor by int constants of its
# module; `%s` constructs it in another module.
NONE_DEFAULTS = """
    import torch
    from torch import nn

    DEFAULT_NUMERATOR = [1, 2, 1, 0]

    class Rational(nn.Module):
        def __init__(self, numerator=None):
            super().__init__()
            numerator = DEFAULT_NUMERATOR if numerator is None else numerator
            self.numerator = nn.Parameter(torch.tensor(numerator))
    """

NONE_DEFAULTS_MODEL = """
    from torch import nn

    from acts.rational import Rational

    class Net(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.fc = nn.Linear(d, d)
            self.act = %s
    """


def _none_defaults(tmp_path: Path, construction: str) -> list[int]:
    files = {"acts/__init__.py": "", "acts/rational.py": NONE_DEFAULTS, "model.py": NONE_DEFAULTS_MODEL % construction}
    return rows_of_project(tmp_path, "acts/rational.py", files, "SC204")


def test_a_none_default_replaced_by_an_int_constant_where_every_construction_leaves_it(tmp_path: Path) -> None:
    assert _none_defaults(tmp_path, "Rational()") == [11]
    assert _none_defaults(tmp_path, "Rational(numerator=None)") == [11]


def test_a_construction_passing_float_coefficients_is_silent(tmp_path: Path) -> None:
    assert _none_defaults(tmp_path, "Rational([0.5, 1.0, 0.5])") == []


# A helper of another module whose coefficients default to a tuple of ints; `%s` is what train.py calls it with.
COEFFICIENT_HELPER = """
    import torch

    def make_coefficients(values=(1, 2, 1)):
        coeffs = torch.tensor(values)
        coeffs.requires_grad_()
        return coeffs
    """

COEFFICIENT_TRAIN = """
    import torch
    from helpers import make_coefficients

    def main():
        c = make_coefficients(%s)
        x = torch.randn(5)
        (c[0] + c[1] * x + c[2] * x ** 2).sum().backward()
    """


def _coefficient_helper(tmp_path: Path, passed: str) -> list[int]:
    files = {"helpers.py": COEFFICIENT_HELPER, "train.py": COEFFICIENT_TRAIN % passed}
    return rows_of_project(tmp_path, "helpers.py", files, "SC204")


def test_a_plain_function_s_int_default_where_every_call_leaves_it(tmp_path: Path) -> None:
    assert _coefficient_helper(tmp_path, "") == [6]
    assert _coefficient_helper(tmp_path, "[0, 1, 1]") == [6]


def test_a_plain_function_called_with_float_coefficients_is_silent(tmp_path: Path) -> None:
    assert _coefficient_helper(tmp_path, "(1.0, 2.0, 1.0)") == []
    assert _coefficient_helper(tmp_path, "values=torch.linspace(0, 1, 3).tolist()") == []


# A smoothing kernel from a config dict of another module, reshaped before it is made a parameter.
SMOOTHER = """
    import torch
    from torch import nn
    from config import CONFIG

    class Smoother(nn.Module):
        def __init__(self, kernel=None):
            super().__init__()
            kernel = CONFIG["kernel"] if kernel is None else kernel
            self.kernel = nn.Parameter(torch.tensor(kernel).view(1, 1, -1))

        def forward(self, x):
            return torch.nn.functional.conv1d(x, self.kernel, padding=1)
    """


def test_a_reshaped_tensor_keeps_the_int_dtype_of_its_config_data(tmp_path: Path) -> None:
    files = {"config.py": 'CONFIG = {"hidden": 8, "kernel": [1, 2, 1]}\n', "model.py": SMOOTHER,
             "train.py": "from model import Smoother\nm = Smoother()\n"}
    assert rows_of_project(tmp_path, "model.py", files, "SC204") == [10]
    files["config.py"] = 'CONFIG = {"hidden": 8, "kernel": [0.25, 0.5, 0.25]}\n'
    assert rows_of_project(tmp_path / "floats", "model.py", files, "SC204") == []


POLY = """
    import torch
    import torch.nn as nn


    class PolyActivation(nn.Module):
        def __init__(self, coeffs=None):
            super().__init__()
            self.coeffs = nn.Parameter(torch.tensor(coeffs if coeffs is not None else DEFAULT))

        def forward(self, x):
            powers = torch.stack([x ** i for i in range(len(self.coeffs))], dim=-1)
            return (powers * self.coeffs).sum(-1)
"""

POLY_NET = """
    import torch.nn as nn

    from activations import PolyActivation


    class Net(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.cfg = cfg
            self.fc1 = nn.Linear(cfg["d_in"], cfg["d_hidden"])
            self.act = PolyActivation(ACT)
            self.fc2 = nn.Linear(cfg["d_hidden"], 1)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))
"""

POLY_TRAIN = """
    import torch

    from model import Net

    CONFIG = {"d_in": 4, "d_hidden": 8, "activation": {"coeffs": [0, 1, 0, 1]}}

    net = Net(CONFIG)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
"""


def test_coefficients_of_a_dict_config_handed_to_a_model_class_of_another_module(tmp_path: Path) -> None:
    """`Net(CONFIG)` of another module's class, which only reads the dict (and keeps it as `self.cfg`): the dict
    stays what the code states, so `PolyActivation(cfg["activation"]["coeffs"])` gets its list of ints; a
    constructor leaving it None takes the int default `coeffs if coeffs is not None else [0, 1]`."""
    def found(act: str, default: str = "[0.0, 1.0]", net: str = POLY_NET) -> list[tuple[str, int]]:
        files = {"activations.py": POLY.replace("DEFAULT", default), "model.py": net.replace("ACT", act),
                 "train.py": POLY_TRAIN}
        return lint_project(tmp_path, files, "SC204")

    assert found('cfg["activation"]["coeffs"]') == [("activations.py", 9)]
    assert found("", default="[0, 1]") == [("activations.py", 9)]
    assert found("") == []
    # the model's class changes the dict it keeps: what it holds is no longer the literal
    changing = POLY_NET.replace("self.cfg = cfg\n", 'self.cfg = cfg\n            self.cfg["activation"] = {}\n')
    assert found('cfg["activation"]["coeffs"]', net=changing) == []
