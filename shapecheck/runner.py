"""Lints files: reads their bytes, runs the engine, writes or diffs fixes, over worker processes when it pays.

Nothing a file contains stops the run or prints a traceback: a file that can't be read, decoded or parsed, one too
large, too deeply nested, or one the engine trips over comes back as a `FileResult` whose `error` (or `warning`,
for a file skipped on purpose) names the reason, and the other files are still linted. A rule that raises is the
engine's business: it reports SC999 for that rule and file and runs the others.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from shapecheck.engine.linter import SourceError, decode, lint_notebook, lint_text
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import ParsedSource, parse_source
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

T = TypeVar("T")


@dataclass(frozen=True)
class Task:
    path: str  # as the user sees it
    rules: tuple[type[Rule], ...]  # this file's rules, after per-file-ignores


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


def run(tasks: Sequence[Task], fix: str | None = None, write: bool = False, jobs: int | None = None
        ) -> list[Outcome]:
    """Lint `tasks`, results in the same order. `fix` ("safe" / "unsafe") applies fixes: with `write` to the
    files, else only into each outcome's `diff`."""
    jobs = jobs or default_jobs()
    # Starting workers costs more than linting a handful of files.
    if jobs == 1 or len(tasks) < 2 * jobs:
        return with_large_stack(_lint_batch, tasks, fix, write)
    size = max(1, math.ceil(len(tasks) / (jobs * BATCHES_PER_WORKER)))
    batches = [tasks[start:start + size] for start in range(0, len(tasks), size)]
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(with_large_stack, _lint_batch, batch, fix, write) for batch in batches]
        for batch, future in zip(batches, futures):
            try:
                outcomes.extend(future.result())
            except Exception as error:  # noqa: BLE001 - a worker that died (killed, out of memory) loses its batch
                reason = f"not linted: the worker process for it and {len(batch) - 1} other files failed ({error!r})"
                outcomes.extend(Outcome(FileResult(task.path, error=reason)) for task in batch)
    return outcomes


def with_large_stack(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` on a thread with STACK_SIZE of stack."""
    returned: list[T] = []
    raised: list[BaseException] = []

    def target() -> None:
        try:
            returned.append(function(*args))
        except BaseException as error:  # noqa: BLE001 - re-raised on the calling thread
            raised.append(error)

    previous = threading.stack_size(STACK_SIZE)
    try:
        # A daemon, so Ctrl-C on the main thread ends the process without waiting for the file being linted.
        thread = threading.Thread(target=target, name="shapecheck-lint", daemon=True)
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    if raised:
        raise raised[0]
    return returned[0]


def _lint_batch(tasks: Sequence[Task], fix: str | None, write: bool) -> list[Outcome]:
    return [lint_file(task, fix, write) for task in tasks]


def lint_file(task: Task, fix: str | None = None, write: bool = False) -> Outcome:
    path = task.path
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
                 parse: Callable[[str], ParsedSource] = parse_source) -> FileResult:
    """Lint decoded source (a file's, a notebook's JSON, or an editor's buffer) without letting an engine failure
    escape."""
    try:
        if is_notebook(filename):
            return lint_notebook(text, filename, rules, fix, parse)
        return lint_text(text, filename, rules, fix, parse)
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to lint")
    except Exception as error:  # noqa: BLE001 - an engine bug on one file must not stop the run
        return FileResult(filename, error=f"internal error: {type(error).__name__}: {error}; please report it")


def _limit(filename: str) -> int:
    return MAX_NOTEBOOK_SIZE if is_notebook(filename) else MAX_FILE_SIZE


def _too_large(size: int, filename: str) -> str:
    kind = "notebook" if is_notebook(filename) else "source file"
    return f"skipped: {size / 2**20:.1f} MiB is over the {_limit(filename) // 2**20} MiB limit for a {kind}"
