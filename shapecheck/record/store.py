"""The record file: what was recorded per function, merged across runs and across pytest-xdist workers.

A function is keyed by `module:qualname`. Each entry carries the hash of its source file at record time: a run over
changed code replaces the entry instead of mixing old and new shapes, and `annotate` refuses a file whose hash no
longer matches. Calls are samples, one per distinct shape signature: merging drops repeats and, past the bound,
keeps an equal share of every run, so a new run's new signatures are never the ones dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(".shapecheck") / "record.json"
FORMAT_VERSION = 1
# Calls kept per function across all merged runs: enough to see sizes vary, bounded whatever the number of runs.
MAX_MERGED_CALLS = 200


@dataclass
class FunctionRecord:
    module: str
    qualname: str
    file: str  # absolute path
    line: int
    file_hash: str
    params: list[str]
    calls: list[dict[str, Any]] = field(default_factory=list)
    # The module's UPPER_CASE int constants when it was recorded (`N_FRAMES = 3000`): names for sizes fixed by code.
    constants: dict[str, int] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.module}:{self.qualname}"


class RecordError(Exception):
    """A record file that cannot be read: the message names it."""


def file_hash(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def load(path: str | Path) -> dict[str, FunctionRecord]:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordError(f"{path}: not a shapecheck record ({error})") from None
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION or not isinstance(data.get("functions"), dict):
        raise RecordError(f"{path}: not a shapecheck record of format version {FORMAT_VERSION}")
    try:
        return {key: FunctionRecord(**entry) for key, entry in data["functions"].items()}
    except TypeError as error:
        raise RecordError(f"{path}: malformed function entry ({error})") from None


def merge(old: dict[str, FunctionRecord], new: dict[str, FunctionRecord],
          limit: int = MAX_MERGED_CALLS) -> dict[str, FunctionRecord]:
    merged = dict(old)
    for key, record in new.items():
        previous = merged.get(key)
        if previous is not None and previous.file_hash == record.file_hash:
            record.calls = sample(previous.calls + record.calls, limit)
            record.constants = {**previous.constants, **record.constants}
        merged[key] = record
    return merged


def sample(calls: list[dict[str, Any]], limit: int = MAX_MERGED_CALLS) -> list[dict[str, Any]]:
    """`calls` without repeats (the same values in another run add nothing), and past `limit` an equal share of
    each run, taken round-robin in the order the runs came: every run keeps its first signatures."""
    distinct: dict[str, dict[str, Any]] = {}
    for call in calls:
        distinct.setdefault(json.dumps({k: v for k, v in call.items() if k != "run"}, sort_keys=True), call)
    unique = list(distinct.values())
    if len(unique) <= limit:
        return unique
    by_run: dict[Any, list[dict[str, Any]]] = {}
    for call in unique:
        by_run.setdefault(call.get("run"), []).append(call)
    kept: list[dict[str, Any]] = []
    queues = [iter(run_calls) for run_calls in by_run.values()]
    while len(kept) < limit and queues:
        for queue in list(queues):
            call = next(queue, None)
            if call is None:
                queues.remove(queue)
            elif len(kept) < limit:
                kept.append(call)
    order = {id(call): index for index, call in enumerate(unique)}
    return sorted(kept, key=lambda call: order[id(call)])


def save(path: str | Path, functions: dict[str, FunctionRecord]) -> None:
    """Merge `functions` into the record at `path` (created with its folder if missing), atomically and under a
    lock, so parallel test workers and repeated runs add up instead of overwriting each other."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path):
        merged = merge(load(path), functions)
        data = {"version": FORMAT_VERSION, "functions": {key: asdict(record) for key, record in sorted(merged.items())}}
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
                out.write("\n")
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; parallel writers there may lose a run's calls
        yield
        return
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
