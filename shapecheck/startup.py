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


def command_started() -> None:
    """This process is the `shapecheck` command (`shapecheck.__main__`): it loads once and ends with its run."""
    global _in_command
    _in_command = True


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
