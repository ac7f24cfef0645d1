"""Under pytest a failed check reads like a failed assert: the traceback ends at the caller's line, with no frame
of shapecheck's (nor torch's Module.__call__ on the way into a checked forward) and so no tensor values printed
as those frames' arguments; the exception is named as it is imported."""

from __future__ import annotations

import pickle
import re

import pytest

import shapecheck

# Loaded here, before pytester's in-process runs: each run unloads the modules first imported inside it, and a
# second run would raise errors of reloaded classes that the plugin, loaded once, does not know.
_RUNTIME = (shapecheck.check, shapecheck.CheckError)

TESTS = '''
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck


@shapecheck.check
def add(x: Float[Tensor, "N"], y: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
    return x + y


@shapecheck.check
def later(x: "Alias") -> "Alias":  # resolves on the first call: another wrapper in between
    return x


Alias = Float[Tensor, "N"]


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    @shapecheck.check
    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def forward(self, batch):
        return self.head(batch)


def values(*shape):
    return torch.full(shape, 7.25)


def test_devices():
    add(values(3), torch.zeros(3, device="meta"))


def test_shapes():
    add(values(3), values(4))


def test_deferred():
    later(values(3, 3))


def test_module():
    Head().to("meta")(values(3, 4))


def test_nested_module():
    Model().to("meta")(values(3, 4))


def test_types():
    def f(x: Float[Tensor, "N"], n: int) -> None:
        pass

    shapecheck.check(types=True)(f)(values(3), "three")
'''


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_checked=TESTS)
    return pytester


@pytest.mark.parametrize("style", ["auto", "long", "short"])
def test_the_traceback_ends_at_the_callers_line_without_tensor_values(suite: pytest.Pytester, style: str) -> None:
    done = suite.runpytest_inprocess("-p", "no:cacheprovider", f"--tb={style}")
    done.assert_outcomes(failed=6)
    text = done.stdout.str()
    assert "shapecheck/runtime" not in text and "torch/nn/modules/module.py" not in text
    for section in re.split(r"\n_+ (?=test_)", text)[1:]:
        # A tensor's repr: only an argument shown for a frame would print it. pytest shows the arguments of the
        # user's own frames (here Model.forward's `batch`), as for any failure; none of ours or torch's.
        if not section.startswith("test_nested_module"):
            assert "7.2500" not in section, section
    for error in ("shapecheck.DeviceError: shapecheck: add() got tensors on 2 devices",
                  "shapecheck.ShapeError: shapecheck: add() argument 'y'",
                  "shapecheck.ShapeError: shapecheck: later() argument 'x'",
                  "shapecheck.DeviceError: shapecheck: Head.forward() got tensors on 2 devices",
                  "shapecheck.CheckError: shapecheck (types=True):"):
        assert error in text
    if style != "short":  # the last frame shown is the caller's (the source line, carets on 3.11+, the error)
        for line in (r'Head\(\).to\("meta"\)\(values\(3, 4\)\)', r"return self.head\(batch\)"):
            assert re.search(rf">\s+{line}\n(\s+\^+\n)?E\s+shapecheck.DeviceError", text), line


def test_fulltrace_keeps_every_frame(suite: pytest.Pytester) -> None:
    text = suite.runpytest_inprocess("-p", "no:cacheprovider", "--fulltrace", "-k", "test_module").stdout.str()
    assert "torch/nn/modules/module.py" in text and "shapecheck/runtime/signature.py" in text


def test_errors_are_named_and_pickled_as_imported() -> None:
    error = shapecheck.ShapeError("shapecheck: f() argument 'x' ...")
    assert repr(error).startswith("ShapeError(") and type(error).__module__ == "shapecheck"
    assert f"{type(error).__module__}.{type(error).__qualname__}" == "shapecheck.ShapeError"
    for kind in (shapecheck.CheckError, shapecheck.ShapeError, shapecheck.DeviceError):
        copy = pickle.loads(pickle.dumps(kind("message")))
        assert type(copy) is kind and str(copy) == "message"
