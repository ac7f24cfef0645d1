"""`install_import_hook`: whole packages checked without editing them. Each test writes a throwaway package
under tmp_path and imports it under a unique name, so tests stay independent (also under xdist)."""

from __future__ import annotations

import importlib
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
import torch

import shapecheck
from shapecheck.runtime.import_hook import already_imported

SOURCE = '''
from __future__ import annotations

import dataclasses
import typing

import torch
from jaxtyping import Float
from torch import Tensor, nn

if typing.TYPE_CHECKING:
    from collections import OrderedDict  # only for type checkers: must not break the hook


def scale(x: Float[Tensor, "B D"], w: Float[Tensor, "D"]) -> Float[Tensor, "B D"]:
    return x * w


def untyped(x):
    return x


def only_type_checking(x: OrderedDict) -> None:
    return None


def outer():
    def inner(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        return x
    return inner


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x)

    @staticmethod
    def helper(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        return x


class Frozen(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4, 2))

    @torch.no_grad()
    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return x @ self.weight


@dataclasses.dataclass
class Batch:
    x: Float[Tensor, "B T"]
    y: Float[Tensor, "B"]


@typing.no_type_check
def opted_out(x: Float[Tensor, "N"]) -> None:
    return None


@typing.overload
def over(x: int) -> int: ...
@typing.overload
def over(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]: ...
def over(x):
    return x
'''


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Writes SOURCE as `<name>/core.py` (plus an `__init__`) and returns the package name."""
    name = f"hooked_{uuid.uuid4().hex[:8]}"
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("from . import core\n")
    (root / "core.py").write_text(textwrap.dedent(SOURCE))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    for module in [module for module in sys.modules if module == name or module.startswith(name + ".")]:
        del sys.modules[module]


def t(*shape: int) -> torch.Tensor:
    return torch.zeros(shape)


def test_every_annotated_function_method_and_class_is_checked(package):
    with shapecheck.install_import_hook(package):
        core = importlib.import_module(f"{package}.core")
    core.scale(t(2, 3), t(3))
    with pytest.raises(shapecheck.ShapeError, match=r"scale\(\) argument 'w'"):
        core.scale(t(2, 3), t(4))
    with pytest.raises(shapecheck.ShapeError):
        core.outer()(t(2, 2))
    with pytest.raises(shapecheck.ShapeError, match=r"Head.forward\(\)"):
        core.Head()(t(3, 5))
    with pytest.raises(shapecheck.DeviceError, match="fc.weight"):
        core.Head().to("meta")(t(3, 4))
    with pytest.raises(shapecheck.ShapeError, match=r"Head.helper\(\)"):
        core.Head.helper(t(2, 2))
    with pytest.raises(shapecheck.ShapeError, match=r"y.shape\[0\] is B=3, but x.shape\[0\] bound B=2"):
        core.Batch(t(2, 5), t(3))


def test_methods_under_other_decorators_are_wrapped_once_and_keep_those_decorators(package):
    with shapecheck.install_import_hook(package):
        core = importlib.import_module(f"{package}.core")
    frozen = core.Frozen()
    assert not frozen(t(3, 4)).requires_grad  # no_grad still applies
    with pytest.raises(shapecheck.DeviceError, match="weight"):
        frozen(torch.zeros(3, 4, device="meta"))
    checked_layers, function = 0, core.Frozen.forward
    while function is not None:
        checked_layers += function.__code__.co_filename.startswith("<shapecheck")
        function = getattr(function, "__wrapped__", None)
    assert checked_layers == 1


def test_unannotated_opted_out_and_overloaded_functions_stay_unwrapped(package):
    with shapecheck.install_import_hook(package):
        core = importlib.import_module(f"{package}.core")
    for name in ["untyped", "only_type_checking", "opted_out", "over"]:
        assert not hasattr(getattr(core, name), "__wrapped__"), name
    core.only_type_checking(42)
    core.opted_out(t(2, 2))


def test_modules_imported_after_uninstall_are_plain_and_no_bytecode_is_shared(package):
    hook = shapecheck.install_import_hook(package)
    hook.uninstall()
    core = importlib.import_module(f"{package}.core")
    core.scale(t(2, 3), t(1))  # not instrumented: broadcasting runs, though w breaks its annotation
    for module in [module for module in sys.modules if module.startswith(package)]:
        del sys.modules[module]
    with shapecheck.install_import_hook([package]):  # a cached plain .pyc must not be reused...
        core = importlib.import_module(f"{package}.core")
    with pytest.raises(shapecheck.ShapeError):
        core.scale(t(2, 3), t(1))
    for module in [module for module in sys.modules if module.startswith(package)]:
        del sys.modules[module]
    core = importlib.import_module(f"{package}.core")  # ...and the instrumented code must not be cached either
    core.scale(t(2, 3), t(1))


def test_explicit_decorators_keep_their_options_and_nothing_is_wrapped_twice(package, tmp_path):
    (tmp_path / package / "explicit.py").write_text(textwrap.dedent('''
        import shapecheck
        from jaxtyping import Float
        from torch import Tensor, nn

        @shapecheck.check(first=1)
        def sampled(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
            return x

        @shapecheck.check(device="meta")
        class OnMeta(nn.Module):
            def forward(self, x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
                return x
    '''))
    with shapecheck.install_import_hook(package):
        explicit = importlib.import_module(f"{package}.explicit")
    assert explicit.sampled.__wrapped__.__name__ == "sampled"
    assert not hasattr(explicit.sampled.__wrapped__, "__wrapped__")
    explicit.sampled(t(2))
    explicit.sampled(t(2, 2))  # first=1 survived the hook's own decorator
    with pytest.raises(shapecheck.DeviceError, match="requires device meta"):
        explicit.OnMeta()(t(2))


def test_already_imported_modules_are_reported(package):
    importlib.import_module(package)
    assert already_imported([package]) == sorted([package, f"{package}.core"])
    with pytest.warns(UserWarning, match="imported before the import hook"):
        shapecheck.install_import_hook(package).uninstall()


def test_bad_package_name():
    with pytest.raises(ValueError, match="not a package"):
        shapecheck.install_import_hook("my-package")


def test_hook_leaves_other_packages_alone(package):
    with shapecheck.install_import_hook(package) as hook:
        assert hook.finder in sys.meta_path
        assert hook.finder.find_spec("json") is None
    assert hook.finder not in sys.meta_path
