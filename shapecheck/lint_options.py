"""How `shapecheck lint`'s options become settings, and the plain command line read without click.

The options that say what a configuration key says (`--select`, `--exclude`, `--per-file-ignores`, `--fixable`,
`--no-respect-gitignore`, ...) make the command line's `Settings`, checked as a file's are; `--config` takes ruff's
two forms: the path of a configuration file, or `KEY = VALUE` in TOML (`--config "select = ['SC1']"`), as many as
wanted, which apply over every file's configuration and under the other options. Options left out are None, so a
configuration's `fix = true` or `output-format` holds unless the command line says otherwise.

`plain_lint(args)` reads the command lines pre-commit, editors and CI run (`lint PATH...` with options that only
set values) into the parameters click would give the `lint` command, without importing click (some 43 million
instructions, 3% of a one-file run); anything else it does not read (None), and click does. The options are
declared for click in `shapecheck.cli_options`; `tests/test_plain_command_line.py` holds the two to the same
parameters.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from shapecheck.cache import CACHE_DIR_ENV, NO_CACHE_ENV
from shapecheck.engine.records import NamedTuple
from shapecheck.findings import Finding
from shapecheck.reporters import FORMATS
from shapecheck.tasks import Budget
from shapecheck.settings import SEVERITIES, ConfigError, Settings, check_value, parse_table

if TYPE_CHECKING:
    from shapecheck.config import Config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# ruff reads RUFF_OUTPUT_FORMAT and RUFF_OUTPUT_FILE as its flags: a CI job sets the format once for every step.
OUTPUT_FORMAT_ENV = "SHAPECHECK_OUTPUT_FORMAT"
OUTPUT_FILE_ENV = "SHAPECHECK_OUTPUT_FILE"
# `--file-time-limit` and `--file-memory-limit`: the configuration key each is checked as, and how text becomes it.
LIMITS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "file_time_limit": ("file-time-limit", float), "file_memory_limit": ("file-memory-limit", int)}


def limit(parameter: str, value: Any) -> Any:
    """A limit option's value, checked as the configuration key is (finite, bounded): ValueError for text that is
    no number, ConfigError for a number out of bounds."""
    key, convert = LIMITS[parameter]
    return check_value(key, convert(value) if isinstance(value, str) else value, "")


# ------------------------------------------------------------------------------------ the plain command line

_FLAG, _VALUE, _MULTIPLE = range(3)
_FALLBACK = object()  # a value the plain reading leaves to click: click's conversion fails, or says something


def _choice(choices: Sequence[str]) -> Callable[[str], Any]:
    return lambda value: value if value in choices else _FALLBACK


def _path(file_okay: bool, dir_okay: bool) -> Callable[[str], Any]:
    """What `click.Path(file_okay=..., dir_okay=...)` accepts as it is: a path that is not there, or one of a kind
    it allows that can be read."""
    def convert(value: str) -> Any:
        try:
            kind = os.stat(value).st_mode
        except OSError:
            return value
        import stat

        if stat.S_ISREG(kind) and not file_okay or stat.S_ISDIR(kind) and not dir_okay or \
                not os.access(value, os.R_OK):
            return _FALLBACK
        return value
    return convert


def _jobs(value: str) -> Any:
    try:
        number = int(value)  # as click's IntRange reads it
    except ValueError:
        return _FALLBACK
    return number if number >= 1 else _FALLBACK


def _limit(parameter: str) -> Callable[[str], Any]:
    def convert(value: str) -> Any:
        try:
            return limit(parameter, value)
        except (ValueError, ConfigError):
            return _FALLBACK
    return convert


# Every parameter of `lint` with the value click gives it when the command line leaves it out.
DEFAULTS: dict[str, Any] = {
    "paths": (), "select": (), "ignore": (), "extend_select": (), "per_file_ignores": (),
    "extend_per_file_ignores": (), "fixable": (), "unfixable": (), "extend_fixable": (), "exclude": (),
    "extend_exclude": (), "respect_gitignore": None, "force_exclude": False, "fix": None, "unsafe_fixes": None,
    "fix_only": False, "show_fixes": None, "exit_non_zero_on_fix": False, "diff": False, "output_format": None,
    "fail_on": None, "statistics": False, "exit_zero": False, "quiet": False, "output_file": None,
    "config_options": (), "isolated": False, "file_time_limit": None, "file_memory_limit": None, "no_cache": False,
    "cache_dir": None, "watch": False, "jobs": None, "stdin_filename": None, "add_noqa": False, "show_files": False,
    "show_settings": False}

# The options the plain reading takes: option -> (parameter, kind, the flag's value or the value's conversion).
# Left to click: --config, --stdin-filename, --watch, --add-noqa, --show-files, --show-settings and --help, whose
# runs check how they combine (a usage error) or are no plain lint.
PLAIN_OPTIONS: dict[str, tuple[str, int, Any]] = {
    **{f"--{name}": (name.replace("-", "_"), _MULTIPLE, None) for name in (
        "select", "ignore", "extend-select", "per-file-ignores", "extend-per-file-ignores", "fixable", "unfixable",
        "extend-fixable", "exclude", "extend-exclude")},
    **{option: (name.replace("-", "_"), _FLAG, value) for name in (
        "respect-gitignore", "force-exclude", "fix", "unsafe-fixes", "fix-only", "show-fixes")
       for option, value in ((f"--{name}", True), (f"--no-{name}", False))},
    **{option: (name.replace("-", "_"), _FLAG, True) for name in (
        "exit-non-zero-on-fix", "diff", "statistics", "exit-zero", "quiet", "isolated", "no-cache")
       for option in (f"--{name}",)},
    "-e": ("exit_zero", _FLAG, True), "-q": ("quiet", _FLAG, True), "-n": ("no_cache", _FLAG, True),
    "--output-format": ("output_format", _VALUE, _choice(FORMATS)),
    "--fail-on": ("fail_on", _VALUE, _choice(SEVERITIES)),
    "-o": ("output_file", _VALUE, _path(file_okay=True, dir_okay=False)),
    "--output-file": ("output_file", _VALUE, _path(file_okay=True, dir_okay=False)),
    "--cache-dir": ("cache_dir", _VALUE, _path(file_okay=False, dir_okay=True)),
    "--file-time-limit": ("file_time_limit", _VALUE, _limit("file_time_limit")),
    "--file-memory-limit": ("file_memory_limit", _VALUE, _limit("file_memory_limit")),
    "-j": ("jobs", _VALUE, _jobs), "--jobs": ("jobs", _VALUE, _jobs),
}
# Environment variables click reads: options from the environment (and its shell completion) are left to it.
_ENVIRONMENT = (NO_CACHE_ENV, CACHE_DIR_ENV, OUTPUT_FORMAT_ENV, OUTPUT_FILE_ENV, "_SHAPECHECK_COMPLETE")


def plain_lint(args: Sequence[str], environ: Mapping[str, str] = os.environ) -> dict[str, Any] | None:
    """The parameters click gives `lint` for `args` (the command line after the program), where they are a plain
    `lint` that click would run as they are; None for anything else (another command, help, an option left to
    click, a value click would refuse or read from the environment)."""
    if not args or args[0] != "lint" or any(name in environ for name in _ENVIRONMENT):
        return None
    params = dict(DEFAULTS)
    gathered: dict[str, list[str]] = {}
    paths: list[str] = []
    rest = args[1:]
    position = 0
    while position < len(rest):
        token = rest[position]
        position += 1
        if token == "--":  # as click: what follows is paths, even if it starts with a dash
            paths += rest[position:]
            break
        if token[:1] != "-" or token == "-":
            paths.append(token)
            continue
        if token.startswith("--"):
            option, equals, explicit = token.partition("=")
            given = None
        else:  # `-q`, `-eq`, `-j4`, `-j 4`: a cluster of short flags, the last of them perhaps taking the rest
            option, equals, explicit, given = token[:2], "", "", token[2:]
            while given and PLAIN_OPTIONS.get(option, (None, None))[1] == _FLAG:
                params[PLAIN_OPTIONS[option][0]] = PLAIN_OPTIONS[option][2]
                option, given = f"-{given[0]}", given[1:]
        entry = PLAIN_OPTIONS.get(option)
        if entry is None:
            return None
        parameter, kind, flag_or_conversion = entry
        if kind == _FLAG:
            if equals or given:
                return None  # click: the option takes no value
            params[parameter] = flag_or_conversion
            continue
        if equals or given:
            value = explicit if equals else given
        elif position < len(rest):
            value = rest[position]  # even if it starts with a dash, as click takes it
            position += 1
        else:
            return None  # click: the option needs a value
        if kind == _MULTIPLE:
            gathered.setdefault(parameter, []).append(value)
            continue
        converted = flag_or_conversion(value)
        if converted is _FALLBACK:
            return None
        params[parameter] = converted
    if "-" in paths:
        return None  # standard input: its checks are usage errors
    params.update({parameter: tuple(values) for parameter, values in gathered.items()}, paths=tuple(paths))
    return params


# ---------------------------------------------------------------------------------------------- into settings


def _listed(values: Sequence[str]) -> list[str]:
    """`--select SC1,SC201 --select SC3`: comma-separated and repeatable, as in ruff."""
    return [value.strip() for item in values for value in item.split(",") if value.strip()]


def _per_file(values: Sequence[str], option: str) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for value in values:
        pattern, colon, codes = value.rpartition(":")
        if not colon or not pattern or not codes.strip():
            raise ConfigError(f"{option}: expected PATTERN:CODES (`tests/*:SC2,SC3`), got {value!r}")
        table.setdefault(pattern, []).extend(_listed([codes]))
    return table


def command_line_settings(options: dict[str, Any]) -> Settings:
    """The layer the command line's options make; ConfigError naming each bad option."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key in ("select", "ignore", "extend-select", "fixable", "unfixable", "extend-fixable", "exclude",
                "extend-exclude", "per-file-ignores", "extend-per-file-ignores"):
        given = options[key.replace("-", "_")]
        if not given:
            continue
        try:
            value: Any = _per_file(given, f"--{key}") if key.endswith("per-file-ignores") else _listed(given)
            values[key.replace("-", "_")] = check_value(key, value, f"--{key}")
        except ConfigError as error:
            problems += error.messages
    if problems:
        raise ConfigError(problems)
    values["respect_gitignore"] = options["respect_gitignore"]
    return Settings(**values)


