"""Shared setup for the runtime tests: CUDA tests skip on machines without a GPU."""

from __future__ import annotations

import pytest
import torch

import shapecheck


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _checks_enabled():
    """Every test starts with checks on, whatever an earlier failing test left behind."""
    shapecheck.enable()
    yield
    shapecheck.enable()
