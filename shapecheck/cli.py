"""The `shapecheck` command: `lint`, `rules` and `rule CODE`, with ruff's options, output and exit codes.

Exit codes of `lint`: 0 no findings, 1 findings (with `--diff`: something to fix), 2 bad usage or configuration, a
path that can't be linted, or an internal error (SC999). Findings go to standard output; messages about paths and
configuration go to standard error as `shapecheck: error: <path>: <reason>`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import click

from shapecheck import __version__
from shapecheck.config import Config, ConfigError, discover as find_config, rules_without
from shapecheck.discovery import discover
from shapecheck.engine.registry import ENGINE_CODES, rules_by_code
from shapecheck.engine.rule import Rule
from shapecheck.findings import ENGINE_DOCS, INTERNAL_ERROR, FileResult
from shapecheck.reporters import FORMATS, render, statistics as render_statistics, summary
from shapecheck.runner import Outcome, Task, deliver_fixes, lint_bytes, run, with_large_stack



@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="shapecheck")
def main() -> None:
    """Catch PyTorch shape bugs and training-loop pitfalls before they run."""


def _codes(values: Sequence[str]) -> list[str]:
    """`--select SC1,SC201 --select SC3`: comma-separated and repeatable, as in ruff."""
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


def _fail(message: str) -> NoReturn:
    click.echo(f"shapecheck: error: {message}", err=True)
    raise click.exceptions.Exit(2)


CODES = {"multiple": True, "metavar": "CODES"}


@main.command(short_help="Lint files and folders.",
              epilog="Exit status: 0 no findings, 1 findings (with --diff: fixes to make), 2 bad usage or "
                     "configuration, a path that can't be linted, or an internal error.")
@click.argument("paths", nargs=-1)
@click.option("--select", **CODES, help="Rules to enable, replacing the defaults: codes, prefixes (SC2) or ALL.")
@click.option("--ignore", **CODES, help="Rules to disable, on top of the configuration's.")
@click.option("--extend-select", **CODES, help="Rules to enable on top of the selection.")
@click.option("--output-format", type=click.Choice(FORMATS), default="full", show_default=True,
              help="How findings are printed.")
@click.option("--fix/--no-fix", default=False, help="Apply safe fixes to the files.")
@click.option("--unsafe-fixes/--no-unsafe-fixes", default=False,
              help="With --fix or --diff, apply unsafe fixes too; without, show them as available.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff instead of writing them; exit 1 if any.")
@click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("-e", "--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings and errors only, no summary.")
@click.option("-n", "--no-cache", is_flag=True,
              help="Accepted for ruff compatibility: shapecheck keeps no cache, it is fast enough cold.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="PATH",
              help="Read [tool.shapecheck] from this file instead of the nearest pyproject.toml.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes (default: one per CPU).")
@click.option("--stdin-filename", metavar="PATH",
              help="Name of the file read from standard input (`-`), for messages, exclusion and per-file-ignores.")
@click.option("--force-exclude", is_flag=True,
              help="Apply exclude / extend-exclude to paths named on the command line too (for pre-commit).")
def lint(paths: tuple[str, ...], select: tuple[str, ...], ignore: tuple[str, ...], extend_select: tuple[str, ...],
         output_format: str, fix: bool, unsafe_fixes: bool, diff: bool, statistics: bool, exit_zero: bool,
         quiet: bool, no_cache: bool, config_file: str | None, jobs: int | None, stdin_filename: str | None,
         force_exclude: bool) -> None:
    """Lint PATHS: Python files, and folders searched for `*.py` (default: `.`); `-` reads standard input.

    Settings come from [tool.shapecheck] in the nearest pyproject.toml; the options here override them.
    """
    del no_cache  # accepted for ruff compatibility: there is no cache
    stdin = paths == ("-",) or (not paths and stdin_filename is not None)
    if "-" in paths and len(paths) > 1:
        raise click.UsageError("`-` (standard input) cannot be combined with other paths")
    if stdin_filename is not None and not stdin:
        raise click.UsageError("--stdin-filename names standard input: pass `-` as the only path")
    first = stdin_filename if stdin else (paths[0] if paths else None)
    try:
        config = find_config(first, config_file).with_cli(_codes(select) if select else None, _codes(ignore),
                                                          _codes(extend_select))
        enabled = config.enabled_rules()
    except ConfigError as error:
        _fail(str(error))
    fix_mode = ("unsafe" if unsafe_fixes else "safe") if fix or diff else None
    write = fix and not diff
    chooser = _RuleChooser(config, enabled)

    problems: list[tuple[str, str]] = []
    if stdin:
        outcome = _lint_stdin(stdin_filename, config, chooser, fix_mode, write, force_exclude)
        outcomes = [] if outcome is None else [outcome]
    else:
        found = discover(paths or (".",), config.exclusions, force_exclude)
        problems += found.errors
        if not found.files and not found.errors and not quiet:
            click.echo("shapecheck: warning: no Python files found under the given paths", err=True)
        outcomes = run([Task(path, chooser.rules_for(path)) for path in found.files], fix_mode, write, jobs)

    results = [outcome.result for outcome in outcomes]
    problems += [(result.filename, result.error) for result in results if result.error]
    _print_messages(problems, results)
    findings = sorted((finding for result in results for finding in result.findings), key=lambda f: f.sort_key)
    fixed = sum(result.fixed for result in results)
    if diff:
        _print_diffs(outcomes, fixed, quiet)
        found_something = any(outcome.diff for outcome in outcomes)
    else:
        # With --fix on standard input, standard output carries the fixed source.
        to_stderr = stdin and write
        if statistics:
            _echo(render_statistics(findings, unsafe_fixes), to_stderr)
        else:
            _echo(render(output_format, findings, enabled, unsafe_fixes=unsafe_fixes), to_stderr)
            if output_format in ("full", "concise") and not quiet:  # the others are for machines: nothing else
                _echo(summary(findings, fixed, unsafe_fixes), to_stderr)
        found_something = bool(findings)
    failed = bool(problems) or any(finding.code == INTERNAL_ERROR for finding in findings)
    raise click.exceptions.Exit(2 if failed else 1 if found_something and not exit_zero else 0)


def _echo(text: str, to_stderr: bool) -> None:
    if text:  # reporters return "" when there is nothing to say
        click.echo(text, err=to_stderr)


def _print_messages(problems: Sequence[tuple[str, str]], results: Sequence[FileResult]) -> None:
    for path, reason in problems:
        click.echo(f"shapecheck: error: {path}: {reason}", err=True)
    for result in results:
        if result.warning:
            click.echo(f"shapecheck: warning: {result.filename}: {result.warning}", err=True)


class _RuleChooser:
    """Each file's rules: the enabled ones less its per-file-ignores. Files with the same ignores share one tuple,
    which a worker batch then pickles once."""

    def __init__(self, config: Config, enabled: tuple[type[Rule], ...]) -> None:
        self.config = config
        self.enabled = enabled
        self._by_ignores: dict[frozenset[str], tuple[type[Rule], ...]] = {}

    def rules_for(self, path: str) -> tuple[type[Rule], ...]:
        ignored = self.config.ignored_codes(path)
        if ignored not in self._by_ignores:
            self._by_ignores[ignored] = rules_without(self.enabled, ignored)
        return self._by_ignores[ignored]


def _lint_stdin(filename: str | None, config: Config, chooser: _RuleChooser, fix_mode: str | None, write: bool,
                force_exclude: bool) -> Outcome | None:
    """Lint standard input; with --fix, print the source to standard output, fixed where it could be, as ruff
    does. None when --force-exclude excludes `filename`."""
    data = sys.stdin.buffer.read()
    if force_exclude and filename is not None and config.exclusions.covers(os.path.abspath(filename)):
        if write:
            _write_stdout(data)
        return None
    rules = chooser.rules_for(filename) if filename is not None else chooser.enabled
    result = with_large_stack(lint_bytes, data, filename or "-", rules, fix_mode)
    outcome = deliver_fixes(data, result, rules, _write_stdout if write else None)
    if write and outcome.result.new_source is None:  # nothing fixed, or the fix could not be encoded
        _write_stdout(data)
    return outcome


def _write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _print_diffs(outcomes: Sequence[Outcome], fixed: int, quiet: bool) -> None:
    for outcome in outcomes:
        if outcome.diff:
            click.echo(outcome.diff, nl=False)
    if not quiet:
        message = f"Would fix {fixed} error{'' if fixed == 1 else 's'}." if fixed else "No errors would be fixed."
        click.echo(message, err=True)


@main.command("rules", short_help="List every rule.")
def list_rules() -> None:
    """List every rule: code, name, whether it is on by default, and its fix."""
    rows = [(code, name, "always", "-") for code, name in ENGINE_CODES.items()]
    rows += [(rule.code, rule.name, "yes" if rule.default else "no", rule.fixable or "-")
             for rule in rules_by_code().values()]
    rows.sort()
    table = [("CODE", "NAME", "DEFAULT", "FIX"), *rows]
    widths = [max(len(row[column]) for row in table) for column in range(3)]
    for row in table:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])


@main.command("shapes", short_help="Print the shapes the analysis infers.")
@click.argument("paths", nargs=-1, required=True)
def show_shapes(paths: tuple[str, ...]) -> None:
    """Print the shape inferred after each assignment of each function in PATHS (files or folders), in the code's
    own symbols, like an editor's inlay hints. Assignments whose value is unknown are left out."""
    from shapecheck.engine.linter import SourceError, decode
    from shapecheck.shapes.hints import render_hints, shape_hints

    failed = False
    for path in _python_files(paths):
        try:
            with open(path, "rb") as handle:
                text = decode(handle.read())
            hints = shape_hints(text, path)
        except (OSError, SourceError) as error:
            click.echo(f"shapecheck: error: {path}: {error}", err=True)
            failed = True
            continue
        except Exception as error:  # noqa: BLE001 - a syntax error or a crash names the file, the others go on
            click.echo(f"shapecheck: error: {path}: {type(error).__name__}: {error}", err=True)
            failed = True
            continue
        if hints:
            click.echo(render_hints(hints, path))
    if failed:
        raise click.exceptions.Exit(2)


def _python_files(paths: Sequence[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, name) for name in sorted(files) if name.endswith(".py"))
        else:
            found.append(path)
    return found


@main.command("rule")
@click.argument("code")
def explain_rule(code: str) -> None:
    """Print the documentation of rule CODE."""
    code = code.upper()
    rule = rules_by_code().get(code)
    if rule is None:
        if code not in ENGINE_CODES:
            _fail(f"unknown rule code {code!r} (see `shapecheck rules`)")
        click.echo(f"# {ENGINE_CODES[code]} ({code})\n\n{ENGINE_DOCS[code]}")
        return
    fix = {"safe": "A safe fix is sometimes available (`--fix`).",
           "unsafe": "An unsafe fix is sometimes available (`--fix --unsafe-fixes`).",
           None: "No fix is available."}[rule.fixable]
    default = ("On by default." if rule.default
               else f"Off by default: enable it with `--extend-select {rule.code}` or `extend-select` in the config.")
    click.echo(f"# {rule.name} ({rule.code})\n\n{fix} {default}\n\n{rule.documentation()}")
