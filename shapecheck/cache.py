"""The result cache: what linting each file gave, kept on disk so that a file that has not changed is not parsed
again (pre-commit on a branch, a CI re-run, `--watch`), as ruff keeps `.ruff_cache`.

Where: `--cache-dir` (or `SHAPECHECK_CACHE_DIR`), else `cache-dir` in `[tool.shapecheck]`, else `.shapecheck_cache`
in the project root: the folder of the pyproject.toml that governs the working directory, or the working directory.
The folder holds a `.gitignore` of `*` and a `CACHEDIR.TAG`, as ruff's does, and one folder per build of shapecheck
(its version and a fingerprint of its code, of libcst and of Python), so an upgrade, or an edit to a rule in a
source checkout, never reads results another build wrote.

An entry is content-addressed: its name is the hash of the file's bytes, its absolute path and its settings (the
whole resolved configuration that applies to it, the command line's selection included, and the fix mode). It holds
the findings (SC000 included), the invalid `# noqa` positions, and a fingerprint of every other file the analysis
read (`FileResult.dependencies`: a file's size, modification time and content hash; a glob pattern's, the names,
sizes and modification times of its matches; a folder's, that it exists): the entry is a miss when any of them
changed, was removed or appeared. A file or a pattern whose stats are as they were is taken as unchanged; a file
whose stats differ is hashed (a checkout, a save without edits keep its entry), a pattern's matches never are (an
importer search's folders hold the whole project: storing or checking a result stats them, never reads them). A
hit imports neither libcst nor the rules.

Not cached: a file that could not be linted (an error, a warning, a rule's crash), and a result whose fixes were
applied or diffed: its bytes change, so the next run lints it again. Nor is a result whose dependency was modified
while the run went on: the analysis may have read it before or after the change.

Safe under parallel runs (two runs over one tree, pytest-xdist, pre-commit's parallel hooks): an entry is written to
a temporary file and renamed into place, so a reader sees all of it or none; each carries a checksum, and one that
fails it (truncated, corrupt, another format) or cannot be read is a miss, never an error. Entries not written for
30 days are removed, at most once a day; `shapecheck clean` removes the whole folder.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from shapecheck.version import __version__
from shapecheck.findings import INTERNAL_ERROR, Edit, FileResult, Finding, FixInfo, Location
from shapecheck.startup import loading
from shapecheck.tasks import MAX_NOTEBOOK_SIZE, Budget, Outcome, Task, blake2b, digest

if TYPE_CHECKING:
    from shapecheck.config import Config

CACHE_DIR_NAME = ".shapecheck_cache"
CACHE_DIR_ENV = "SHAPECHECK_CACHE_DIR"
NO_CACHE_ENV = "SHAPECHECK_NO_CACHE"

# https://bford.info/cachedir/: backup tools skip a folder holding this file.
_TAG_NAME = "CACHEDIR.TAG"
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by shapecheck.\n"
        "# For information about cache directory tags see https://bford.info/cachedir/\n")
_GITIGNORE = "# Automatically created by shapecheck.\n*\n"

# Bumped when an entry's layout changes; part of the build fingerprint.
_FORMAT = 1
_KEEP_NS = 30 * 24 * 3600 * 10**9
_SWEEP_EVERY_NS = 24 * 3600 * 10**9
_SWEEP_MARKER = "last-sweep"
_LEFTOVER_NS = 3600 * 10**9  # a temporary file this old is what an interrupted write left
# A file modified this close to the run's start, or later, may have been read by the analysis before or after the
# change (file systems keep modification times to a second or two): its entry is not written.
_RACY_NS = 2 * 10**9

_temporary_names = itertools.count()


def cache_folder(option: str | None, config: Config) -> tuple[str, bool]:
    """Where the cache is, and whether the user chose it: `option` (`--cache-dir`, which click fills from
    SHAPECHECK_CACHE_DIR too), else `cache-dir` in `config` (the working directory's) or a file it extends, else
    `.shapecheck_cache` in its root."""
    if option:
        return os.path.abspath(os.path.expanduser(option)), True
    if config.cache_dir is not None:
        return str(config.cache_dir), True
    return os.path.join(str(config.root), CACHE_DIR_NAME), False


def build_fingerprint() -> str:
    """The build of shapecheck that computes results: its version, its code (each module's size and modification
    time, rules included: an edit in a source checkout counts), libcst's version and Python's."""
    parts = [f"{_FORMAT}|{__version__}|{sys.version}|{sys.implementation.cache_tag}"]
    for package in ("shapecheck", "shapecheck.rules", "libcst"):
        spec = importlib.util.find_spec(package)  # finds, never imports
        for folder in (spec.submodule_search_locations or []) if spec is not None else []:
            parts += _code_stamps(folder, recurse=package != "libcst")
    return blake2b("\n".join(parts).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _code_stamps(folder: str, recurse: bool) -> list[str]:
    stamps = []
    try:
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                if entry.name.endswith((".py", ".so", ".pyd")) and entry.is_file():
                    info = entry.stat()
                    stamps.append(f"{entry.path}|{info.st_size}|{info.st_mtime_ns}")
                elif recurse and entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    stamps += _code_stamps(entry.path, recurse)
    except OSError:
        stamps.append(f"{folder}|unreadable")
    return stamps


class ResultCache:
    """The entries of one build in `folder`. Nothing here raises for what is on disk: a problem is a miss, and a
    cache that cannot be written is skipped (with a warning through `warn` when the user chose the folder)."""

    def __init__(self, folder: str, warn: Callable[[str], None] | None = None) -> None:
        self.folder = folder
        self.space = os.path.join(folder, f"{__version__}-{build_fingerprint()}")
        self.warn = warn
        self.writable = True
        self.hits = 0
        self.written = 0
        self._settings: dict[Config, str] = {}
        self._stats: dict[str, tuple[str, int, int]] = {}  # path -> kind, size, mtime_ns, once per run
        self._hashes: dict[str, str] = {}  # path -> content hash, once per run

    # ------------------------------------------------------------------------------------------------ keys

    def key(self, path: str, config: Config, fix: str | None, content: str) -> str:
        """The entry's name for the bytes whose `digest` is `content`, read from `path`, linted with `config` and
        `fix`."""
        settings = self._settings.get(config)
        if settings is None:
            # The whole configuration, not the rules it enables: resolving those imports every rule. A Config is
            # plain frozen data, so its repr holds every setting, the per-file ignores and the command line's
            # selection included, and any setting added later.
            settings = self._settings[config] = repr(config)
        material = "\0".join((os.path.abspath(path), settings, str(fix), content))
        return blake2b(material.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    # ---------------------------------------------------------------------------------------------- reading

    def get(self, key: str, path: str) -> FileResult | None:
        """The result stored under `key`, as the file is now named `path`; None on a miss."""
        try:
            with open(os.path.join(self.space, key), "rb") as file:
                stored = file.read()
        except OSError:
            return None
        checksum, _, payload = stored.partition(b"\n")
        if checksum.decode("ascii", "replace") != digest(payload):
            return None
        try:
            entry = json.loads(payload)
            if not all(self._unchanged(*dependency) for dependency in entry["dependencies"]):
                return None
            result = _decode_result(entry["result"], path)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return None
        self.hits += 1
        return result

    def _unchanged(self, path: str, kind: str, size: int, mtime_ns: int, content: str) -> bool:
        now = self._stat(path)
        if now[0] != kind:
            return False
        if kind in ("absent", "folder") or (kind in ("file", "pattern") and now[1:] == (size, mtime_ns)):
            return True
        # a file touched may be the same (a checkout, a save without edits); a pattern's matches are not hashed
        # (a search's folders hold the whole project): one touched is a miss
        return kind == "file" and self._hash(path) == content

    def _stat(self, path: str) -> tuple[str, int, int]:
        """kind, size, modification time. Kinds: "file", "absent", "folder" (only its existence counts: `.git`
        marks a project's root), "pattern" (a glob: as its size a fingerprint of its matches' names, sizes and
        times, which any match added, removed, renamed or touched changes; as its time their latest, all the racy
        check needs)."""
        if path not in self._stats:
            if _is_pattern(path):
                stats = [(match, _size_and_mtime_ns(match)) for match in _matches(path)]
                fingerprint = int.from_bytes(blake2b(repr(stats).encode("utf-8", "surrogatepass"),
                                                     digest_size=7).digest(), "big")
                self._stats[path] = ("pattern", fingerprint, max([mtime for _, (_, mtime) in stats], default=0))
            else:
                try:
                    info = os.stat(path)
                except OSError:
                    self._stats[path] = ("absent", 0, 0)
                else:
                    folder = stat.S_ISDIR(info.st_mode)
                    self._stats[path] = ("folder", 0, 0) if folder else ("file", info.st_size, info.st_mtime_ns)
        return self._stats[path]

    def _hash(self, path: str) -> str:
        """A file's content hash."""
        if path not in self._hashes:
            try:
                with open(path, "rb") as file:
                    self._hashes[path] = digest(file.read())
            except OSError:
                self._hashes[path] = ""
        return self._hashes[path]

    # ---------------------------------------------------------------------------------------------- writing

    def put(self, key: str, result: FileResult, started_ns: int) -> None:
        """Store `result` under `key` if it is one to keep (see the module's docstring). `started_ns`: when the run
        began, by `time.time_ns()`."""
        if not self.writable or not _cacheable(result):
            return
        dependencies = []
        for path in result.dependencies:
            kind, size, mtime_ns = self._stat(path)
            if kind in ("file", "pattern") and mtime_ns >= started_ns - _RACY_NS:
                return  # changed while this run went on, perhaps after the analysis read it
            content = self._hash(path) if kind == "file" else ""
            dependencies.append((path, kind, size, mtime_ns, content))
        payload = json.dumps({"dependencies": dependencies, "result": _encode_result(result)},
                             separators=(",", ":")).encode("ascii")
        self._write(key, digest(payload).encode("ascii") + b"\n" + payload)

    def _write(self, name: str, data: bytes) -> None:
        try:
            if not os.path.isdir(self.space):
                self._create()
            _write_atomically(os.path.join(self.space, name), data)
            self.written += 1
        except OSError as error:
            self.writable = False
            if self.warn is not None:
                self.warn(f"{self.folder}: cannot write the cache: {error.strerror or error}")

    def _create(self) -> None:
        os.makedirs(self.folder, exist_ok=True)
        for name, text in ((".gitignore", _GITIGNORE), (_TAG_NAME, _TAG)):
            if not os.path.exists(os.path.join(self.folder, name)):
                _write_atomically(os.path.join(self.folder, name), text.encode("utf-8"))
        os.makedirs(self.space, exist_ok=True)

    def sweep(self, now_ns: int | None = None) -> None:
        """Remove entries older than 30 days, and leftovers of interrupted writes, at most once a day. Another run
        reading an entry that goes meanwhile just misses it."""
        if not self.written:
            return
        now_ns = time.time_ns() if now_ns is None else now_ns
        marker = os.path.join(self.folder, _SWEEP_MARKER)
        try:
            if now_ns - os.stat(marker).st_mtime_ns < _SWEEP_EVERY_NS:
                return
        except OSError:
            pass
        try:
            with open(marker, "wb"):
                pass
            os.utime(marker, ns=(now_ns, now_ns))
            with os.scandir(self.folder) as spaces:
                for space in spaces:
                    if space.is_dir(follow_symlinks=False):
                        _sweep_space(space.path, now_ns)
        except OSError:
            pass


def _sweep_space(folder: str, now_ns: int) -> None:
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False) and now_ns - entry.stat().st_mtime_ns > (
                        _LEFTOVER_NS if entry.name.startswith(".") else _KEEP_NS):
                    os.unlink(entry.path)
            except OSError:
                pass
    try:
        os.rmdir(folder)  # only if empty: an old build's
    except OSError:
        pass


