"""SC215 follows a loader built in the call that hands it to a helper."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

SOURCE = """
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    def make_loader(ds):
        return DataLoader(ds, sampler=DistributedSampler(ds))
    def train(loader, epochs):
        for epoch in range(epochs):
            for batch in loader:
                step(batch)
    def sample(loader):
        while True:
            for batch in loader:
                yield batch
    def run(loader, steps):
        batches = sample(loader)
        for _ in range(steps):
            step(next(batches))
"""


def rows(call: str) -> list[int]:
    source = textwrap.dedent(SOURCE) + call + "\n"
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC215"])).findings]


def test_reported_at_the_helper_s_loop_over_the_loader_it_is_handed() -> None:
    assert rows("train(make_loader(dataset), 10)") == [8]


def test_reported_at_the_argument_when_the_helper_hands_it_on() -> None:
    assert rows("run(make_loader(dataset), 100)") == [18]


def test_a_loader_that_does_not_shuffle_or_a_file_that_sets_the_epoch_is_clean() -> None:
    assert rows("train(DataLoader(ds, sampler=DistributedSampler(ds, shuffle=False)), 10)") == []
    assert rows("train(make_loader(dataset), 10)\nsampler.set_epoch(0)") == []