def split_config_options(values: Sequence[str]) -> tuple[str | None, Settings | None]:
    """`--config` values: the one configuration file named, and the `KEY = VALUE` overrides as one table's
    settings. Each value is a file if one exists by that name, else TOML, else (no `=`) a file that is missing."""
    path: str | None = None
    table: dict[str, Any] = {}
    for value in values:
        override = None if os.path.isfile(value) else _inline(value)
        if override is None:
            if path is not None:
                raise ConfigError(f"--config: name one configuration file, not {path!r} and {value!r}")
            path = value
            continue
        for key, item in override.items():
            if key == "extend":
                raise ConfigError("--config: extend: name the file itself with --config PATH")
            table[key] = item
    return path, (parse_table(table, "--config") if table else None)


def _inline(value: str) -> dict[str, Any] | None:
    """The table of a `KEY = VALUE` override; None when `value` is no such thing (so it names a file)."""
    try:
        table = tomllib.loads(value)
    except tomllib.TOMLDecodeError as error:
        if "=" not in value:
            return None
        raise ConfigError(f"--config: {value!r} is neither a configuration file nor a TOML `KEY = VALUE` pair "
                          f"overriding a setting ({error})") from None
    # `tool.shapecheck.select = [...]`, as a pyproject.toml spells it, is the same key.
    while set(table) == {"tool"} and isinstance(table["tool"], dict) and set(table["tool"]) == {"shapecheck"}:
        table = table["tool"]["shapecheck"]
        if not isinstance(table, dict):
            raise ConfigError(f"--config: {value!r}: tool.shapecheck must be a table")
    return table or None


