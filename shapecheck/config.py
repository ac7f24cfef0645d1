"""Each file's configuration: finding its file, `extend`, and the command line over it, stacked as ruff stacks them.

Each linted file takes the nearest configuration file above it, as ruff does: in each folder from the file's
upwards, `.shapecheck.toml`, else `shapecheck.toml`, else a `pyproject.toml` with a `[tool.shapecheck]` table (ruff's
order for `.ruff.toml`, `ruff.toml` and `pyproject.toml`). A standalone file holds the keys at its top level and
always counts, even empty; a pyproject.toml without the table is passed over. A file with none above it gets the
defaults. So results never depend on which paths a run names or in what order (pre-commit passes staged files in any
order). `--config PATH` names one file for every linted file instead; `--isolated` reads none.

A configuration is a stack of layers, each one table's `Settings` (`shapecheck.settings`), the oldest first: the
files `extend` reaches (`extend = "../pyproject.toml"`, relative to the file it is in), the file itself, the
`--config KEY = VALUE` overrides, then the command line's options. A layer's `select` starts the rule selection over
and its `ignore` / `extend-select` change what the layers below chose (`Selection`); `fixable` / `unfixable` /
`extend-fixable` likewise, starting from every rule; `exclude` and `per-file-ignores` replace what the layers below
say, `extend-exclude` and `extend-per-file-ignores` add to it; any other key given replaces.

Paths in `exclude`, `extend-exclude` and `per-file-ignores` use `.gitignore` syntax (`shapecheck.gitignore`)
relative to the folder of the file they are written in (the working directory's for the command line's): a pattern
with a slash is anchored there (`tests/*`, `/generated`), one without matches at any depth (`__init__.py`), and a
pattern that matches a folder covers everything in it. A per-file-ignores pattern starting with `!` applies its codes
to every file it does not match, as in ruff (`"!src/*" = ["SC2"]`).

`extend` is followed at most MAX_EXTEND_DEPTH files deep and never in a cycle; a file that is not a regular file
(a folder, a FIFO), loops through symbolic links or can't be read is an error naming it.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.records import NamedTuple, record
from shapecheck.engine.registry import RuleEntry, RuleSpec, resolve_entries, resolve_layers
from shapecheck.gitignore import PatternList, parse_lines
from shapecheck.settings import ConfigError, Settings, parse_table
from shapecheck.tasks import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, Budget

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

Chosen = TypeVar("Chosen", bound="RuleSpec")  # rules, as classes or as entries

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["CONFIG_FILES", "Config", "ConfigError", "Layer", "Resolver", "Selection", "Settings", "load",
           "rules_without"]

# ruff's default `exclude` (Jupyter's autosave copies in .ipynb_checkpoints included), plus __pycache__ and our
# own result cache.
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".shapecheck_cache", ".svn", ".tox", ".venv", "__pypackages__", "__pycache__", "_build",
    "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
)

# In one folder, the first of these that exists is its configuration (a pyproject.toml only with the table).
CONFIG_FILES = (".shapecheck.toml", "shapecheck.toml", "pyproject.toml")
PYPROJECT = "pyproject.toml"
# Real projects extend two or three files deep; a chain this long is a mistake (or generated to hurt).
MAX_EXTEND_DEPTH = 64


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class Selection(NamedTuple):
    """One layer of rule selection: an extended config's, a config's, or the command line's. Layers apply in order,
    as in ruff: a layer with `select` starts over from exactly that, one without adds its `extend-select` and drops
    its `ignore` from what the layers before it chose; within a layer the more specific selector wins."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()


class Layer(NamedTuple):
    settings: Settings
    root: Path  # the folder its relative patterns are relative to
    path: Path | None = None  # the file it came from; None: the command line or the defaults


class Exclusions:
    """The `exclude` and `extend-exclude` patterns that apply, each list relative to the file it was written in, and
    whether `.gitignore` files are read too."""

    def __init__(self, lists: Sequence[PatternList], respect_gitignore: bool = True) -> None:
        self.lists = tuple(lists)
        self.respect_gitignore = respect_gitignore

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """As `PatternList.decide`; the last list with a matching pattern decides."""
        for patterns in reversed(self.lists):
            decision = patterns.decide(path, is_dir)
            if decision is not None:
                return decision
        return None

    def covers(self, path: str, is_dir: bool = False) -> bool:
        return any(patterns.covers(path, is_dir) for patterns in self.lists)


