r"""Paths as the formats write them.

GitHub resolves a SARIF artifact URI and a workflow annotation's `file=` against the root of the checkout, not
against the folder shapecheck ran in, so a run from a subfolder (`working-directory: backend`) must still name
`backend/model.py`; GitLab resolves a Code Quality path against `CI_PROJECT_DIR`.

A file name need not be UTF-8 (Linux names are bytes: `caf\xe9.py`). Python hands such a name over with each
undecodable byte as a lone surrogate, which no strict UTF-8 encoder, JSON parser or XML parser accepts. Every
format but SARIF (which percent-encodes the URI's bytes) writes it through `shown`: each undecodable byte as the
four characters `\xNN`, the way Python's `backslashreplace` and `ls --escape` spell it, so the output is valid UTF-8
and still says which byte it was.
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


def shown(filename: str) -> str:
    """`filename` as valid Unicode: each byte that was not UTF-8 (a lone surrogate from `surrogateescape`) written
    `\\xNN`; any other lone surrogate (only a caller's bug makes one) as its UTF-8 bytes the same way."""
    if filename.isascii():
        return filename
    try:
        raw = filename.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = filename.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "backslashreplace")


def relative_to(filename: str, root: str | Path) -> str:
    """`filename` relative to `root` with forward slashes, with `..` where it lies outside it."""
    try:
        return Path(os.path.relpath(absolute(filename), root)).as_posix()
    except ValueError:  # on another drive (Windows): no relative path
        return absolute(filename).as_posix()


def repository_path(filename: str, root: Path) -> str | None:
    """`filename` relative to `root` with forward slashes; None for a file outside it."""
    try:
        return absolute(filename).relative_to(root).as_posix()
    except ValueError:
        return None
