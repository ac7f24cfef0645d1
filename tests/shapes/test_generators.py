"""What a loop over a generator function's call binds: every value its `yield` statements hand out, joined; nothing
when a value is sent in or handed on with `yield from`."""

from __future__ import annotations

from tests.helpers import lint
from tests.shapes.probe import probe


def test_a_batch_generator_gives_its_yielded_batches() -> None:
    assert probe('''
import torch

def batches(n, batch_size=4, seq_len=12):
    for _ in range(n):
        x = torch.randn(batch_size, seq_len, 5)
        yield x, x.sum(dim=(1, 2))

for x, y in batches(3):
    probe(x)
    probe(y)
for step, (x, y) in enumerate(batches(3, seq_len=20)):
    probe(x)
''') == ["(4, 12, 5)", "(4,)", "(4, 20, 5)"]


def test_yields_that_differ_are_widened() -> None:
    """A generator that hands out a last, shorter batch: a loop over it knows the sizes its batches agree on, the
    batch a size of its own."""
    assert probe('''
import torch

def chunks(data, size=32):
    for start in range(0, 100 - size, size):
        yield torch.randn(size, 8)
    yield torch.randn(100 % size, 8)

for chunk in chunks(None):
    probe(chunk)
''') == ["(n, 8)"]


def test_a_generator_that_is_sent_values_or_delegates_gives_nothing() -> None:
    assert probe('''
import torch

def echo():
    x = torch.randn(4, 8)
    while True:
        x = yield x

def delegating():
    yield torch.randn(4, 8)
    yield from other()

for a in echo():
    probe(a)
for b in delegating():
    probe(b)
''') == ["(...)", "(...)"]


def test_a_shape_bug_on_a_generators_batches_is_reported() -> None:
    """A model that runs a batch-first input time-first, fed from a generator of (B, T, F) batches."""
    found = [(f.location.row, f.code) for f in lint('''
import torch
from torch import nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(5, 16)

    def forward(self, x):
        h = c = torch.zeros(x.size(0), 16)
        for t in range(x.size(0)):
            h, c = self.cell(x[t], (h, c))
        return h

def batches(n):
    for _ in range(n):
        yield torch.randn(4, 12, 5)

model = Model()
for x in batches(3):
    out = model(x)
''', "SC105").findings]
    assert found == [(13, "SC105")]


FED_FROM_A_CONFIG = '''
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Config:
    features: int = 12
    batch_size: int = 4


def batches(cfg: Config, n=2):
    for _ in range(n):
        %s


def train(cfg: Config):
    model = nn.Linear(8, 1)
    for x in batches(cfg):
        out = model(x)


train(Config())
'''


def test_a_generator_that_certainly_yields_runs_the_loop_over_it() -> None:
    """Its `yield` runs on every call (a loop of 2 passes), so the loop over it runs its body: what fails there on
    the config's sizes is reported, at the call inside the loop."""
    found = [(f.location.row, f.code) for f in lint(FED_FROM_A_CONFIG % "yield torch.randn(cfg.batch_size, "
                                                                         "cfg.features)", "SC105").findings]
    assert found == [(22, "SC105")]


def test_a_generator_that_may_yield_nothing_leaves_the_loop_body_uncertain() -> None:
    found = lint(FED_FROM_A_CONFIG % "if torch.rand(1).item() > 0.5:\n            yield torch.randn(cfg.batch_size, "
                                     "cfg.features)", "SC105").findings
    assert found == []