class _PerFileIgnore(NamedTuple):
    patterns: PatternList
    codes: tuple[str, ...]
    negated: bool  # `!pattern`: the codes apply to the files the pattern does not match

    def applies_to(self, path: str) -> bool:
        return self.patterns.covers(path) != self.negated


@record(unsafe_hash=True)
class Config:
    layers: tuple[Layer, ...]

    @classmethod
    def of(cls, settings: Settings = Settings(), root: Path | None = None) -> Config:
        """One table's configuration alone (the defaults for the rest), relative to `root` (default: here)."""
        return cls((Layer(settings, root or Path.cwd()),))

    def over(self, settings: Settings | None, root: Path) -> Config:
        """This configuration with `settings` (the `--config` overrides, the command line) applied over it."""
        return self if settings is None or settings == Settings() else Config((*self.layers, Layer(settings, root)))

    # ------------------------------------------------------------------------------------------- where from

    @property
    def path(self) -> Path | None:
        """The nearest file the settings came from; None: only defaults and the command line."""
        return next((layer.path for layer in reversed(self.layers) if layer.path is not None), None)

    @property
    def root(self) -> Path:
        return next((layer.root for layer in reversed(self.layers) if layer.path is not None), self.layers[0].root)

    def _last(self, name: str, default: Any) -> Any:
        """The value of a plain key: the last layer that gives it wins."""
        for layer in reversed(self.layers):
            value = getattr(layer.settings, name)
            if value is not None:
                return value
        return default

    # ------------------------------------------------------------------------------------------------- rules

    @property
    def selections(self) -> tuple[Selection, ...]:
        return tuple(Selection(layer.settings.select, layer.settings.ignore, layer.settings.extend_select)
                     for layer in self.layers)

    def enabled_rules(self) -> tuple[type[Rule], ...]:
        return resolve_layers((layer.select, layer.ignore, layer.extend_select) for layer in self.selections)

    def enabled_entries(self) -> tuple[RuleEntry, ...]:
        """`enabled_rules`, not imported: a lint imports those a file needs (`registry.RuleEntry`)."""
        return resolve_entries((layer.select, layer.ignore, layer.extend_select) for layer in self.selections)

    @cached_property
    def unfixable(self) -> frozenset[str]:
        """The codes whose fixes are never applied nor offered: what `fixable` / `unfixable` / `extend-fixable`
        leave out, every rule being fixable to start with."""
        fixable = resolve_entries(((layer.settings.fixable, layer.settings.unfixable, layer.settings.extend_fixable)
                                   for layer in self.layers), everything=True)
        return frozenset(rule.code for rule in resolve_entries((), everything=True)) - {rule.code for rule in fixable}

    @cached_property
    def file_options(self) -> FileOptions:
        """What the engine needs besides the rules: the unfixable codes and the other tools' (`external`)."""
        return FileOptions(self.unfixable, self._last("external", ()))

    # ------------------------------------------------------------------------------------------------- files

    @cached_property
    def exclusions(self) -> Exclusions:
        return Exclusions(self._pattern_lists("exclude", DEFAULT_EXCLUDE), self.respect_gitignore)

    def _pattern_lists(self, name: str, default: tuple[str, ...]) -> list[PatternList]:
        """The lists `name` and `extend-name` make: the last layer that gives `name` (else `default` at the first
        layer's root) and the `extend-name` of that layer and every later one."""
        start = next((index for index in range(len(self.layers) - 1, -1, -1)
                      if getattr(self.layers[index].settings, name) is not None), None)
        base = self.layers[start or 0]
        lists = [PatternList(str(base.root), parse_lines(getattr(base.settings, name) or default))]
        for layer in self.layers[start or 0:]:
            extended = getattr(layer.settings, f"extend_{name}")
            if extended:
                lists.append(PatternList(str(layer.root), parse_lines(extended)))
        return lists

    @cached_property
    def _per_file(self) -> tuple[_PerFileIgnore, ...]:
        start = next((index for index in range(len(self.layers) - 1, -1, -1)
                      if self.layers[index].settings.per_file_ignores is not None), 0)
        entries = []
        for index, layer in enumerate(self.layers[start:], start=start):
            own = layer.settings.per_file_ignores if index == start else None
            for pattern, codes in (*(own or ()), *layer.settings.extend_per_file_ignores):
                negated = pattern.startswith("!")
                glob = pattern[1:] if negated else pattern
                entries.append(_PerFileIgnore(PatternList(str(layer.root), parse_lines((glob,))), codes, negated))
        return tuple(entries)

    def ignored_codes(self, filename: str) -> frozenset[str]:
        """The selectors `per-file-ignores` applies to this file (a path as the user gave it)."""
        path = os.path.abspath(filename)
        return frozenset(code for entry in self._per_file if entry.applies_to(path) for code in entry.codes)

    # ------------------------------------------------------------------------------------- plain settings

    @property
    def cache_dir(self) -> Path | None:
        """`cache-dir`, absolute (relative to the file it is written in); None where no table says."""
        for layer in reversed(self.layers):
            if layer.settings.cache_dir is not None:
                return (layer.root / os.path.expanduser(layer.settings.cache_dir)).absolute()
        return None

    @property
    def respect_gitignore(self) -> bool:
        return self._last("respect_gitignore", True)

    @property
    def budget(self) -> Budget:
        return Budget(self._last("file_time_limit", DEFAULT_SECONDS) or None,
                      self._last("file_memory_limit", DEFAULT_MEMORY_MIB) or None)

    @property
    def fix(self) -> bool:
        return self._last("fix", False)

    @property
    def unsafe_fixes(self) -> bool:
        return self._last("unsafe_fixes", False)

    @property
    def show_fixes(self) -> bool:
        return self._last("show_fixes", False)

    @property
    def fail_on(self) -> str:
        return self._last("fail_on", "warning")

    @property
    def output_format(self) -> str:
        return self._last("output_format", "full")

    def describe(self) -> list[str]:
        """The settings as `--show-settings` prints them, one `key = value` per line."""
        lines = [f"root = {self.root}"]
        for number, layer in enumerate(self.layers, start=1):
            given = {name.replace("_", "-"): value for name, value in layer.settings._asdict().items()
                     if value not in (None, ())}
            source = layer.path or f"(command line, relative to {layer.root})"
            lines.append(f"layer[{number}] = {source}: " + (", ".join(f"{key} = {_toml(value)}"
                                                                      for key, value in given.items()) or "defaults"))
        lines.append("selection = " + ", ".join(rule.code for rule in self.enabled_rules()))
        lines += [f"exclude = [{', '.join(repr(p.text) for p in patterns.patterns)}] in {patterns.base}"
                  for patterns in self.exclusions.lists]
        lines += [f"per-file-ignores = {'!' if entry.negated else ''}{entry.patterns.patterns[0].text!r} "
                  f"in {entry.patterns.base} -> {list(entry.codes)}" for entry in self._per_file]
        lines.append(f"unfixable = {sorted(self.unfixable)}")
        lines.append(f"respect-gitignore = {_toml(self.respect_gitignore)}, fix = {_toml(self.fix)}, "
                     f"unsafe-fixes = {_toml(self.unsafe_fixes)}, fail-on = {_toml(self.fail_on)}")
        return lines


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return repr(value)


