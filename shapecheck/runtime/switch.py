"""Off switches: `SHAPECHECK_DISABLE=1` at import time, `disable()` / `enable()` / `disabled()` at run time."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

# Read once: with the variable set, `check` hands back the function itself, so a disabled run pays nothing.
DISABLED_BY_ENV: bool = os.environ.get("SHAPECHECK_DISABLE", "").strip().lower() not in ("", "0", "false", "no")

# Read by every checked call. One process-wide flag (not thread-local): cheap to read, and torch.compile turns
# the read into a guard, so flipping it recompiles instead of silently keeping the old behaviour.
enabled: bool = True


def disable() -> None:
    """Stop checking until `enable()`; checked functions then only forward their arguments."""
    global enabled
    enabled = False


def enable() -> None:
    """Resume checking after `disable()`. Has no effect when SHAPECHECK_DISABLE was set at import time."""
    global enabled
    enabled = True


@contextmanager
def disabled() -> Iterator[None]:
    """Skip checks inside a `with` block (or a function it decorates); restores the previous state on exit."""
    global enabled
    previous = enabled
    enabled = False
    try:
        yield
    finally:
        enabled = previous