# --------------------------------------------------------------------------------------------- the run's own


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class RunSettings(NamedTuple):
    """What one run does, from the command line, else from the configuration of its first path (fixing, format,
    threshold and budget are the run's, not each file's)."""

    fix: bool
    unsafe_fixes: bool
    fix_only: bool
    diff: bool
    show_fixes: bool
    fail_on: str
    output_format: str
    budget: Budget

    @classmethod
    def of(cls, options: dict[str, Any], config: Config) -> RunSettings:
        def given(name: str) -> Any:
            return getattr(config, name) if options[name] is None else options[name]

        seconds_given, memory_given = options["file_time_limit"], options["file_memory_limit"]
        budget = Budget(config.budget.seconds if seconds_given is None else seconds_given or None,
                        config.budget.memory_mib if memory_given is None else memory_given or None)
        return cls(given("fix"), given("unsafe_fixes"), options["fix_only"], options["diff"], given("show_fixes"),
                   given("fail_on"), given("output_format"), budget)

    @property
    def fix_mode(self) -> str | None:
        """The fixes to make ("safe", "unsafe"), to write or to diff; None: none."""
        return ("unsafe" if self.unsafe_fixes else "safe") if self.fix or self.fix_only or self.diff else None

    @property
    def write(self) -> bool:
        return (self.fix or self.fix_only) and not self.diff

    def fails_on(self, finding: Finding) -> bool:
        """Whether `finding` fails the run (exit 1): with `fail-on = "error"`, a warning does not."""
        return self.fail_on == "warning" or finding.severity == "error"