class Resolver:
    """Each file's configuration: `--config`'s for all, none with `isolated`, or the nearest configuration file above
    the file; then `overrides` (`--config KEY = VALUE`) and `cli` (the command line's options), both relative to the
    working directory. Files in one folder share one lookup, files under one configuration file one Config, and
    each file is read and checked once."""

    def __init__(self, config_file: str | None, cli: Settings | Selection | None = None,
                 overrides: Settings | None = None, isolated: bool = False) -> None:
        if isinstance(cli, Selection):
            cli = Settings(select=cli.select, ignore=cli.ignore, extend_select=cli.extend_select)
        self._cli, self._overrides, self._isolated = cli, overrides, isolated
        self._cwd = Path.cwd()
        self._chains: dict[str, tuple[Layer, ...]] = {}
        self._by_folder: dict[str, Config] = {}
        self._by_file: dict[Path, Config] = {}
        self._default = self._over((Layer(Settings(), self._cwd),))
        self._fixed = None if config_file is None else self._over(self._chain(Path(config_file), (), required=True))

    def _over(self, chain: tuple[Layer, ...]) -> Config:
        return Config(chain).over(self._overrides, self._cwd).over(self._cli, self._cwd)

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
        if self._isolated:
            return self._default
        if folder not in self._by_folder:
            found = find_config(Path(folder))
            if found is None:
                config = self._default
            else:
                if found not in self._by_file:
                    self._by_file[found] = self._over(self._chain(found, (), required=True))
                config = self._by_file[found]
            self._by_folder[folder] = config
        return self._by_folder[folder]

    def exclusions_in(self, folder: str) -> Exclusions:
        """The excludes that apply to the entries of `folder` (absolute)."""
        return self.for_folder(folder).exclusions

    def _chain(self, path: Path, extending: tuple[str, ...], required: bool, origin: str = ""
               ) -> tuple[Layer, ...]:
        """The layers of the file at `path`: those of what it extends, then its own. `extending`: the files (real
        paths) that led here, to catch a cycle."""
        real = os.path.realpath(path)
        if real in self._chains:
            return self._chains[real]
        table = read_table(path, required=required, origin=origin)
        problems = []
        try:
            settings = parse_table(table or {}, str(path))
        except ConfigError as error:
            problems += error.messages
            settings = None
        below: tuple[Layer, ...] = ()
        value = (table or {}).get("extend")
        if isinstance(value, str) and value and "\0" not in value:
            try:
                below = self._extended(path, value, (*extending, real))
            except ConfigError as error:
                problems += error.messages
        if problems or settings is None:
            raise ConfigError(problems)
        chain = (*below, Layer(settings, path.parent.absolute(), path))
        self._chains[real] = chain
        return chain

    def _extended(self, path: Path, value: str, chain: tuple[str, ...]) -> tuple[Layer, ...]:
        base = Path(os.path.normpath(path.parent.absolute() / value))
        if os.path.realpath(base) in chain:
            raise ConfigError(f"{path}: extend: {value!r} extends itself (through {_through(chain)})")
        if len(chain) >= MAX_EXTEND_DEPTH:
            raise ConfigError(f"{path}: extend: more than {MAX_EXTEND_DEPTH} files deep (through {_through(chain)})")
        return self._chain(base, chain, required=True, origin=f"{path}: extend: ")


