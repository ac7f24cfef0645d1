"""`[tool.shapecheck]` in pyproject.toml: finding it for each file, `extend`, validating, and the command line over it.

Each linted file takes the nearest pyproject.toml above it that has a `[tool.shapecheck]` table, as ruff does; one
without the table is passed over, as ruff passes over a pyproject without `[tool.ruff]`, and a file with none above
it gets the defaults. So results never depend on which paths a run names or in what order (pre-commit passes
staged files in any order). `--config PATH` names one file for every linted file instead.

`extend = "../pyproject.toml"` (relative to the file it is in) inherits that file's settings: this file's
`select` / `ignore` / `extend-select` apply after the inherited ones, its `exclude` and `per-file-ignores` replace
the inherited ones, and `extend-exclude` adds to them. The command line applies last, as one more layer of rule
selection, the way ruff layers it (`Selection`).

Paths in `exclude`, `extend-exclude` and `per-file-ignores` use `.gitignore` syntax (`shapecheck.gitignore`)
relative to the folder of the file they are written in: a pattern with a slash is anchored there (`tests/*`,
`/generated`), one without matches at any depth (`__init__.py`, `fixtures`), and a pattern that matches a folder
covers everything in it.

    [tool.shapecheck]
    extend = "../pyproject.toml"     # inherit, then override
    select = ["SC1", "SC301"]        # replaces the default rule set
    extend-select = ["SC501"]        # adds to it
    ignore = ["SC201"]
    exclude = [...]                  # replaces the default excludes (DEFAULT_EXCLUDE); rarely what you want
    extend-exclude = ["fixtures", "tests/data"]
    per-file-ignores = { "tests/*" = ["SC4"], "__init__.py" = ["SC101"] }
    file-time-limit = 60             # seconds one file may take; 0: no limit
    file-memory-limit = 4096         # MiB one file may take; 0: no limit
    cache-dir = "~/.cache/shapecheck"  # where results are kept (`shapecheck.cache`); relative to this file
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapecheck.engine.registry import SelectorError, check_selectors, resolve_layers
from shapecheck.gitignore import PatternList, parse_lines
from shapecheck.tasks import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, Budget

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# ruff's default `exclude` (Jupyter's autosave copies in .ipynb_checkpoints included), plus __pycache__ and our
# own result cache.
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".shapecheck_cache", ".svn", ".tox", ".venv", "__pypackages__", "__pycache__", "_build",
    "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
)

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude")
_LIMIT_KEYS = ("file-time-limit", "file-memory-limit")
KEYS = ("extend", *_LIST_KEYS, "per-file-ignores", *_LIMIT_KEYS, "cache-dir")


class ConfigError(Exception):
    """The configuration is unusable; the message names the file and the key."""


@dataclass(frozen=True)
class Selection:
    """One layer of rule selection: an extended file's, a file's own, or the command line's. Layers apply in order,
    as in ruff: a layer with `select` starts over from exactly that, one without adds its `extend-select` and drops
    its `ignore` from what the layers before it chose; within a layer the more specific selector wins."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()


class Exclusions:
    """The `exclude` and `extend-exclude` patterns that apply, each list relative to the file it was written in."""

    def __init__(self, lists: Sequence[PatternList]) -> None:
        self.lists = tuple(lists)

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """As `PatternList.decide`; the last list with a matching pattern decides."""
        for patterns in reversed(self.lists):
            decision = patterns.decide(path, is_dir)
            if decision is not None:
                return decision
        return None

    def covers(self, path: str, is_dir: bool = False) -> bool:
        return any(patterns.covers(path, is_dir) for patterns in self.lists)


@dataclass(frozen=True)
class Config:
    root: Path  # the folder relative paths in this file's settings are relative to
    path: Path | None = None  # the file the settings came from; None: defaults
    selections: tuple[Selection, ...] = ()  # inherited layers first, then this file's, then the command line's
    exclude: tuple[str, ...] | None = None  # None: inherited, else DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None  # (glob, selectors); None: inherited
    extended: Config | None = None  # what `extend` names
    file_time_limit: float = DEFAULT_SECONDS  # 0: none
    file_memory_limit: int = DEFAULT_MEMORY_MIB  # 0: none
    cache_dir: Path | None = None  # `cache-dir`, absolute; None: inherited, else the default (`shapecheck.cache`)

    @property
    def budget(self) -> Budget:
        return Budget(self.file_time_limit or None, self.file_memory_limit or None)

    def with_cli(self, select: Sequence[str] | None, ignore: Sequence[str], extend_select: Sequence[str]) -> Config:
        """The command line as the last layer: `--select` replaces every configured selection (`extend-select`
        too: "exactly these"), `--ignore` beats a configured `extend-select`, `--extend-select` a configured
        `ignore`."""
        for option, values in (("--select", select or ()), ("--ignore", ignore), ("--extend-select", extend_select)):
            _check_codes(values, option)
        if select is None and not ignore and not extend_select:
            return self
        layer = Selection(None if select is None else tuple(select), tuple(ignore), tuple(extend_select))
        return replace(self, selections=(*self.selections, layer))

    def describe(self) -> list[str]:
        """The settings as `--show-settings` prints them, one `key = value` per line."""
        lines = [f"root = {self.root}"]
        for number, layer in enumerate(self.selections, start=1):
            lines.append(f"selection[{number}] = select {list(layer.select) if layer.select is not None else 'default'}"
                         f", extend-select {list(layer.extend_select)}, ignore {list(layer.ignore)}")
        lines += [f"exclude = [{', '.join(repr(p.text) for p in patterns.patterns)}] in {patterns.base}"
                  for patterns in self.exclusions.lists]
        lines += [f"per-file-ignores = {list(patterns.patterns[0].text for patterns, _ in self._per_file)} "
                  f"-> {[list(codes) for _, codes in self._per_file]}"] if self._per_file else []
        return lines

    def enabled_rules(self) -> tuple[type[Rule], ...]:
        return resolve_layers((layer.select, layer.ignore, layer.extend_select) for layer in self.selections)

    @cached_property
    def exclusions(self) -> Exclusions:
        return Exclusions(self._exclude_lists())

    def _exclude_lists(self) -> list[PatternList]:
        if self.exclude is not None:
            lists = [PatternList(str(self.root), parse_lines(self.exclude))]
        elif self.extended is not None:
            lists = self.extended._exclude_lists()
        else:
            lists = [PatternList(str(self.root), parse_lines(DEFAULT_EXCLUDE))]
        if self.extend_exclude:
            lists.append(PatternList(str(self.root), parse_lines(self.extend_exclude)))
        return lists

    @cached_property
    def _per_file(self) -> tuple[tuple[PatternList, tuple[str, ...]], ...]:
        if self.per_file_ignores is None:
            return self.extended._per_file if self.extended is not None else ()
        return tuple((PatternList(str(self.root), parse_lines((glob,))), codes)
                     for glob, codes in self.per_file_ignores)

    def ignored_codes(self, filename: str) -> frozenset[str]:
        """The selectors `per-file-ignores` applies to this file (a path as the user gave it)."""
        path = os.path.abspath(filename)
        return frozenset(code for patterns, codes in self._per_file if patterns.covers(path) for code in codes)


