"""Off switches: `SHAPECHECK_DISABLE=1` at import time, `disable()` / `enable()` / `disabled()` at run time."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# Read once: with the variable set, `check` hands back the function itself, so a disabled run pays nothing.
DISABLED_BY_ENV: bool = os.environ.get("SHAPECHECK_DISABLE", "").strip().lower() not in ("", "0", "false", "no")

# Read by every checked call. One process-wide flag (not thread-local): cheap to read, and torch.compile turns
# the read into a guard, so flipping it recompiles instead of silently keeping the old behaviour.
enabled: bool = True


# `disabled()` blocks open now, in any thread, and whether `disable()` is in effect: `enabled` follows from both,
# so blocks that overlap in two threads can't leave checks off (a saved-and-restored flag would).
_lock = threading.Lock()
_open_blocks = 0
_switched_off = False


def _update() -> None:
    global enabled
    enabled = not _switched_off and _open_blocks == 0


def disable() -> None:
    """Stop checking until `enable()`; checked functions then only forward their arguments."""
    global _switched_off
    with _lock:
        _switched_off = True
        _update()


def enable() -> None:
    """Resume checking after `disable()` (once no `disabled()` block is open). Has no effect when
    SHAPECHECK_DISABLE was set at import time."""
    global _switched_off
    with _lock:
        _switched_off = False
        _update()


@contextmanager
def disabled() -> Iterator[None]:
    """Skip checks inside a `with` block (or a function it decorates). Checks resume when every open block, in
    any thread, has ended, unless `disable()` is in effect."""
    global _open_blocks
    with _lock:
        _open_blocks += 1
        _update()
    try:
        yield
    finally:
        with _lock:
            _open_blocks -= 1
            _update()
