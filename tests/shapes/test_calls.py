"""Objects and calls: which layer a name or argument holds when a helper builds it, and what the code a call runs
finds, reported where the caller wrote it."""

from __future__ import annotations

from tests.helpers import lint


def rows(source: str, code: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint(source, code).findings]


def test_a_stack_of_helper_blocks_is_reported_at_the_block_that_does_not_fit() -> None:
    """Two blocks from one helper share its `nn.Sequential(...)`: the finding names the caller's argument."""
    found = rows('''
import torch.nn as nn

def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())

encoder = nn.Sequential(block(1, 16), block(16, 32), block(64, 64))
decoder = nn.Sequential(block(64, 32), block(32, 16))
''', "SC105")
    assert found == [(7, "`block(64, 64)` expects 64, but the layers before it give 32 channels (dim -3) "
                         "(`block(16, 32)`)")]
