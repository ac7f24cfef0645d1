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
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

try:
    import resource
except ImportError:  # Windows: the clock's budget only
    resource = None  # type: ignore[assignment]
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.linter import WHOLE_FILE, Analysis, SourceError, decode, lint_notebook, lint_text
from shapecheck.engine.registry import RuleSpec
from shapecheck.findings import FileResult
from shapecheck.discovery import is_notebook
from shapecheck.startup import LINT_GC_THRESHOLD, loading
from shapecheck.tasks import (  # noqa: F401 - MAX_* and DEFAULT_* are part of this module's interface
    DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, MAX_FILE_SIZE, MAX_NOTEBOOK_SIZE, Budget, Outcome, Task, digest,
)
from shapecheck.writer import WriteError, encode, unified_diff, write_atomically

if TYPE_CHECKING:
    import multiprocessing.connection
    import multiprocessing.context

# libcst's native parser recurses once per nesting level on the C stack: on a default 8 MiB stack, parentheses
# nested 2,000 deep crash the process. Linting in a thread with this much (reserved, mostly untouched) stack
# turns that into a result.
STACK_SIZE = 256 * 1024 * 1024

# Each worker gets about this many batches, so a batch of slow files doesn't leave the other workers idle while
# per-batch overhead (pickling the rules, a round trip) stays small.
BATCHES_PER_WORKER = 4

# How often a worker's memory is sampled.
POLL_SECONDS = 0.1
# The time budget is CPU time, enforced by the kernel; a file that takes this many times as long by the clock is
# stalled without using CPU (blocked on a read, say) and is stopped too.
STALLED_FACTOR = 10
# One file up to this size (what pre-commit and an editor's save lint) is linted in this process: for it a worker
# costs more than the lint (loading multiprocessing, the fork, copying every page the analysis touches). The
# complexity guard bounds what the native parser takes of such a file; a watchdog keeps its time budget.
IN_PROCESS_BYTES = 64 * 1024
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

T = TypeVar("T")


def default_jobs() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def run(tasks: Sequence[Task], fix: str | None = None, write: bool = False, jobs: int | None = None,
        budget: Budget = Budget()) -> list[Outcome]:
    """Lint `tasks`, results in the same order. `fix` ("safe" / "unsafe") applies fixes: with `write` to the
    files, else only into each outcome's `diff`.

    Files are linted in worker processes, so a file over its `budget`, or one that kills its process (the native
    parser aborts when an allocation fails), costs only itself: its worker is replaced and the rest of the worker's
    batch is linted by another. Without a budget, small runs stay in this process, and so does one small file
    (`IN_PROCESS_BYTES`), its time budget kept by a watchdog."""
    if not tasks:
        return []
    jobs = min(jobs or default_jobs(), len(tasks))
    if budget.seconds is None and budget.memory_mib is None and (jobs == 1 or len(tasks) < 2 * jobs):
        return with_large_stack(_lint_batch, tasks, fix, write)
    if len(tasks) == 1 and _small(tasks[0]) and _can_interrupt():
        return [_lint_within(tasks[0], fix, write, budget.seconds)]
    with loading():  # once here, not in each worker: the workers inherit them
        for rule in dict.fromkeys(rule for task in tasks for rule in task.rules):
            rule.load()
    return _Pool(tasks, jobs, fix, write, budget).run()


def _small(task: Task) -> bool:
    try:
        return (len(task.data) if task.data is not None else os.stat(task.path).st_size) <= IN_PROCESS_BYTES
    except OSError:
        return True  # lint_file says why it can't be read


def _can_interrupt() -> bool:
    """Whether a thread can be stopped by raising in it (CPython's PyThreadState_SetAsyncExc)."""
    return sys.implementation.name == "cpython"


class _OverBudget(BaseException):
    """Raised in the lint thread by the watchdog; a BaseException, so the engine's handlers of rule crashes let it
    through."""


def _lint_within(task: Task, fix: str | None, write: bool, seconds: float | None) -> Outcome:
    try:
        return with_large_stack(lint_file, task, fix, write, seconds=seconds)
    except _OverBudget:
        return Outcome(FileResult(task.path, error=f"not linted: took longer than {seconds:g} s"))


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
        import multiprocessing  # here: a run without workers never loads it

        self.tasks, self.jobs, self.fix, self.write, self.budget = tasks, jobs, fix, write, budget
        self.context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        self.queue = deque(range(len(tasks)))
        self.outcomes: list[Outcome | None] = [None] * len(tasks)
        # Where the kernel enforces the CPU budget, the clock only catches a file stalled without using CPU.
        self.wall = None if budget.seconds is None else budget.seconds * (STALLED_FACTOR if resource else 1)
        # About BATCHES_PER_WORKER batches each, so a batch of slow files doesn't leave the other workers idle.
        self.size = max(1, min(64, math.ceil(len(tasks) / (jobs * BATCHES_PER_WORKER))))

    def run(self) -> list[Outcome]:
        from multiprocessing.connection import wait

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
    gc.set_threshold(LINT_GC_THRESHOLD, *gc.get_threshold()[1:])  # see `shapecheck.startup`
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


