"""Off switches (environment, run time) and sampling with `first=N`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from jaxtyping import Float
from torch import Tensor

import shapecheck

ROOT = Path(__file__).resolve().parents[2]


def t(*shape: int) -> Tensor:
    return torch.zeros(shape)


@shapecheck.check
def vector(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
    return x


def test_disable_and_enable():
    shapecheck.disable()
    assert vector(t(2, 2)).shape == (2, 2)
    shapecheck.enable()
    with pytest.raises(shapecheck.ShapeError):
        vector(t(2, 2))


def test_disabled_block_nests_and_restores_even_on_error():
    with shapecheck.disabled():
        vector(t(2, 2))
        with shapecheck.disabled():
            vector(t(2, 2))
        vector(t(2, 2))  # the inner block restored "disabled", not "enabled"
        with pytest.raises(RuntimeError):
            with shapecheck.disabled():
                raise RuntimeError
        vector(t(2, 2))
    with pytest.raises(shapecheck.ShapeError):
        vector(t(2, 2))


def test_disabled_also_works_as_a_decorator():
    @shapecheck.disabled()
    def unchecked_region() -> Tensor:
        return vector(t(2, 2))

    assert unchecked_region().shape == (2, 2)
    with pytest.raises(shapecheck.ShapeError):
        vector(t(2, 2))


def test_disabled_checks_devices_neither():
    @shapecheck.check
    def f(x: Tensor, y: Tensor) -> None:
        pass

    with shapecheck.disabled():
        f(t(1), torch.zeros(1, device="meta"))


def test_first_n_checks_only_the_first_calls():
    calls = []

    @shapecheck.check(first=2)
    def f(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        calls.append(x.shape)
        return x

    f(t(1))
    with pytest.raises(shapecheck.ShapeError):
        f(t(1, 1))  # call 2: checked
    f(t(1, 1))  # call 3: no longer checked
    f(t(1, 1, 1))
    assert calls == [(1,), (1, 1), (1, 1, 1)]  # the failed call never ran the function


def test_first_zero_never_checks():
    @shapecheck.check(first=0)
    def f(x: Float[Tensor, "N"]) -> None:
        pass

    f(t(1, 1))


def test_environment_variable_makes_check_return_the_function_itself():
    script = textwrap.dedent("""
        import shapecheck, torch
        from jaxtyping import Float
        from torch import Tensor, nn

        def f(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
            return x

        class M(nn.Module):
            def forward(self, x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
                return x

        forward = M.forward
        assert shapecheck.check(f) is f
        assert shapecheck.check(device="cuda", first=3)(f) is f
        assert shapecheck.check(M) is M and M.forward is forward
        f(torch.zeros(2, 2))
        hook = shapecheck.install_import_hook("json")
        import sys
        assert hook.finder not in sys.meta_path
        print("ok")
    """)
    env = {**os.environ, "SHAPECHECK_DISABLE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("value, disabled", [("1", True), ("true", True), ("0", False), ("", False)])
def test_environment_variable_values(value, disabled):
    env = {**os.environ, "SHAPECHECK_DISABLE": value, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", "from shapecheck.runtime import switch; "
                                                 "print(switch.DISABLED_BY_ENV)"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == str(disabled), done.stderr
