"""Lints files: reads their bytes, runs the engine, writes or diffs fixes, over worker processes when it pays.

Nothing a file contains stops the run or prints a traceback: a file that can't be read, decoded or parsed, one too
large, too deeply nested, or one the engine trips over comes back as a `FileResult` whose `error` (or `warning`,
for a file skipped on purpose) names the reason, and the other files are still linted. A rule that raises is the
engine's business: it reports SC999 for that rule and file and runs the others.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import math
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait

try:
    import resource
except ImportError:  # Windows: the clock's budget only
    resource = None  # type: ignore[assignment]
from functools import partial
from typing import TypeVar

from shapecheck.engine.linter import WHOLE_FILE, Analysis, SourceError, decode, lint_notebook, lint_text
from shapecheck.engine.rule import Rule
from shapecheck.findings import FileResult
from shapecheck.notebook import cell_diff, is_notebook
from shapecheck.writer import WriteError, encode, unified_diff, write_atomically

# Larger files are skipped with a warning: real source is far smaller, and a generated file of this size would
# take libcst seconds and gigabytes to parse.
MAX_FILE_SIZE = 5 * 1024 * 1024
# A notebook's size is mostly its outputs (plots as base64 images): only its code is parsed.
MAX_NOTEBOOK_SIZE = 50 * 1024 * 1024

# libcst's native parser recurses once per nesting level on the C stack: on a default 8 MiB stack, parentheses
# nested 2,000 deep crash the process. Linting in a thread with this much (reserved, mostly untouched) stack
# turns that into a result.
STACK_SIZE = 256 * 1024 * 1024

# Each worker gets about this many batches, so a batch of slow files doesn't leave the other workers idle while
# per-batch overhead (pickling the rules, a round trip) stays small.
BATCHES_PER_WORKER = 4

# The default budget of one file: far over what real source takes (the slowest file of a site-packages with torch,
# numpy and sympy lints in a few seconds), well under what a stuck pre-commit hook costs.
DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_MIB = 4096
# How often a worker's memory is sampled.
POLL_SECONDS = 0.1
# The time budget is CPU time, enforced by the kernel; a file that takes this many times as long by the clock is
# stalled without using CPU (blocked on a read, say) and is stopped too.
STALLED_FACTOR = 10
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

T = TypeVar("T")


@dataclass(frozen=True)
class Task:
    path: str  # as the user sees it
    rules: tuple[type[Rule], ...]  # this file's rules, after per-file-ignores
    data: bytes | None = None  # the source itself (standard input), instead of the file at `path`


@dataclass
class Outcome:
    result: FileResult
    diff: str = ""  # with --diff: what --fix would change


def default_jobs() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Budget:
    """What one file may take. A file over it is reported "not linted" and the run goes on. None: no limit."""

    seconds: float | None = DEFAULT_SECONDS
    memory_mib: int | None = DEFAULT_MEMORY_MIB


def run(tasks: Sequence[Task], fix: str | None = None, write: bool = False, jobs: int | None = None,
        budget: Budget = Budget()) -> list[Outcome]:
    """Lint `tasks`, results in the same order. `fix` ("safe" / "unsafe") applies fixes: with `write` to the
    files, else only into each outcome's `diff`.

    Files are linted in worker processes, so a file over its `budget`, or one that kills its process (the native
    parser aborts when an allocation fails), costs only itself: its worker is replaced and the rest of the worker's
    batch is linted by another. Without a budget, small runs stay in this process."""
    if not tasks:
        return []
    jobs = min(jobs or default_jobs(), len(tasks))
    if budget.seconds is None and budget.memory_mib is None and (jobs == 1 or len(tasks) < 2 * jobs):
        return with_large_stack(_lint_batch, tasks, fix, write)
    return _Pool(tasks, jobs, fix, write, budget).run()


class _Worker:
    """A worker process and the batch it is linting: `pending` are the task indexes not answered yet, the first
    of them the file being linted since `since`."""

    def __init__(self, context: multiprocessing.context.BaseContext, fix: str | None, write: bool,
                 seconds: float | None) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, fix, write, seconds), daemon=True)
        # Frozen across the fork, as the gc module's documentation advises: the worker's collections then never
        # walk (and copy-on-write) the modules and objects it inherits. This process unfreezes at once.
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child.close()
        self.pending: deque[int] = deque()
        self.since = 0.0

    def send(self, batch: list[tuple[int, Task]]) -> None:
        self.pending.extend(index for index, _ in batch)
        self.since = time.monotonic()
        self.connection.send(batch)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.connection.send(None)
        self.connection.close()
        self.process.join(timeout=None if kill else 10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class _Pool:
    def __init__(self, tasks: Sequence[Task], jobs: int, fix: str | None, write: bool, budget: Budget) -> None:
        self.tasks, self.jobs, self.fix, self.write, self.budget = tasks, jobs, fix, write, budget
        self.context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        self.queue = deque(range(len(tasks)))
        self.outcomes: list[Outcome | None] = [None] * len(tasks)
        # Where the kernel enforces the CPU budget, the clock only catches a file stalled without using CPU.
        self.wall = None if budget.seconds is None else budget.seconds * (STALLED_FACTOR if resource else 1)
        # About BATCHES_PER_WORKER batches each, so a batch of slow files doesn't leave the other workers idle.
        self.size = max(1, min(64, math.ceil(len(tasks) / (jobs * BATCHES_PER_WORKER))))

    def run(self) -> list[Outcome]:
        workers = [_Worker(self.context, self.fix, self.write, self.budget.seconds) for _ in range(self.jobs)]
        try:
            while True:
                for worker in workers:
                    if not worker.pending and self.queue:
                        count = min(self.size, len(self.queue))
                        indexes = [self.queue.popleft() for _ in range(count)]
                        worker.send([(index, self.tasks[index]) for index in indexes])
                busy = [worker for worker in workers if worker.pending]
                if not busy:
                    break
                wait([w.connection for w in busy] + [w.process.sentinel for w in busy], self._timeout(busy))
                for index, worker in enumerate(workers):
                    if worker.pending and not self._collect(worker):
                        workers[index] = _Worker(self.context, self.fix, self.write, self.budget.seconds)
        finally:
            for worker in workers:
                worker.stop()
        return [outcome for outcome in self.outcomes if outcome is not None]

    def _timeout(self, busy: list[_Worker]) -> float:
        # Memory is sampled, so a file is looked at every POLL_SECONDS even when nothing comes back.
        if self.wall is None:
            return POLL_SECONDS
        deadline = min(worker.since for worker in busy) + self.wall
        return max(0.0, min(POLL_SECONDS, deadline - time.monotonic()))

    def _collect(self, worker: _Worker) -> bool:
        """Take what `worker` sent; False when it had to be stopped (died, or its file went over the budget),
        its file reported and the rest of its batch put back in the queue."""
        try:
            while worker.connection.poll():
                index, outcome = worker.connection.recv()
                worker.pending.remove(index)
                self.outcomes[index] = outcome
                worker.since = time.monotonic()
        except (EOFError, OSError):
            pass  # it died: the checks below say so
        if not worker.pending:
            return True
        reason = None
        if not worker.process.is_alive():
            reason = _death(worker.process.exitcode, self.budget)
        elif self.wall is not None and time.monotonic() - worker.since > self.wall:
            reason = f"not linted: took longer than {self.wall:g} s by the clock"
        elif self.budget.memory_mib is not None and _resident_mib(worker.process.pid) > self.budget.memory_mib:
            reason = f"not linted: needed more than {self.budget.memory_mib} MiB of memory"
        if reason is None:
            return True
        worker.stop(kill=True)
        current = worker.pending.popleft()
        self.outcomes[current] = Outcome(FileResult(self.tasks[current].path, error=reason))
        self.queue.extendleft(reversed(worker.pending))
        return False


def _death(exitcode: int | None, budget: Budget) -> str:
    if exitcode == -getattr(signal, "SIGXCPU", 0) and budget.seconds is not None:
        return f"not linted: took longer than {budget.seconds:g} s"
    if exitcode is not None and exitcode < 0:
        try:
            how = f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"was killed by signal {-exitcode}"
    else:
        how = f"exited with code {exitcode}"
    hint = f" (a file that needs more than {budget.memory_mib} MiB of memory can do this)" if (
        budget.memory_mib is not None) else ""
    return f"not linted: the worker process linting it {how}{hint}"


def _resident_mib(pid: int | None) -> float:
    """The process's resident memory, where the system says (Linux); 0 elsewhere."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as file:
            return int(file.read().split()[1]) * _PAGE_SIZE / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _serve(connection: multiprocessing.connection.Connection, fix: str | None, write: bool,
           seconds: float | None) -> None:
    """A worker: lint each batch it is sent, answering file by file, until told to stop or the pipe closes."""
    # Ctrl-C is the parent's to handle: a worker finishes the file it is writing, then finds its pipe closed.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.disable()  # a native crash is reported by the parent, as a file not linted, without a traceback
    try:
        while (batch := connection.recv()) is not None:
            for index, task in batch:
                _limit_cpu(seconds)
                connection.send((index, with_large_stack(lint_file, task, fix, write)))
    except (EOFError, OSError):
        pass


