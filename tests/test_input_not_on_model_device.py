"""SC211 reads a method that moves its model in place and loops over the loader its calls hand it."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

WRAPPER = """
    import torch
    from torch.utils.data import DataLoader, TensorDataset
    class Wrapper:
        def __init__(self, model, device="cuda"):
            self.model, self.device = model, device
        def fit(self, loader):
            self.model.to(self.device)
            for x, y in loader:
                self.model(x)
"""


def rows(caller: str) -> list[int]:
    source = textwrap.dedent(WRAPPER) + textwrap.dedent(caller)
    return [finding.location.row for finding in lint_text(source, "fit.py", resolve(["SC211"])).findings]


def test_every_call_hands_the_method_a_cpu_loader() -> None:
    assert rows("""
        x = torch.randn(64, 5)
        y = -(x @ torch.randn(5, 1)) + 1
        Wrapper(torch.nn.Linear(5, 1)).fit(DataLoader(TensorDataset(x, y)))
    """) == []  # built in the call: no name to read its dataset through
    assert rows("""
        x = torch.randn(64, 5)
        y = -(x @ torch.randn(5, 1)) + 1
        loader = DataLoader(TensorDataset(x, y))
        Wrapper(torch.nn.Linear(5, 1)).fit(loader)
    """) == [10]


def test_a_loader_of_unknown_tensors_or_another_call_with_an_unknown_loader_is_clean() -> None:
    assert rows("""
        loader = DataLoader(TensorDataset(features, torch.randn(64, 1)))
        Wrapper(torch.nn.Linear(5, 1)).fit(loader)
    """) == []
    assert rows("""
        wrapper = Wrapper(torch.nn.Linear(5, 1))
        wrapper.fit(DataLoader(TensorDataset(torch.randn(64, 5), torch.randn(64, 1))))
        wrapper.fit(make_loader())
    """) == []
