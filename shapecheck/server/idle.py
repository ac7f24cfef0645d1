"""Garbage collection off the keystroke path.

An editor session keeps a parsed document of many thousand nodes alive, and each lint leaves cycles (rules and
their context) for the collector. Python's full collections walk every live object: on a 1,000-line file one took
about 100 ms, and one keystroke in ten paid for it. So the server freezes the heap after each lint (the automatic
collections then look only at what the next lint makes, and freezing is only a list splice) and collects in full
when the user pauses: IDLE_SECONDS after the last lint, or after MAX_LINTS lints without a pause, so a long burst
of typing cannot grow memory without bound.
"""

from __future__ import annotations

import asyncio
import gc

IDLE_SECONDS = 1.0
MAX_LINTS = 50


class IdleCollector:
    def __init__(self) -> None:
        self._timer: asyncio.TimerHandle | None = None
        self._since = 0  # lints since the last full collection

    def linted(self) -> None:
        """After each lint (and once at start-up, after the imports)."""
        self._since += 1
        if self._since >= MAX_LINTS:
            self.collect()
            return
        gc.freeze()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving: the next lint, or the MAX_LINTS-th, collects
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(IDLE_SECONDS, self.collect)

    def collect(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._since = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()