def _limit_cpu(seconds: float | None) -> None:
    """Let the kernel end this process (SIGXCPU) once the next file has used `seconds` of CPU time: CPU time,
    unlike the clock, does not run faster on a loaded machine, and the kernel stops native code too."""
    if seconds is None or resource is None:
        return
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + seconds)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    if hard == resource.RLIM_INFINITY or soft <= hard:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def with_large_stack(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` on a thread with STACK_SIZE of stack. The thread is started once per process and kept:
    starting a thread with that much stack takes milliseconds, too long to pay per file or per keystroke."""
    global _large_stack
    if threading.current_thread().name == _LARGE_STACK_THREAD:
        return function(*args)  # already on it
    if _large_stack is None or _large_stack.pid != os.getpid():  # none yet, or this is a forked worker
        _large_stack = _LargeStackThread()
    return _large_stack.call(function, *args)


_LARGE_STACK_THREAD = "shapecheck-lint"


class _LargeStackThread:
    def __init__(self) -> None:
        self.pid = os.getpid()
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        previous = threading.stack_size(STACK_SIZE)
        try:
            # A daemon, so Ctrl-C on the main thread ends the process without waiting for the file being linted.
            threading.Thread(target=self._serve, name=_LARGE_STACK_THREAD, daemon=True).start()
        finally:
            threading.stack_size(previous)

    def call(self, function: Callable[..., T], *args: object) -> T:
        reply: queue.SimpleQueue = queue.SimpleQueue()
        self._requests.put((function, args, reply))
        returned, value = reply.get()
        if not returned:
            raise value  # re-raised on the calling thread
        return value

    def _serve(self) -> None:
        while True:
            function, args, reply = self._requests.get()
            try:
                reply.put((True, function(*args)))
            except BaseException as error:  # noqa: BLE001 - re-raised on the calling thread
                reply.put((False, error))


_large_stack: _LargeStackThread | None = None


def _lint_batch(tasks: Sequence[Task], fix: str | None, write: bool) -> list[Outcome]:
    return [lint_file(task, fix, write) for task in tasks]


def lint_file(task: Task, fix: str | None = None, write: bool = False) -> Outcome:
    path = task.path
    if task.data is not None:
        return Outcome(lint_bytes(task.data, path, task.rules, fix))
    try:
        size = os.stat(path).st_size
        if size > _limit(path):  # checked before reading: the file may be huge
            return Outcome(FileResult(path, warning=_too_large(size, path)))
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        return Outcome(FileResult(path, error=f"cannot be read: {error.strerror or error}"))
    result = lint_bytes(data, path, task.rules, fix)
    return deliver_fixes(data, result, task.rules, partial(write_atomically, path) if write else None)


def deliver_fixes(data: bytes, result: FileResult, rules: Sequence[type[Rule]],
                  sink: Callable[[bytes], None] | None) -> Outcome:
    """Hand the fixed source in `result` (linted from `data`) to `sink`, encoded like `data`; without a sink, diff
    it instead. If the sink fails, the result is the unfixed file's, with the reason as its error."""
    if result.new_source is None:
        return Outcome(result)
    if sink is None:
        show = cell_diff if is_notebook(result.filename) else unified_diff
        return Outcome(result, show(decode(data), result.new_source, result.filename))
    try:
        sink(encode(result.new_source, data))
    except WriteError as error:
        unfixed = lint_bytes(data, result.filename, rules)  # report what is still in the file
        unfixed.error = f"cannot write its fixes: {error}"
        return Outcome(unfixed)
    return Outcome(result)


def lint_bytes(data: bytes, filename: str, rules: Sequence[type[Rule]], fix: str | None = None) -> FileResult:
    """Lint one file's bytes (from disk or standard input) under the name `filename`."""
    if len(data) > _limit(filename):
        return FileResult(filename, warning=_too_large(len(data), filename))
    try:
        text = decode(data)
    except SourceError as error:
        return FileResult(filename, error=str(error))
    return lint_decoded(text, filename, rules, fix)


def lint_decoded(text: str, filename: str, rules: Sequence[type[Rule]], fix: str | None = None,
                 analysis: Analysis = WHOLE_FILE) -> FileResult:
    """Lint decoded source (a file's, a notebook's JSON, or an editor's buffer) without letting an engine failure
    escape."""
    try:
        if is_notebook(filename):
            return lint_notebook(text, filename, rules, fix, analysis)
        return lint_text(text, filename, rules, fix, analysis)
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to lint")
    except Exception as error:  # noqa: BLE001 - an engine bug on one file must not stop the run
        return FileResult(filename, error=f"internal error: {type(error).__name__}: {error}; please report it")


def _limit(filename: str) -> int:
    return MAX_NOTEBOOK_SIZE if is_notebook(filename) else MAX_FILE_SIZE


def _too_large(size: int, filename: str) -> str:
    kind = "notebook" if is_notebook(filename) else "source file"
    return f"skipped: {size / 2**20:.1f} MiB is over the {_limit(filename) // 2**20} MiB limit for a {kind}"
