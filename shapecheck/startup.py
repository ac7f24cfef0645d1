"""What the `shapecheck` command's own process does about its start-up.

Loading the command, and on a cache miss the engine, libcst and the rules, allocates hundreds of thousands of objects
that live as long as the process (modules, classes, tables); the garbage collector would walk them again and again
while they load, a tenth of a one-file run. So in the command's process the collector waits while they load, then
freezes them: later collections skip them, and a worker process forked from it does not copy their pages by
collecting them. Another process that imports shapecheck (a library user's, a test run's) keeps its collector as it
is.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_in_command = False

# Allocations between two collections of the youngest generation in a process that lints (Python's default: 700).
# The analysis allocates in bursts and frees its cycles itself (`Evaluator.release`): at the default threshold the
# collector runs some 200 times a round of bench/engine_profile.py's files, and its full collections walk every
# parsed module a process keeps; this still collects what a file leaks.
LINT_GC_THRESHOLD = 10_000


def command_started() -> None:
    """This process is the `shapecheck` command (`shapecheck.__main__`): it loads once and ends with its run."""
    global _in_command
    _in_command = True
    # It lints as a worker does (`runner`), in this process when the run is one small file.
    gc.set_threshold(LINT_GC_THRESHOLD, *gc.get_threshold()[1:])


@contextmanager
def loading() -> Iterator[None]:
    """Around imports of what lives as long as the process."""
    if not _in_command or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