def _is_pattern(path: str) -> bool:
    """Dependencies are glob patterns (`shapecheck.engine.dependencies`); most are plain paths, checked by a stat."""
    return any(character in path for character in "*?[")


def _matches(pattern: str) -> list[str]:
    import glob

    return sorted(glob.glob(pattern))


def _size_and_mtime_ns(path: str) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return -1, 0
    return info.st_size, info.st_mtime_ns


def _write_atomically(path: str, data: bytes) -> None:
    temporary = f"{os.path.dirname(path)}/.{os.path.basename(path)}.{os.getpid()}.{next(_temporary_names)}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _cacheable(result: FileResult) -> bool:
    return (result.error is None and result.warning is None and result.new_source is None and not result.fixed
            and not any(finding.code == INTERNAL_ERROR for finding in result.findings))


# ------------------------------------------------------------------------------------------ the entry's layout
# Findings as lists of their fields in this order, so an entry stays small; the file's name is not stored: a hit
# takes the name the file is given in this run.

def _encode_result(result: FileResult) -> dict[str, Any]:
    return {"findings": [_encode_finding(finding) for finding in result.findings],
            "invalid_noqa": result.invalid_noqa, "dependencies": result.dependencies}


def _decode_result(data: dict[str, Any], path: str) -> FileResult:
    return FileResult(path, [_decode_finding(finding, path) for finding in data["findings"]],
                      invalid_noqa=[str(position) for position in data["invalid_noqa"]],
                      dependencies=[str(dependency) for dependency in data["dependencies"]])


