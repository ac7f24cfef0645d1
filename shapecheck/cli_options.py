"""`shapecheck lint`'s options for click, grouped as ruff's help groups them. How they become settings, and the plain
command line read without click, are `shapecheck.lint_options`: `tests/test_plain_command_line.py` holds its table
of options to these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from shapecheck.lint_options import LIMITS, OUTPUT_FILE_ENV, OUTPUT_FORMAT_ENV, limit
from shapecheck.reporters import FORMATS
from shapecheck.settings import SEVERITIES, ConfigError

CODES = {"multiple": True, "metavar": "CODES"}


class _Limit(click.ParamType):
    """A `--file-time-limit` / `--file-memory-limit` value, checked as the configuration key is (finite, bounded)."""

    def __init__(self, parameter: str) -> None:
        self.name, self._parameter = LIMITS[parameter][0], parameter

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return limit(self._parameter, value)
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
    click.option("--file-time-limit", type=_Limit("file_time_limit"), metavar="SECONDS",
                 help="Report a file that takes longer as not linted and go on (default 60; 0: no limit)."),
    click.option("--file-memory-limit", type=_Limit("file_memory_limit"), metavar="MIB",
                 help="Report a file that needs more memory as not linted and go on (default 4096; 0: no limit)."),
)
