"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # for the pytest plugin's tests


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path