class Resolver:
    """Each file's configuration: `--config`'s for all, or the nearest pyproject.toml with a table above the file,
    with the command line over it. Files in one folder share one lookup, files under one pyproject one Config."""

    def __init__(self, config_file: str | None, cli: Selection | None = None) -> None:
        cli = cli or Selection()
        self._cli = cli
        self._fixed = None if config_file is None else self._over(load(Path(config_file)))
        self._default: Config | None = None
        self._by_folder: dict[str, Config] = {}
        self._by_file: dict[Path, Config] = {}
        Config(root=Path.cwd()).with_cli(cli.select, cli.ignore, cli.extend_select)  # the command line's codes

    def _over(self, config: Config) -> Config:
        return config.with_cli(self._cli.select, self._cli.ignore, self._cli.extend_select)

    def for_path(self, path: str) -> Config:
        """The configuration of `path` (a file, or a folder whose files are meant); ConfigError if it is broken."""
        if self._fixed is not None:
            return self._fixed
        absolute = os.path.abspath(path)
        return self.for_folder(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))

    def for_folder(self, folder: str) -> Config:
        """The configuration of the files in `folder` (absolute)."""
        if self._fixed is not None:
            return self._fixed
        if folder not in self._by_folder:
            found = _nearest_table(Path(folder))
            if found is None:
                if self._default is None:
                    self._default = self._over(Config(root=Path.cwd()))
                config = self._default
            else:
                if found[0] not in self._by_file:
                    self._by_file[found[0]] = self._over(_from_table(*found))
                config = self._by_file[found[0]]
            self._by_folder[folder] = config
        return self._by_folder[folder]

    def exclusions_in(self, folder: str) -> Exclusions:
        """The excludes that apply to the entries of `folder` (absolute)."""
        return self.for_folder(folder).exclusions


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


def load(path: Path) -> Config:
    table = _table(path, required=True)
    assert table is not None
    return _from_table(path, table)


def _from_table(path: Path, table: dict[str, Any], extending: tuple[Path, ...] = ()) -> Config:
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
    if "cache-dir" in table:
        if not isinstance(table["cache-dir"], str) or not table["cache-dir"]:
            raise ConfigError(f"{path}: cache-dir: expected the path of a folder, got {table['cache-dir']!r}")
        values["cache_dir"] = (path.parent / os.path.expanduser(table["cache-dir"])).absolute()
    extended = _extended(path, table["extend"], extending) if "extend" in table else None
    own = Selection(values.pop("select", None), values.pop("ignore", ()), values.pop("extend_select", ()))
    inherited = extended.selections if extended is not None else ()
    return Config(root=path.parent.absolute(), path=path, selections=(*inherited, own), extended=extended, **values)


def _extended(path: Path, value: Any, extending: tuple[Path, ...]) -> Config:
    if not isinstance(value, str):
        raise ConfigError(f"{path}: extend: expected the path of a pyproject.toml, got {value!r}")
    base = (path.parent / value).absolute()
    chain = (*extending, path.absolute())
    if base in chain:
        raise ConfigError(f"{path}: extend: {value!r} extends itself (through {' -> '.join(map(str, chain))})")
    table = _table(base, required=True, origin=f"{path}: extend: ")
    assert table is not None
    return _from_table(base, table, chain)


def _table(path: Path, required: bool, origin: str = "") -> dict[str, Any] | None:
    if path.exists() and not path.is_file():  # a FIFO would block forever, a folder can't be read
        raise ConfigError(f"{origin}{path}: is not a regular file")
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"{origin}{path}: cannot be read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{origin}{path}: is not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{origin}{path}: is not valid TOML: nested too deeply to read") from None
    tool = document.get("tool")
    table = tool.get("shapecheck") if isinstance(tool, dict) else None
    if table is None:
        if required:
            raise ConfigError(f"{origin}{path}: has no [tool.shapecheck] table")
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{origin}{path}: tool.shapecheck must be a table")
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
