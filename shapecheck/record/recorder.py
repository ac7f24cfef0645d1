"""The recorder: a `sys.settrace` hook that sees every call of the chosen functions and keeps one sample of each
distinct shape signature (the shapes and dtypes of its tensor arguments), up to N signatures per function.

Only Python-level calls reach a trace function (C calls such as torch's kernels do not), line events are switched
off in the frames it follows, and the decision "is this function recorded?" is cached per code object, so code
outside the chosen packages costs one dict lookup per call. A call whose signature was seen costs that lookup and
the signature; only a new signature is described in full and followed to its return.
"""

from __future__ import annotations

import inspect
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from shapecheck.record.store import FunctionRecord, file_hash, save
from shapecheck.record.values import describe, has_tensor, int_attributes, signature

# Distinct shape signatures kept per function in a run.
DEFAULT_CALLS = 20
# Recorded calls over all functions: a bound on the record's memory whatever the program does (~1 KB a call).
DEFAULT_MAX_ENTRIES = 20_000

_PLAIN_KINDS = frozenset({type(None), int, float, bool, str})  # their signature is their type
_SKIPPED_NAMES = frozenset({"<module>", "<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
_NOT_PLAIN = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


class Recorder:
    """Records calls of functions defined in `packages` (dotted names), or, when none are given, in files under
    `roots` (folders) outside site-packages. `start()` / `stop()` / `save(path)`, or use it as a context manager."""

    def __init__(self, packages: Iterable[str] = (), roots: Iterable[str | Path] = (), calls: int = DEFAULT_CALLS,
                 max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self.packages = tuple(packages)
        self.roots = tuple(str(Path(root).resolve()) + os.sep for root in roots)
        self.calls = calls
        self.max_entries = max_entries
        self.functions: dict[str, FunctionRecord] = {}
        self.entries = 0
        self.truncated = False  # the entry budget ran out: later calls were not recorded
        # Per code object: None (not recorded), or [its record, the signatures sampled so far, whether it is a
        # factory (called without tensors; None until its first call says), the parameters that make a signature
        # (not `self`: its class is the code's own)].
        self._targets: dict[CodeType, list | None] = {}
        self._shared: dict[str, set] = {}  # per function key: the signatures sampled so far
        self._hook = self._make_hook()
        self._tensor: type | None = None  # torch.Tensor, once torch is imported
        self._hashes: dict[str, str | None] = {}
        self._previous: Callable | None = None
        # Tells runs apart once merged: sizes that never varied within a single run deserve a note, not trust.
        self.run = f"{os.getpid()}-{time.time_ns()}"

    # -------------------------------------------------------------------------------------------- switching

    def start(self) -> Recorder:
        self._previous = sys.gettrace()
        sys.settrace(self._hook)
        threading.settrace(self._hook)
        return self

    def stop(self) -> None:
        sys.settrace(self._previous)
        threading.settrace(self._previous)  # type: ignore[arg-type]

    def __enter__(self) -> Recorder:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def save(self, path: str | Path) -> None:
        save(path, {key: record for key, record in self.functions.items() if record.calls})

    # ------------------------------------------------------------------------------------------- the hook

    def _make_hook(self) -> Callable:
        # A closure over locals: the hook runs on every Python call of the program, recorded or not, so the common
        # case (code outside the packages) is one dict lookup. The trace function set with settrace only ever sees
        # "call" events; only the local ones returned for sampled calls see the rest.
        targets = self._targets
        lookup = targets.get
        resolve = self._target
        sample = self._sample

        def hook(frame: FrameType, event: str, arg: Any) -> Callable | None:
            target = lookup(frame.f_code, False)
            if target is None:
                return None
            if target is False:
                target = targets[frame.f_code] = resolve(frame)
                if target is None:
                    return None
            return sample(frame, target)

        return hook

    def _sample(self, frame: FrameType, target: list) -> Callable | None:
        record, seen, factory, keyed = target
        if len(seen) >= self.calls:
            return None
        values = frame.f_locals
        tensor = self._tensor
        if tensor is None and "torch" in sys.modules:
            tensor = self._tensor = sys.modules["torch"].Tensor
        key = []
        for name in keyed:  # `signature`, with its common cases inline: this runs on every call
            value = values.get(name)
            kind = type(value)
            if kind is tensor:
                key.append((value.shape, value.dtype))
            elif kind in _PLAIN_KINDS:
                key.append(kind)
            else:
                key.append(signature(value, tensor))
        key = tuple(key)
        if factory is None:  # decided by the first call: no tensor comes in, so its ints shape what comes out
            factory = target[2] = not has_tensor(key)
        if factory:
            key += tuple([value for name in keyed if type(value := values.get(name)) is int])
        if key in seen:
            return None
        if self.entries >= self.max_entries:
            self.truncated = True
            return None
        seen.add(key)
        self.entries += 1
        call = {"run": self.run, "args": {name: describe(values.get(name)) for name in record.params}}
        owner = values.get(record.params[0]) if record.params and record.params[0] == "self" else None
        if owner is not None:
            call["self_ints"] = int_attributes(owner)
        record.calls.append(call)
        frame.f_trace_lines = False

        def on_return(frame: FrameType, event: str, arg: Any) -> Callable | None:
            if event == "return":
                call["return"] = describe(arg)
            elif event == "exception":
                call["raised"] = True  # an exception's `return` event carries None, not the function's result
            return on_return

        return on_return

    def _target(self, frame: FrameType) -> list | None:
        code = frame.f_code
        # Class bodies run as code too, but only functions have CO_OPTIMIZED (fast locals).
        if code.co_name in _SKIPPED_NAMES or code.co_flags & _NOT_PLAIN or not code.co_flags & inspect.CO_OPTIMIZED:
            return None
        module = frame.f_globals.get("__name__")
        if not isinstance(module, str) or not self._wanted(module, code.co_filename):
            return None
        digest = self._hash(code.co_filename)
        if digest is None:
            return None
        qualname = _qualname(frame)
        record = FunctionRecord(module, qualname, str(Path(code.co_filename).resolve()), code.co_firstlineno,
                                digest, _parameters(code), constants=_constants(frame.f_globals))
        record = self.functions.setdefault(record.key, record)
        # Two code objects of one qualname (a redefinition) share the record and its samples.
        seen = self._shared.setdefault(record.key, set())
        keyed = tuple(record.params[1:] if record.params[:1] == ["self"] else record.params)
        return [record, seen, None, keyed]

    def _wanted(self, module: str, filename: str) -> bool:
        if self.packages:
            return any(module == package or module.startswith(package + ".") for package in self.packages)
        path = os.path.realpath(filename)
        return path.startswith(self.roots) and "site-packages" not in path and os.sep + "." not in path

    def _hash(self, filename: str) -> str | None:
        if filename not in self._hashes:
            try:
                self._hashes[filename] = file_hash(filename)
            except OSError:  # <string>, <stdin>, generated code: nothing to annotate
                self._hashes[filename] = None
        return self._hashes[filename]


def _parameters(code: CodeType) -> list[str]:
    """The named parameters (not `*args`/`**kwargs`), in order."""
    count = code.co_argcount + code.co_kwonlyargcount
    return list(code.co_varnames[:count])


def _constants(namespace: dict[str, Any], limit: int = 64) -> dict[str, int]:
    """A module's UPPER_CASE int constants (`N_FRAMES = 3000`, also those it imported)."""
    found = {}
    for name, value in namespace.items():
        if type(value) is int and name.isupper() and not name.startswith("_"):
            found[name] = value
            if len(found) >= limit:
                break
    return found


def _qualname(frame: FrameType) -> str:
    code = frame.f_code
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+
    if qualname is not None:
        return qualname
    # Python 3.10: rebuild `Class.method` from the first argument's class, which is where annotate looks.
    first = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
    if code.co_argcount and code.co_varnames[0] == "self" and first is not None:
        for klass in type(first).__mro__:
            if code in {getattr(value, "__code__", None) for value in vars(klass).values()}:
                return f"{klass.__qualname__}.{code.co_name}"
    return code.co_name
