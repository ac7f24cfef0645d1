"""`[tool.shapecheck]` in pyproject.toml: finding it, validating it, and merging the command line over it.

The nearest pyproject.toml above the first linted path (or the working directory) that has a `[tool.shapecheck]`
table is used; one without the table is passed over, as ruff passes over a pyproject without `[tool.ruff]`.
`--config PATH` names the file instead. Paths in `exclude`, `extend-exclude` and `per-file-ignores` use
`.gitignore` syntax (`shapecheck.gitignore`) relative to the folder of that file: a pattern with a slash is
anchored there (`tests/*`, `/generated`), one without matches at any depth (`__init__.py`, `fixtures`), and a
pattern that matches a folder covers everything in it.

    [tool.shapecheck]
    select = ["SC1", "SC301"]        # replaces the default rule set
    extend-select = ["SC501"]        # adds to it
    ignore = ["SC201"]
    exclude = [...]                  # replaces the default excludes (DEFAULT_EXCLUDE); rarely what you want
    extend-exclude = ["fixtures", "tests/data"]
    per-file-ignores = { "tests/*" = ["SC4"], "__init__.py" = ["SC101"] }
    file-time-limit = 60             # seconds one file may take; 0: no limit
    file-memory-limit = 4096         # MiB one file may take; 0: no limit
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from shapecheck.engine.registry import SelectorError, check_selectors, resolve
from shapecheck.engine.rule import Rule
from shapecheck.gitignore import PatternList, parse_lines
from shapecheck.runner import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, Budget

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# ruff's default `exclude`, plus __pycache__.
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d", ".pytype",
    ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__", "__pycache__", "_build", "buck-out", "build", "dist",
    "node_modules", "site-packages", "venv",
)

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude")
_LIMIT_KEYS = ("file-time-limit", "file-memory-limit")
KEYS = (*_LIST_KEYS, "per-file-ignores", *_LIMIT_KEYS)


class ConfigError(Exception):
    """The configuration is unusable; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    root: Path  # the folder relative paths in the settings are relative to
    path: Path | None = None  # the file the settings came from; None: defaults
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, selectors)
    file_time_limit: float = DEFAULT_SECONDS  # 0: none
    file_memory_limit: int = DEFAULT_MEMORY_MIB  # 0: none

    @property
    def budget(self) -> Budget:
        return Budget(self.file_time_limit or None, self.file_memory_limit or None)

    def with_cli(self, select: Sequence[str] | None, ignore: Sequence[str], extend_select: Sequence[str]) -> Config:
        """The command line over the file: `--select` replaces the file's selection (its `extend-select` too, as
        in ruff: "exactly these"), `--ignore` and `--extend-select` add to the file's."""
        for option, values in (("--select", select or ()), ("--ignore", ignore), ("--extend-select", extend_select)):
            _check_codes(values, option)
        if select is not None:
            return replace(self, select=tuple(select), extend_select=tuple(extend_select),
                           ignore=self.ignore + tuple(ignore))
        return replace(self, ignore=self.ignore + tuple(ignore),
                       extend_select=self.extend_select + tuple(extend_select))

    def enabled_rules(self) -> tuple[type[Rule], ...]:
        return resolve(self.select, self.ignore, self.extend_select)

    @cached_property
    def exclusions(self) -> PatternList:
        return PatternList(str(self.root), parse_lines(self.exclude + self.extend_exclude))

    @cached_property
    def _per_file(self) -> tuple[tuple[PatternList, tuple[str, ...]], ...]:
        return tuple((PatternList(str(self.root), parse_lines((glob,))), codes) for glob, codes in self.per_file_ignores)

    def ignored_codes(self, filename: str) -> frozenset[str]:
        """The selectors `per-file-ignores` applies to this file (a path as the user gave it)."""
        path = os.path.abspath(filename)
        return frozenset(code for patterns, codes in self._per_file if patterns.covers(path) for code in codes)


def rules_without(rules: Sequence[type[Rule]], selectors: frozenset[str]) -> tuple[type[Rule], ...]:
    """`rules` less those a per-file ignore names; it wins over any selection, as in ruff."""
    if "ALL" in selectors:
        return ()
    return tuple(rule for rule in rules if not any(rule.code.startswith(s) for s in selectors))


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml from `start` (a folder) upwards that has a `[tool.shapecheck]` table."""
    found = _nearest_table(start)
    return found[0] if found is not None else None


def _nearest_table(start: Path) -> tuple[Path, dict[str, Any]] | None:
    # Returns the table it had to parse anyway, so the file is not read a second time to load it.
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            table = _table(candidate, required=False)
            if table is not None:
                return candidate, table
    return None


def discover(first_path: str | None, config_file: str | None) -> Config:
    """The configuration for a run: `--config`, else the nearest pyproject.toml above `first_path` (or the
    working directory), else the defaults rooted at the working directory."""
    if config_file is not None:
        return load(Path(config_file))
    start = Path(os.path.abspath(first_path or "."))
    if not start.is_dir():
        start = start.parent
    found = _nearest_table(start)
    return _from_table(*found) if found is not None else Config(root=Path.cwd())


def load(path: Path) -> Config:
    table = _table(path, required=True)
    assert table is not None
    return _from_table(path, table)


def _from_table(path: Path, table: dict[str, Any]) -> Config:
    unknown = [key for key in table if key not in KEYS]
    if unknown:
        hint = f" (did you mean {unknown[0].replace('_', '-')!r}?)" if unknown[0].replace("_", "-") in KEYS else ""
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} in [tool.shapecheck]{hint}; "
                          f"known keys: {', '.join(KEYS)}")
    values: dict[str, Any] = {}
    for key in _LIST_KEYS:
        if key in table:
            values[key.replace("-", "_")] = _strings(table[key], f"{path}: {key}")
    for key in ("select", "ignore", "extend_select"):
        if key in values:
            _check_codes(values[key], f"{path}: {key.replace('_', '-')}")
    for key in _LIMIT_KEYS:
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (
                    key == "file-memory-limit" and not isinstance(value, int)):
                kind = "a whole number of MiB" if key == "file-memory-limit" else "a number of seconds"
                raise ConfigError(f"{path}: {key}: expected {kind} (0 for no limit), got {value!r}")
            values[key.replace("-", "_")] = value
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], path)
    return Config(root=path.parent.absolute(), path=path, **values)


def _table(path: Path, required: bool) -> dict[str, Any] | None:
    if path.exists() and not path.is_file():  # a FIFO would block forever, a folder can't be read
        raise ConfigError(f"{path}: is not a regular file")
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: is not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: is not valid TOML: nested too deeply to read") from None
    tool = document.get("tool")
    table = tool.get("shapecheck") if isinstance(tool, dict) else None
    if table is None:
        if required:
            raise ConfigError(f"{path}: has no [tool.shapecheck] table")
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.shapecheck must be a table")
    return table


def _strings(value: Any, origin: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{origin}: expected a list of strings, got {value!r}")
    return tuple(value)


def _check_codes(selectors: Sequence[str], origin: str) -> None:
    try:
        check_selectors(selectors, origin)
    except SelectorError as error:
        raise ConfigError(str(error)) from None


def _per_file_ignores(value: Any, path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: per-file-ignores: expected a table of glob = [codes], got {value!r}")
    entries = []
    for glob, codes in value.items():
        origin = f"{path}: per-file-ignores[{glob!r}]"
        codes = _strings(codes, origin)
        _check_codes(codes, origin)
        entries.append((glob, codes))
    return tuple(entries)
