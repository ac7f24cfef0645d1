"""SC401 reads a write of a module-level tensor inside a function as a write of that tensor."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve


def rows(source: str) -> list[int]:
    return [finding.location.row
            for finding in lint_text(textwrap.dedent(source), "script.py", resolve(["SC401"])).findings]


def test_a_function_filling_the_module_buffer_writes_it() -> None:
    assert rows("""
        import torch
        buffer = torch.FloatTensor(8, 4)
        def refill(batch):
            buffer.data.copy_(batch)
        def total():
            return buffer.sum()
    """) == []


def test_a_local_of_the_same_name_is_another_tensor() -> None:
    assert rows("""
        import torch
        buffer = torch.FloatTensor(8, 4)
        def refill(batch):
            buffer = torch.zeros(8, 4)
            buffer.copy_(batch)
            return buffer
        def total():
            return buffer.sum()
    """) == [3]  # the module's buffer is read, never written
    assert rows("""
        import torch
        def refill(buffer, batch):
            buffer.copy_(batch)
        def total():
            buffer = torch.FloatTensor(8, 4)
            return buffer.sum()
    """) == [6]  # a parameter of that name is not the function's local
