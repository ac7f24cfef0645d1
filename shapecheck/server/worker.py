"""The server's worker process: the analysis runs there, so that nothing a document does to it (a file that takes
minutes, a native crash of the parser, memory that grows) stops the server, and the event loop goes on reading
messages meanwhile.

Each job gets the budget `shapecheck lint` gives one file (`file-time-limit`, `file-memory-limit`): CPU time enforced
by the kernel (SIGXCPU), the clock for a job stalled without using CPU, resident memory sampled by the server. A
job over it ends the process; the server reports the document "not linted" in the CLI's words and starts a fresh
process for the next job (the documents' incremental analyses start over there). Jobs run one at a time, each on
the worker's large-stack thread (the stack the parser needs). Garbage is collected while the user pauses (`idle`).
"""

from __future__ import annotations

import asyncio
import faulthandler
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from typing import Any

from shapecheck.runner import POLL_SECONDS, STALLED_FACTOR, Budget, _death, _limit_cpu, _resident_mib, with_large_stack
from shapecheck.server.idle import IDLE_SECONDS, IdleCollector


class NotLinted(Exception):
    """A job went over its budget or ended the worker process: why, as `shapecheck lint` words it."""


class Worker:
    """The server's handle on its worker process (one at a time; started on first use or by `start`)."""

    def __init__(self) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: multiprocessing.connection.Connection | None = None

    def start(self) -> None:
        if self.alive:
            return
        # spawn, not fork: the server has threads (pygls reads standard input on one), and a forked child may find
        # their locks held forever
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs,), name="shapecheck-server-worker", daemon=True)
        self._process.start()
        theirs.close()
        self._connection = ours

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    async def run(self, budget: Budget, method: str, *args: object) -> Any:
        """`Analyses.method(*args)` in the worker process; raises what it raised, or `NotLinted`."""
        self.start()
        assert self._connection is not None and self._process is not None
        connection, process = self._connection, self._process
        try:
            connection.send((method, args, budget.seconds))
        except (OSError, EOFError, ValueError):
            self.stop()
            raise NotLinted(_death(process.exitcode, budget)) from None
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        descriptor = connection.fileno()
        try:
            loop.add_reader(descriptor, ready.set)
            pause = POLL_SECONDS
        except NotImplementedError:  # Windows' proactor loop watches no pipes: look often instead
            descriptor, pause = None, 0.005
        started = time.monotonic()
        try:
            while not connection.poll():
                try:
                    await asyncio.wait_for(ready.wait(), pause)
                except asyncio.TimeoutError:
                    pass
                ready.clear()
                reason = self._over(budget, started)
                if reason is not None:
                    self.stop()
                    raise NotLinted(reason)
            returned, value = connection.recv()
        except (EOFError, OSError):
            process.join(1)
            self.stop()
            raise NotLinted(_death(process.exitcode, budget)) from None
        finally:
            if descriptor is not None:
                loop.remove_reader(descriptor)
        if not returned:
            raise value
        return value

    def _over(self, budget: Budget, started: float) -> str | None:
        assert self._process is not None
        if not self._process.is_alive():
            return _death(self._process.exitcode, budget)
        if budget.seconds is not None and time.monotonic() - started > budget.seconds * STALLED_FACTOR:
            return f"not linted: took longer than {budget.seconds * STALLED_FACTOR:g} s by the clock"
        if budget.memory_mib is not None and _resident_mib(self._process.pid) > budget.memory_mib:
            return f"not linted: needed more than {budget.memory_mib} MiB of memory"
        return None

    def stop(self) -> None:
        """End the worker process; the next job starts a fresh one."""
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(5)
        if self._connection is not None:
            self._connection.close()
        self._process = self._connection = None


def _serve(connection: multiprocessing.connection.Connection) -> None:
    """The worker process: jobs from `connection`, one at a time, until the server closes it."""
    os.dup2(2, 1)  # the server's standard output is the editor's channel: nothing of ours may go there
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.disable()  # a native crash is reported by the server, as a document not linted
    # Every job on the large-stack thread: handing each to it and its reply back cost two thread wake-ups per
    # keystroke, each a wait for a core on a loaded machine
    with_large_stack(_jobs, connection)


def _jobs(connection: multiprocessing.connection.Connection) -> None:
    from shapecheck.server.analyses import Analyses

    analyses = Analyses()
    idle = IdleCollector()
    while True:
        try:
            if not connection.poll(IDLE_SECONDS):
                idle.pause()
                continue
            method, args, seconds = connection.recv()
        except (EOFError, OSError):
            return
        _limit_cpu(seconds)
        idle.linting()
        try:
            reply: tuple[bool, Any] = (True, getattr(analyses, method)(*args))
        except Exception as error:  # noqa: BLE001 - the server decides what an analysis bug means
            reply = (False, error)
        try:
            connection.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # noqa: BLE001 - a reply that cannot be pickled: say so instead
            connection.send((False, RuntimeError(f"the analysis's reply could not be sent: {error}")))
        idle.linted()
