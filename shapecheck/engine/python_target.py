"""The Python version a project targets, as ruff finds it: what the compiler's verdict is judged for.

From the linted file's folder upwards, the first `pyproject.toml` that says gives the answer: its
`[tool.shapecheck]` `target-version` (ruff's spelling, `"py312"`), else its `[project]` `requires-python`, whose
lowest allowed version counts (`">=3.12"` -> 3.12, `"~=3.12.1"` -> 3.12, `">=3.10,<4"` -> 3.10). None when no
file says, or the specifiers have no lower bound. Cached per folder; the files consulted are recorded as the linted
file's dependencies, for the result cache.
"""

from __future__ import annotations

import re
import sys
from functools import cache, lru_cache
from pathlib import Path

from shapecheck.engine import dependencies
from shapecheck.engine.records import NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

Version = tuple[int, int]

_MAX_FILE = 1 << 20


# Compiled on first use, as the patterns below: most lints read no target version nor requires-python (only a text
# the running Python refuses is judged for a target), and compiling them at import cost each lint about a million
# instructions.
@cache
def _target_version() -> re.Pattern[str]:
    return re.compile(r"py3(\d{1,2})")


@cache
def _lower_bound() -> re.Pattern[str]:
    return re.compile(r"\s*(~=|===|==|>=|>)\s*(\d+)(?:\.(\d+))?")


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class Target(NamedTuple):
    version: Version
    origin: str  # where it was declared, for messages: "requires-python in /p/pyproject.toml"


def declared_target(filename: str) -> Target | None:
    """The Python version the project around `filename` targets, None where nothing says."""
    try:
        folder = Path(filename).resolve().parent
    except (OSError, RuntimeError, ValueError):
        return None
    target, consulted = _target_in(folder)
    dependencies.record(str(each / "pyproject.toml") for each in consulted)
    return target


def target_version(value: str) -> Version | None:
    """`"py312"` -> (3, 12); None for anything else."""
    match = _target_version().fullmatch(value)
    return (3, int(match.group(1))) if match else None


def lowest_version(specifiers: str) -> Version | None:
    """The lowest Python version a `requires-python` value allows; None when it sets no lower bound."""
    bounds = []
    for clause in specifiers.split(","):
        match = _lower_bound().match(clause)
        if match is not None:
            bounds.append((int(match.group(2)), int(match.group(3) or 0)))
    return max(bounds) if bounds else None


def forget() -> None:
    """Read the pyproject.toml files again on the next call (they changed)."""
    _target_in.cache_clear()


@lru_cache(maxsize=4096)
def _target_in(folder: Path) -> tuple[Target | None, tuple[Path, ...]]:
    """The answer for `folder`, and the folders whose pyproject.toml was looked for to give it."""
    found = _declared_here(folder / "pyproject.toml")
    if found is not None or folder.parent == folder:
        return found, (folder,)
    target, above = _target_in(folder.parent)
    return target, (folder, *above)


dependencies.remembered(forget)


def _declared_here(path: Path) -> Target | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE:
            return None
        with path.open("rb") as file:
            document = tomllib.load(file)
    except (OSError, ValueError, RecursionError):  # unreadable or not TOML: the configuration reports it
        return None
    tool = document.get("tool")
    table = tool.get("shapecheck") if isinstance(tool, dict) else None
    configured = table.get("target-version") if isinstance(table, dict) else None
    if isinstance(configured, str) and target_version(configured) is not None:
        return Target(target_version(configured), f"target-version in {path}")
    project = document.get("project")
    requires = project.get("requires-python") if isinstance(project, dict) else None
    version = lowest_version(requires) if isinstance(requires, str) else None
    return Target(version, f"requires-python in {path}") if version is not None else None
