"""SC104 asks for a run of a function (the costliest question of a lint) only where its check may find something on
some pass: a loss call, an expand to another tensor's shape, an arithmetic operator or an elementwise comparison.
What it reports is the same; a call or a test it never judges costs no run."""

from __future__ import annotations

import pytest

from shapecheck.shapes.evaluator import ShapeEvaluator
from tests.helpers import codes_of, lint


@pytest.fixture()
def runs_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions whose run on their own signature a lint made."""
    made: list[str] = []
    generic_run = ShapeEvaluator._generic_run

    def recorded(self: ShapeEvaluator, function):  # type: ignore[no-untyped-def]
        if id(function) not in self._generic_runs:
            made.append(function.name.value)
        return generic_run(self, function)

    monkeypatch.setattr(ShapeEvaluator, "_generic_run", recorded)
    return made


# `first` is what a loop filled: a run knows it better than the bindings, so it is worth one where SC104 may judge
CALLS = """\
import torch

def update(params, lr, momentum=0.0):
    bufs = []
    for p in params:
        bufs.append(torch.zeros_like(p))
    first = bufs[0]
    first.mul_(momentum).add_(params[0], alpha=lr)
    torch.nn.init.zeros_(first)
    return first
"""

TESTS = """\
import torch

def update(params):
    bufs = []
    for p in params:
        bufs.append(torch.zeros_like(p))
    first = bufs[0]
    if first is None or first in bufs:
        return None
    return first
"""


@pytest.mark.parametrize("source", [CALLS, TESTS], ids=["calls", "is-and-in"])
def test_calls_and_tests_sc104_never_judges_make_no_run(source: str, runs_made: list[str]) -> None:
    # neither a loss (an input and a target), nor an expand, nor an operator or a `==`-like comparison
    assert codes_of(lint(source, "SC104")) == []
    assert runs_made == []


LOSS_PICKED_BY_A_LOOP = """\
import torch
import torch.nn as nn

def train_step(model, x):
    y = torch.randn(8)
    for criterion in (nn.MSELoss(), nn.L1Loss()):
        pred = model(x)
        loss = criterion(torch.randn(8, 1), y)
"""


def test_a_loss_a_loop_picks_is_still_judged_on_the_run(runs_made: list[str]) -> None:
    # the callee is the loop's name: a loss on every pass, which only the run knows
    assert codes_of(lint(LOSS_PICKED_BY_A_LOOP, "SC104")) == ["SC104"]
    assert runs_made == ["train_step"]
