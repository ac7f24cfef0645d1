"""Garbage collection off the keystroke path, in the server's worker process.

An editor session keeps a parsed document of many thousand nodes alive, and each lint leaves cycles (rules and
their context) for the collector. Python's full collections walk every live object: on a 1,000-line file one took
about 100 ms, and one keystroke in ten paid for it. So the worker freezes the heap after each lint (the automatic
collections then look only at what the next lint makes, and freezing is only a list splice) and collects in full
when the user pauses: once no job has come for IDLE_SECONDS, or after MAX_LINTS lints without a pause, so a long
burst of typing cannot grow memory without bound. During a job there are no automatic collections at all: what a
lint makes lives until its end, where its context is released (reference counting frees the rest), so scanning it
on the way was a tenth of a keystroke's lint for nothing.
"""

from __future__ import annotations

import gc

IDLE_SECONDS = 1.0
MAX_LINTS = 50


class IdleCollector:
    def __init__(self) -> None:
        self._since = 0  # lints since the last full collection

    def linting(self) -> None:
        """Before each job."""
        gc.disable()

    def linted(self) -> None:
        """After each job."""
        gc.enable()
        self._since += 1
        if self._since >= MAX_LINTS:
            self.collect()
        else:
            gc.freeze()

    def pause(self) -> None:
        """When no job came for IDLE_SECONDS."""
        if self._since:
            self.collect()

    def collect(self) -> None:
        self._since = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()
