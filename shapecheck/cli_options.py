"""`shapecheck lint`'s options, grouped as ruff's help groups them, and how they become one layer of settings.

The options that say what a configuration key says (`--select`, `--exclude`, `--per-file-ignores`, `--fixable`,
`--no-respect-gitignore`, ...) make the command line's `Settings`, checked as a file's are; `--config` takes ruff's
two forms: the path of a configuration file, or `KEY = VALUE` in TOML (`--config "select = ['SC1']"`), as many as
wanted, which apply over every file's configuration and under the other options. Options left out are None, so a
configuration's `fix = true` or `output-format` holds unless the command line says otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from shapecheck.engine.records import NamedTuple
from shapecheck.findings import Finding
from shapecheck.reporters import FORMATS
from shapecheck.tasks import Budget
from shapecheck.settings import SEVERITIES, ConfigError, Settings, check_value, mebibytes, parse_table, seconds

if TYPE_CHECKING:
    from shapecheck.config import Config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CODES = {"multiple": True, "metavar": "CODES"}
# ruff reads RUFF_OUTPUT_FORMAT and RUFF_OUTPUT_FILE as its flags: a CI job sets the format once for every step.
OUTPUT_FORMAT_ENV = "SHAPECHECK_OUTPUT_FORMAT"
OUTPUT_FILE_ENV = "SHAPECHECK_OUTPUT_FILE"


class _Limit(click.ParamType):
    """A `--file-time-limit` / `--file-memory-limit` value, checked as the configuration key is (finite, bounded)."""

    def __init__(self, name: str, check: Callable[[Any], Any], convert: Callable[[str], Any]) -> None:
        self.name, self._check, self._convert = name, check, convert

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return check_value(self.name, self._convert(value) if isinstance(value, str) else value, "")
        except ValueError:
            self.fail(f"{value!r} is not a number", param, ctx)
        except ConfigError as error:
            self.fail(error.messages[0].removeprefix(": "), param, ctx)


def _group(*options: Callable) -> Callable[[Callable], Callable]:
    """One decorator for several click options, listed by `--help` in the order given."""
    def apply(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command
    return apply


file_selection = _group(
    click.option("--exclude", multiple=True, metavar="PATTERNS",
                 help="Files and folders to leave out, replacing the configured `exclude` (comma-separated)."),
    click.option("--extend-exclude", multiple=True, metavar="PATTERNS",
                 help="Files and folders to leave out on top of `exclude` (comma-separated)."),
    click.option("--respect-gitignore/--no-respect-gitignore", default=None,
                 help="Leave out what .gitignore files name (default: yes)."),
    click.option("--force-exclude/--no-force-exclude", default=False,
                 help="Apply exclude / extend-exclude to paths named on the command line too (for pre-commit)."),
)


rule_selection = _group(
    click.option("--select", **CODES, help="Rules to enable, replacing the defaults: codes, prefixes (SC2) or ALL."),
    click.option("--ignore", **CODES, help="Rules to disable, on top of the configuration's."),
    click.option("--extend-select", **CODES, help="Rules to enable on top of the selection."),
    click.option("--per-file-ignores", multiple=True, metavar="PATTERN:CODES",
                 help="Rules to disable in matching files, replacing the configured per-file-ignores "
                      "(`tests/*:SC2`; `!src/*:SC2` for the files it does not match)."),
    click.option("--extend-per-file-ignores", multiple=True, metavar="PATTERN:CODES",
                 help="Like --per-file-ignores, on top of the configured ones."),
    click.option("--fixable", **CODES, help="Rules whose fixes may be applied (default: ALL)."),
    click.option("--unfixable", **CODES, help="Rules whose fixes are never applied."),
    click.option("--extend-fixable", **CODES, help="Rules whose fixes may be applied, on top of `fixable`."),
)


fixing = _group(
    click.option("--fix/--no-fix", default=None, help="Apply safe fixes to the files."),
    click.option("--unsafe-fixes/--no-unsafe-fixes", default=None,
                 help="With --fix or --diff, apply unsafe fixes too; without, show them as available."),
    click.option("--fix-only/--no-fix-only", default=False,
                 help="Apply fixes, but report no remaining findings and exit 0 for them (implies --fix)."),
    click.option("--show-fixes/--no-show-fixes", default=None,
                 help="After fixing, list the fixes applied, by file and rule."),
    click.option("--exit-non-zero-on-fix", is_flag=True,
                 help="Exit 1 when a fix was applied, even if no finding remains."),
    click.option("--diff", is_flag=True,
                 help="Print the fixes as a unified diff instead of writing them; exit 1 if any."),
)


reporting = _group(
    click.option("--output-format", type=click.Choice(FORMATS), default=None, envvar=OUTPUT_FORMAT_ENV,
                 help=f"How findings are printed (also {OUTPUT_FORMAT_ENV}; default: full)."),
    click.option("--fail-on", type=click.Choice(SEVERITIES), default=None,
                 help="The least severity that fails the run (default: warning, any finding). With error, "
                      "warnings are printed but exit 0."),
    click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing them."),
    click.option("-e", "--exit-zero", is_flag=True, help="Exit 0 even when there are findings."),
    click.option("-q", "--quiet", is_flag=True, help="Print findings and errors only, no summary."),
    click.option("-o", "--output-file", type=click.Path(dir_okay=False), metavar="PATH", envvar=OUTPUT_FILE_ENV,
                 help="Write the findings (and the summary) to this file instead of standard output "
                      f"(also {OUTPUT_FILE_ENV})."),
)


configuration = _group(
    click.option("--config", "config_options", multiple=True, metavar="PATH | KEY=VALUE",
                 help="A configuration file to use for every file instead of the nearest one, or a TOML "
                      "`KEY = VALUE` pair that overrides a setting (repeatable)."),
    click.option("--isolated", is_flag=True, help="Read no configuration file."),
    click.option("--file-time-limit", type=_Limit("file-time-limit", seconds, float), metavar="SECONDS",
                 help="Report a file that takes longer as not linted and go on (default 60; 0: no limit)."),
    click.option("--file-memory-limit", type=_Limit("file-memory-limit", mebibytes, int), metavar="MIB",
                 help="Report a file that needs more memory as not linted and go on (default 4096; 0: no limit)."),
)


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