def with_large_stack(function: Callable[..., T], *args: object, seconds: float | None = None) -> T:
    """`function(*args)` on a thread with STACK_SIZE of stack. The thread is started once per process and kept:
    starting a thread with that much stack takes milliseconds, too long to pay per file or per keystroke.

    With `seconds`, a watchdog stops `function` once this process has used that much CPU time on it (or ten times
    that by the clock) by raising `_OverBudget` in its thread, which this re-raises; that thread is then let go."""
    global _large_stack
    if threading.current_thread().name == _LARGE_STACK_THREAD:
        return function(*args)  # already on it
    if _large_stack is None or _large_stack.pid != os.getpid():  # none yet, or this is a forked worker
        _large_stack = _LargeStackThread()
    if seconds is None:
        return _large_stack.call(function, *args)
    thread = _large_stack
    try:
        return thread.call_within(seconds, function, *args)
    finally:
        if thread.interrupted and _large_stack is thread:
            _large_stack = None  # the exception may yet land after its function: the next call gets a new thread


_LARGE_STACK_THREAD = "shapecheck-lint"


class _LargeStackThread:
    def __init__(self) -> None:
        self.pid = os.getpid()
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        previous = threading.stack_size(STACK_SIZE)
        try:
            # A daemon, so Ctrl-C on the main thread ends the process without waiting for the file being linted.
            self._thread = threading.Thread(target=self._serve, name=_LARGE_STACK_THREAD, daemon=True)
            self._thread.start()
        finally:
            threading.stack_size(previous)
        self.interrupted = False

    def call(self, function: Callable[..., T], *args: object) -> T:
        reply: queue.SimpleQueue = queue.SimpleQueue()
        self._requests.put((function, args, reply))
        return self._answer(reply.get())

    def call_within(self, seconds: float, function: Callable[..., T], *args: object) -> T:
        reply: queue.SimpleQueue = queue.SimpleQueue()
        cpu, clock = time.process_time(), time.monotonic()
        self._requests.put((function, args, reply))
        while True:
            with contextlib.suppress(queue.Empty):
                return self._answer(reply.get(timeout=POLL_SECONDS))
            if time.process_time() - cpu > seconds or time.monotonic() - clock > seconds * STALLED_FACTOR:
                break
        self._interrupt()
        with contextlib.suppress(queue.Empty):  # a moment to stop, if it is in Python code (it is let go anyway)
            return self._answer(reply.get(timeout=1.0))
        raise _OverBudget

    def _interrupt(self) -> None:
        import ctypes

        self.interrupted = True
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._thread.ident), ctypes.py_object(_OverBudget))

    @staticmethod
    def _answer(answer: tuple[bool, T | BaseException]) -> T:
        returned, value = answer
        if not returned:
            raise value  # type: ignore[misc]  # re-raised on the calling thread
        return value  # type: ignore[return-value]

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
        return Outcome(lint_bytes(task.data, path, task.rules, fix, task.options))
    try:
        size = os.stat(path).st_size
        if size > _limit(path):  # checked before reading: the file may be huge
            return Outcome(FileResult(path, warning=_too_large(size, path)))
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        return Outcome(FileResult(path, error=f"cannot be read: {error.strerror or error}"))
    result = lint_bytes(data, path, task.rules, fix, task.options)
    outcome = deliver_fixes(data, result, task.rules, partial(write_atomically, path) if write else None)
    # What the result cache keys the result by: the bytes linted, not those on disk by the time it stores it.
    return outcome._replace(digest=digest(data))


def deliver_fixes(data: bytes, result: FileResult, rules: Sequence[RuleSpec],
                  sink: Callable[[bytes], None] | None) -> Outcome:
    """Hand the fixed source in `result` (linted from `data`) to `sink`, encoded like `data`; without a sink, diff
    it instead. If the sink fails, the result is the unfixed file's, with the reason as its error."""
    if result.new_source is None:
        return Outcome(result)
    if sink is None:
        show = unified_diff
        if is_notebook(result.filename):
            from shapecheck.notebook import cell_diff as show
        return Outcome(result, show(decode(data), result.new_source, result.filename))
    try:
        sink(encode(result.new_source, data))
    except WriteError as error:
        unfixed = lint_bytes(data, result.filename, rules)  # report what is still in the file
        unfixed.error = f"cannot write its fixes: {error}"
        return Outcome(unfixed)
    return Outcome(result)


def lint_bytes(data: bytes, filename: str, rules: Sequence[RuleSpec], fix: str | None = None,
               options: FileOptions = FileOptions()) -> FileResult:
    """Lint one file's bytes (from disk or standard input) under the name `filename`."""
    if len(data) > _limit(filename):
        return FileResult(filename, warning=_too_large(len(data), filename))
    try:
        text = decode(data)
    except SourceError as error:
        return FileResult(filename, error=str(error))
    return lint_decoded(text, filename, rules, fix, options=options)


def lint_decoded(text: str, filename: str, rules: Sequence[RuleSpec], fix: str | None = None,
                 analysis: Analysis = WHOLE_FILE, options: FileOptions = FileOptions()
                 ) -> FileResult:
    """Lint decoded source (a file's, a notebook's JSON, or an editor's buffer) without letting an engine failure
    escape."""
    try:
        if is_notebook(filename):
            return lint_notebook(text, filename, rules, fix, analysis, options)
        return lint_text(text, filename, rules, fix, analysis, options)
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to lint")
    except Exception as error:  # noqa: BLE001 - an engine bug on one file must not stop the run
        return FileResult(filename, error=f"internal error: {type(error).__name__}: {error}; please report it")


def _limit(filename: str) -> int:
    return MAX_NOTEBOOK_SIZE if is_notebook(filename) else MAX_FILE_SIZE


def _too_large(size: int, filename: str) -> str:
    kind = "notebook" if is_notebook(filename) else "source file"
    return f"skipped: {size / 2**20:.1f} MiB is over the {_limit(filename) // 2**20} MiB limit for a {kind}"
