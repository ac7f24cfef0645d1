"""Paths as GitHub reads them: relative to the repository root, with forward slashes.

GitHub resolves a SARIF artifact URI and a workflow annotation's `file=` against the root of the checkout, not
against the folder shapecheck ran in, so a run from a subfolder (`working-directory: backend`) must still name
`backend/model.py`.
"""

from __future__ import annotations

import os
from pathlib import Path


def source_root(start: Path) -> Path:
    """The nearest folder from `start` upwards that holds `.git` (a folder, or a file in worktrees and submodules);
    `start` itself outside any repository."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def absolute(filename: str) -> Path:
    # abspath, not resolve(): `..` is folded but symlinks keep the name the user linted them under.
    return Path(os.path.abspath(filename))


def repository_path(filename: str, root: Path) -> str | None:
    """`filename` relative to `root` with forward slashes; None for a file outside it."""
    try:
        return absolute(filename).relative_to(root).as_posix()
    except ValueError:
        return None
