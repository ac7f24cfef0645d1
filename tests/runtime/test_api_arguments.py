"""Every public function of the runtime rejects an argument of the wrong type with a TypeError (a wrong value of
the right type: ValueError) that names the argument, where the mistake is written, never deep inside on first use."""

from __future__ import annotations

import sys

import pytest
import torch
from jaxtyping import Float
from torch import Tensor

import shapecheck


def vector(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
    return x


@pytest.mark.parametrize(("options", "message"), [
    ({"first": "3"}, "argument 'first' must be an int (a number of calls) or None, not str"),
    ({"first": 2.0}, "argument 'first' must be an int (a number of calls) or None, not float"),
    ({"first": True}, "argument 'first' must be an int (a number of calls) or None, not bool"),
    ({"types": "yes"}, "argument 'types' must be True or False, not str"),
    ({"types": 1}, "argument 'types' must be True or False, not int"),
    ({"device": ["cuda"]}, "argument 'device' must be a device name"),
    ({"device": 1.5}, "argument 'device' must be a device name"),
    ({"device": b"cuda"}, "argument 'device' must be a device name"),
    ({"device": 0}, "argument 'device' must be a device name"),  # torch.device(0): whichever accelerator exists
    ({"device": False}, "argument 'device' must be a device name"),
])
def test_check_options_of_the_wrong_type(options: dict, message: str) -> None:
    with pytest.raises(TypeError) as error:
        shapecheck.check(**options)
    assert message in str(error.value)


def test_check_options_of_the_right_type_and_a_wrong_value() -> None:
    with pytest.raises(ValueError, match="argument 'first' must be >= 0, got -1"):
        shapecheck.check(first=-1)
    with pytest.raises(ValueError, match="argument 'device': .*cdua"):
        shapecheck.check(device="cdua")
    for good in ({"first": 0}, {"first": None}, {"types": True}, {"device": "cuda:1"}, {"device": torch.device("cpu")}):
        assert shapecheck.check(**good)(vector).__wrapped__ is vector


def test_check_target_of_the_wrong_type() -> None:
    for target in (42, b"f", len, torch.zeros(1), object()):
        with pytest.raises(TypeError, match="decorates functions, methods and classes, not "):
            shapecheck.check(target)
    with pytest.raises(TypeError, match=r"to require a device, write @shapecheck.check\(device='cuda'\)"):
        shapecheck.check("cuda")
    with pytest.raises(TypeError, match="not int"):
        shapecheck.check(first=1)(42)


@pytest.mark.parametrize(("packages", "message"), [
    (b"pkg", "argument 'packages' must be a package name or a list of them, not bytes"),
    (bytearray(b"pkg"), "argument 'packages' must be a package name or a list of them, not bytearray"),
    (None, "argument 'packages' must be a package name or a list of them, not NoneType"),
    (3, "argument 'packages' must be a package name or a list of them, not int"),
    (["good", b"bad"], "argument 'packages' must hold package names (str), but packages[1] is bytes"),
    ((name for name in [None]), "but packages[0] is NoneType"),
])
def test_install_import_hook_with_the_wrong_type(packages: object, message: str) -> None:
    hooks = list(sys.meta_path)
    with pytest.raises(TypeError) as error:
        shapecheck.install_import_hook(packages)
    assert message in str(error.value)
    assert sys.meta_path == hooks  # nothing installed


def test_install_import_hook_with_a_wrong_value() -> None:
    with pytest.raises(ValueError, match="names no package"):
        shapecheck.install_import_hook([])
    with pytest.raises(ValueError, match="'pkg/sub' is not a package or module name"):
        shapecheck.install_import_hook(("pkg/sub",))
    with shapecheck.install_import_hook({"json_like_pkg_that_is_not_imported": 1}) as hook:  # any iterable of names
        assert hook.packages == ["json_like_pkg_that_is_not_imported"]


@pytest.mark.parametrize("function", ["disable", "enable", "disabled"])
def test_the_switches_take_no_arguments(function: str) -> None:
    with pytest.raises(TypeError, match=rf"{function}\(\) takes 0 positional arguments but 1 was given"):
        getattr(shapecheck, function)(True)
    assert shapecheck.runtime.switch.enabled
