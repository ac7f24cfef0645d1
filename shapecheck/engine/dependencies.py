"""The other files an analysis reads: engine code that reads or looks for a file besides the one being linted (the
project's packaging files for its torch version, a first-party module a model comes from) records it here, and the
linter puts the list in `FileResult.dependencies`, so the result cache knows when the result goes stale.

Record a path whether or not it exists: one that appears later changes the result too. Where the analysis read
the files a glob pattern matches (`requirements*.txt`), record the pattern with `record_pattern`: a match that
appears, goes or changes counts. Each recorded entry is a glob pattern, a plain path `glob.escape`d (which leaves any
ordinary name as it is), so the two never mix up.

The same block bounds how much of other files one file's analysis reads (`affordable`), so that no file is slow.
"""

from __future__ import annotations

import glob
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

_state = threading.local()  # each thread lints one file at a time: the editor server's and the CLI's
_caches: list[Callable[[], None]] = []
_SPENT = object()  # the total charged in a block, kept beside its keys


@contextmanager
def collecting() -> Iterator[set[str]]:
    """Collect, into the set this yields, what `record` is told while the block runs."""
    outer = getattr(_state, "paths", None)
    outer_charged = getattr(_state, "charged", None)
    outer_block = getattr(_state, "block", None)
    _state.paths = paths = set()
    _state.charged = {}
    _state.block = object()
    try:
        yield paths
    finally:
        _state.paths = outer
        _state.charged = outer_charged
        _state.block = outer_block
        if outer is not None:
            outer |= paths


def current_block() -> object | None:
    """A token of the innermost `collecting` block, None outside one. Files are taken not to change while one file
    is linted, so what was checked against the file system in this block need not be checked again in it."""
    return getattr(_state, "block", None)


def record(paths: Iterable[str]) -> None:
    """Note that the analysis of the current file read (or looked for) `paths`."""
    collected = getattr(_state, "paths", None)
    if collected is not None:
        collected.update(entries(paths))


def entries(paths: Iterable[str]) -> tuple[str, ...]:
    """What `record` notes for `paths`: for a caller that notes the same paths again and again (`record_again`)."""
    return tuple(glob.escape(os.path.abspath(path)) for path in paths)


def affordable(key: object, cost: int, limit: int) -> bool:
    """Whether the analysis of the current file may read `key` (another file, or a part of one) costing `cost`
    without what it read in all passing `limit`; when it may, `key` is charged for, once however often it is asked.
    A key counts whether or not a process-wide cache holds it already, so what a file reads does not depend on
    which files were linted before it. Outside a `collecting` block there is no limit."""
    charged = getattr(_state, "charged", None)
    if charged is None or key in charged:
        return True
    spent = charged.get(_SPENT, 0)
    if spent + cost > limit:
        return False
    charged[key] = cost
    charged[_SPENT] = spent + cost
    return True


def record_pattern(folder: str, pattern: str) -> None:
    """Note that the analysis read the files in `folder` whose names match `pattern` (`requirements*.txt`)."""
    collected = getattr(_state, "paths", None)
    if collected is not None:
        collected.add(pattern_entry(folder, pattern))


def pattern_entry(folder: str, pattern: str) -> str:
    """The entry `record_pattern` notes for the files in `folder` matching `pattern`, as `stamps` reads it."""
    return os.path.join(glob.escape(os.path.abspath(folder)), pattern)


def collected() -> frozenset[str]:
    """What the innermost `collecting` block has been told so far (the editor server keeps what the statements
    before an edit read, with their analysis)."""
    return frozenset(getattr(_state, "paths", None) or ())


def record_again(entries: Iterable[str]) -> None:
    """Note entries a `collecting` block gave earlier (the editor server keeps a statement's findings and what its
    analysis read)."""
    collected = getattr(_state, "paths", None)
    if collected is not None:
        collected.update(entries)


def remembered(clear: Callable[[], None]) -> None:
    """Register how to clear a cache that keeps what other files said for the life of the process (`--watch`
    lints the same tree again after files change)."""
    _caches.append(clear)


def forget() -> None:
    """Clear every registered cache: files may have changed since they were read."""
    for clear in _caches:
        clear()


def stamps(entries: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """What the files `entries` (as `record` and `record_pattern` wrote them) are now, cheaply: each match's size
    and modification time; an absent file has none. The editor server compares these between edits; the result
    cache keeps a content hash as well (`shapecheck.cache`)."""
    found = []
    for entry in sorted(entries):
        for path in sorted(glob.glob(entry)) or [entry]:
            try:
                info = os.stat(path)
            except OSError:
                found.append((path, -1, -1))
                continue
            found.append((path, info.st_size, info.st_mtime_ns))
    return tuple(found)