def _encode_finding(finding: Finding) -> list[Any]:
    fix = finding.fix
    return [finding.code, finding.name, finding.message, _location(finding.location),
            _location(finding.end_location),
            None if fix is None else [fix.applicability, fix.message,
                                      [[edit.content, _location(edit.location), _location(edit.end_location)]
                                       for edit in fix.edits]],
            finding.source_line, finding.cell, _location(finding.file_location),
            _location(finding.file_end_location), finding.severity]


def _decode_finding(data: list[Any], path: str) -> Finding:
    code, name, message, start, end, fix, source_line, cell, file_start, file_end, severity = data
    return Finding(_text(code), _text(name), _text(message), path, _at(start), _at(end),
                   None if fix is None else FixInfo(_text(fix[0]), _text(fix[1]), tuple(
                       Edit(_text(content), _at(edit_start), _at(edit_end))
                       for content, edit_start, edit_end in fix[2])),  # type: ignore[arg-type]
                   _text(source_line), None if cell is None else int(cell), _maybe_at(file_start),
                   _maybe_at(file_end), _text(severity))  # type: ignore[arg-type]


def _location(location: Location | None) -> list[int] | None:
    return None if location is None else [location.row, location.column]


def _at(data: list[int]) -> Location:
    row, column = data
    return Location(int(row), int(column))