def _through(chain: Sequence[str]) -> str:
    names = list(chain) if len(chain) <= 6 else [*chain[:3], f"... {len(chain) - 5} more ...", *chain[-2:]]
    return " -> ".join(names)


def rules_without(rules: Sequence[Chosen], selectors: frozenset[str]) -> tuple[Chosen, ...]:
    """`rules` less those a per-file ignore names; it wins over any selection, as in ruff."""
    if "ALL" in selectors:
        return ()
    return tuple(rule for rule in rules if not any(rule.code.startswith(s) for s in selectors))


def find_config(start: Path) -> Path | None:
    """The nearest configuration file from `start` (a folder) upwards: a standalone file, or a pyproject.toml with
    a `[tool.shapecheck]` table."""
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file() and (name != PYPROJECT or read_table(candidate, required=False) is not None):
                return candidate
    return None


def load(path: Path) -> Config:
    """The configuration in the file at `path` (and what it extends), alone."""
    return Resolver(str(path)).for_path(".")


def read_table(path: Path, required: bool, origin: str = "") -> dict[str, Any] | None:
    """The shapecheck table of the file at `path`: `[tool.shapecheck]` in a pyproject.toml, the top level of any
    other file (or its `[tool.shapecheck]` when `[tool]` is all it holds, as in a pyproject-style file named by
    `--config`). None for a pyproject.toml without the table, unless `required`."""
    where = f"{origin}{path}"
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as error:  # missing, unreadable folder, a loop of links, a NUL in the name
        raise ConfigError(f"{where}: cannot be read: {getattr(error, 'strerror', None) or error}") from None
    if not stat.S_ISREG(mode):  # a FIFO would block forever, a folder can't be read
        raise ConfigError(f"{where}: is not a regular file")
    try:
        with open(path, "rb") as file:
            document = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"{where}: cannot be read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{where}: is not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{where}: is not valid TOML: nested too deeply to read") from None
    tool = document.get("tool")
    table = tool.get("shapecheck") if isinstance(tool, dict) else None
    if path.name != PYPROJECT and set(document) != {"tool"}:
        return document  # a standalone file: the settings at its top level
    if table is None:
        if required:
            raise ConfigError(f"{where}: has no [tool.shapecheck] table")
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: tool.shapecheck must be a table")
    return table