def _maybe_at(data: list[int] | None) -> Location | None:
    return None if data is None else _at(data)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


# --------------------------------------------------------------------------------------------- a run with it

def run_cached(paths: Sequence[str], cache: ResultCache | None, config_for: Callable[[str], Config],
               task_for: Callable[[str], Task], fix: str | None, write: bool,
               jobs: int | None, budget: Budget) -> list[Outcome]:
    """Lint `paths` (results in their order): each file `cache` holds a result for is answered from it, the rest
    are linted by `shapecheck.runner` (imported only then, with the engine and the rules) and stored."""
    started_ns = time.time_ns()
    outcomes: list[Outcome | None] = [None] * len(paths)
    missed: list[int] = []
    for index, path in enumerate(paths):
        data = _read(path) if cache is not None else None
        if cache is not None and data is not None:
            result = cache.get(cache.key(path, config_for(path), fix, digest(data)), path)
            if result is not None:
                outcomes[index] = Outcome(result)
                continue
        missed.append(index)
    if missed:
        with loading():  # the engine, libcst and the rules
            from shapecheck.objects import import_index
            from shapecheck.runner import run

            tasks = [task_for(paths[index]) for index in missed]
        # the import lines of the project's files, which a search for a file's importers reads, are kept beside
        # the results, so a one-file run in a large project stats those files instead of reading them
        import_index.keep_in(*((cache.space, cache._write) if cache is not None else (None, None)))
        linted = run(tasks, fix, write, jobs, budget)
        for index, outcome in zip(missed, linted):
            outcomes[index] = outcome
            if cache is not None and outcome.digest is not None:  # keyed by the bytes the worker linted
                cache.put(cache.key(paths[index], config_for(paths[index]), fix, outcome.digest), outcome.result,
                          started_ns)
        if cache is not None:
            cache.sweep()
    return [outcome for outcome in outcomes if outcome is not None]


def _read(path: str) -> bytes | None:
    """The file's bytes to look it up by; None when it can't be read or is too large to lint (the runner says
    why)."""
    try:
        with open(path, "rb") as file:
            if os.fstat(file.fileno()).st_size > MAX_NOTEBOOK_SIZE:
                return None
            return file.read()
    except OSError:
        return None


# ------------------------------------------------------------------------------------------- shapecheck clean

def clean(folders: Sequence[str], under: str) -> tuple[list[str], list[str]]:
    """Remove the cache folders `folders` and every `.shapecheck_cache` below `under` (symbolic links not
    followed), as `ruff clean` does. Only a folder shapecheck made (its CACHEDIR.TAG says so) is removed, so a
    mistyped `--cache-dir ~` costs nothing. Returns the folders removed and those left alone, not being caches."""
    import shutil

    found = [os.path.abspath(folder) for folder in folders if os.path.isdir(folder)]
    for root, dirs, _ in os.walk(under):
        if CACHE_DIR_NAME in dirs:
            found.append(os.path.abspath(os.path.join(root, CACHE_DIR_NAME)))
        dirs[:] = [name for name in dirs if name not in (CACHE_DIR_NAME, ".git")]
    removed, refused = [], []
    for folder in dict.fromkeys(found):  # once each, in order
        if _made_by_us(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        else:
            refused.append(folder)
    return removed, refused


def _made_by_us(folder: str) -> bool:
    try:
        with open(os.path.join(folder, _TAG_NAME), encoding="utf-8", errors="replace") as file:
            return file.read(len(_TAG) + 1) == _TAG
    except OSError:
        return False
