"""The `shapecheck` command: `lint`, `rules` and `rule CODE`, with ruff's options, output and exit codes.

Exit codes of `lint`: 0 no findings, 1 findings (with `--diff`: something to fix), 2 bad usage or configuration, a
path that can't be linted, or an internal error (SC999). Findings go to standard output; messages about paths and
configuration go to standard error as `shapecheck: error: <path>: <reason>`.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from typing import TYPE_CHECKING

import click

from shapecheck.version import __version__
from shapecheck.cache import CACHE_DIR_ENV, NO_CACHE_ENV, ResultCache, cache_folder, run_cached
from shapecheck.cli_options import (RunSettings, command_line_settings, configuration, file_selection, fixing,
                                    reporting, rule_selection, split_config_options)
from shapecheck.config import Config, ConfigError, Resolver, rules_without
from shapecheck.discovery import discover
from shapecheck.engine.registry import ENGINE_CODES, RuleEntry, rules_by_code
from shapecheck.findings import INTERNAL_ERROR, FileResult
from shapecheck.reporters import FOR_PEOPLE, fix_only_summary, fixes_applied, render, summary
from shapecheck.reporters import statistics as render_statistics, statistics_json as render_statistics_json
from shapecheck.reporters.paths import shown
from shapecheck.tasks import Outcome, Task

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# What a run needs beyond finding, keying and printing files (the engine, libcst, the rules, the workers) is
# imported where it is used: a run answered from the result cache never loads it (see `shapecheck.cache`).

# Subcommands imported only when they run.
_LAZY_COMMANDS = {"record": "shapecheck.record.commands:record", "annotate": "shapecheck.record.commands:annotate"}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _LAZY_COMMANDS:
            import importlib

            module, _, attribute = _LAZY_COMMANDS[name].partition(":")
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context) -> object:
        """Any system error (standard output on a full disk, say) is a message and exit code 2, not a traceback;
        click itself quiets a closed pipe (`| head`)."""
        try:
            return super().invoke(ctx)
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise
            _silence_stdout()
            where = f"{error.filename}: " if error.filename else ""
            with contextlib.suppress(OSError):
                click.echo(f"shapecheck: error: {where}{error.strerror or error}", err=True)
            raise click.exceptions.Exit(2) from None


def _silence_stdout() -> None:
    # What could not be written stays buffered; Python's flush at exit would fail again, with a traceback.
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="shapecheck")
def main() -> None:
    """Catch PyTorch shape bugs and training-loop pitfalls before they run."""


def _fail(message: str) -> NoReturn:
    click.echo(f"shapecheck: error: {message}", err=True)
    raise click.exceptions.Exit(2)


def _fail_config(error: ConfigError) -> NoReturn:
    for message in error.messages:
        click.echo(f"shapecheck: error: {message}", err=True)
    raise click.exceptions.Exit(2)


@main.command(short_help="Lint files and folders.",
              epilog="Exit status: 0 no findings (or only findings below --fail-on, or --exit-zero, or --fix-only), "
                     "1 findings (with --diff: fixes to make; with --exit-non-zero-on-fix: a fix applied), 2 bad "
                     "usage or configuration, a path that can't be linted, or an internal error.")
@click.argument("paths", nargs=-1)
@rule_selection
@file_selection
@fixing
@reporting
@configuration
@click.option("-n", "--no-cache", is_flag=True, envvar=NO_CACHE_ENV,
              help=f"Neither read nor write the result cache (also {NO_CACHE_ENV}=1).")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar=CACHE_DIR_ENV, metavar="PATH",
              help=f"Keep the result cache here (also {CACHE_DIR_ENV}; default: .shapecheck_cache in the project "
                   "root).")
@click.option("-w", "--watch", is_flag=True, help="Lint again whenever a file changes, until Ctrl-C.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes (default: one per CPU).")
@click.option("--stdin-filename", metavar="PATH",
              help="Name of the file read from standard input (`-`), for messages, exclusion and per-file-ignores.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODE` to every line with a finding, then exit 0.")
@click.option("--show-files", is_flag=True, help="List the files that would be linted, then exit.")
@click.option("--show-settings", is_flag=True, help="Print the settings the first file is linted with, then exit.")
def lint(paths: tuple[str, ...], no_cache: bool, cache_dir: str | None, watch: bool, jobs: int | None,
         stdin_filename: str | None, add_noqa: bool, show_files: bool, show_settings: bool, **options: Any) -> None:
    """Lint PATHS: Python files and notebooks, and folders searched for `*.py` and `*.ipynb` (default: `.`); `-`
    reads standard input.

    Each file's settings come from the nearest .shapecheck.toml, shapecheck.toml or pyproject.toml with
    [tool.shapecheck] above it; the options here override them.
    """
    stdin = paths == ("-",) or (not paths and stdin_filename is not None)
    if watch:
        if stdin or add_noqa or show_files or show_settings:
            raise click.UsageError("--watch lints files as they change: not standard input, --add-noqa, "
                                   "--show-files or --show-settings")
        from shapecheck.watch import watch as watch_files

        # Each pass is this command without --watch; the cache answers for the files that did not change.
        rerun = click.get_current_context()
        watch_files(paths or (".",), lambda: rerun.invoke(lint, **{**rerun.params, "watch": False}), options["quiet"])
    if "-" in paths and len(paths) > 1:
        raise click.UsageError("`-` (standard input) cannot be combined with other paths")
    if stdin_filename is not None and not stdin:
        raise click.UsageError("--stdin-filename names standard input: pass `-` as the only path")
    if stdin and (add_noqa or show_files or show_settings):
        raise click.UsageError("--add-noqa, --show-files and --show-settings work on files, not standard input")
    problems: list[tuple[str, str]] = []
    try:
        config_file, overrides = split_config_options(options["config_options"])
        if options["isolated"] and config_file is not None:
            raise click.UsageError("--isolated reads no configuration file: leave out --config PATH")
        chooser = _RuleChooser(Resolver(config_file, command_line_settings(options), overrides, options["isolated"]))
        # The run's own settings (fixing, format, budget): the command line's, else those of the configuration
        # governing the first path.
        run = RunSettings.of(options, chooser.resolver.for_path(
            (stdin_filename if stdin else paths[0] if paths else None) or "."))
        if stdin:
            outcome = _lint_stdin(stdin_filename, chooser, run, options["force_exclude"])
            outcomes = [] if outcome is None else [outcome]
        else:
            found = discover(paths or (".",), chooser.resolver.exclusions_in, options["force_exclude"])
            problems += found.errors
            if not found.files and not found.errors and not options["quiet"]:
                click.echo("shapecheck: warning: no Python files found under the given paths", err=True)
            if show_files or show_settings:
                _show(found.files, chooser, show_settings)
                raise click.exceptions.Exit(2 if found.errors else 0)
            cache = None if no_cache else _open_cache(cache_dir, chooser.resolver)
            outcomes = run_cached(found.files, cache, chooser.resolver.for_path, chooser.task,
                                  None if add_noqa else run.fix_mode, run.write and not add_noqa, jobs, run.budget)
    except ConfigError as error:
        _fail_config(error)
    if add_noqa:
        _add_noqa([outcome.result for outcome in outcomes], problems)

    results = [outcome.result for outcome in outcomes]
    problems += [(result.filename, result.error) for result in results if result.error]
    _print_messages(problems, results)
    findings = sorted((finding for result in results for finding in result.findings), key=lambda f: f.sort_key)
    fixed = sum(result.fixed for result in results)
    # With --fix on standard input, standard output carries the fixed source.
    report = _Report(options["output_file"], to_stderr=stdin and run.write)
    for_people = run.output_format in FOR_PEOPLE and not options["quiet"]
    shown_fixes = fixes_applied(results, {code: rule.name for code, rule in rules_by_code().items()}) if (
        run.show_fixes and fixed and not run.diff) else ""
    if run.diff:
        report.add("".join(outcome.diff for outcome in outcomes).removesuffix("\n"))
        if not options["quiet"]:
            click.echo(f"Would fix {fixed} error{'' if fixed == 1 else 's'}." if fixed else "No errors would be fixed.",
                       err=True)
        failing = any(outcome.diff for outcome in outcomes)
    elif run.fix_only:
        if not options["quiet"]:
            report.add(shown_fixes)
            report.add(fix_only_summary(findings, fixed, run.unsafe_fixes))
        failing = False
    else:
        if options["statistics"]:
            show = render_statistics_json if run.output_format == "json" else render_statistics
            report.add(show(findings, run.unsafe_fixes))
        else:
            # Only json and sarif describe the rules; resolving them imports every rule.
            enabled = chooser.enabled([result.filename for result in results]) if run.output_format in (
                "json", "sarif") else ()
            report.add(render(run.output_format, findings, enabled, unsafe_fixes=run.unsafe_fixes))
            # The other formats are for machines: nothing else. A run that could not lint a path has not passed.
            if for_people and (findings or fixed or not problems):
                report.add(shown_fixes)  # between the findings and the summary, as ruff lists them
                report.add(summary(findings, fixed, run.unsafe_fixes))
        failing = any(run.fails_on(finding) for finding in findings) and not options["exit_zero"]
    report.close()
    if problems or any(finding.code == INTERNAL_ERROR for finding in findings):
        raise click.exceptions.Exit(2)
    raise click.exceptions.Exit(1 if failing or (options["exit_non_zero_on_fix"] and fixed) else 0)


def _open_cache(option: str | None, resolver: Resolver) -> ResultCache:
    folder, chosen = cache_folder(option, resolver.for_path("."))

    def warn(message: str) -> None:
        click.echo(f"shapecheck: warning: {message}", err=True)

    # A project folder the user cannot write to (a read-only checkout in CI) just goes without; a folder they chose
    # that fails deserves a word.
    return ResultCache(folder, warn if chosen else None)


class _Report:
    """What the run prints for the user's eyes or a program: to standard output, or to `--output-file`."""

    def __init__(self, output_file: str | None, to_stderr: bool) -> None:
        self.output_file = output_file
        self.to_stderr = to_stderr
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        if text:  # reporters return "" when there is nothing to say
            self.parts.append(text)

    def close(self) -> None:
        if self.output_file is None:
            for part in self.parts:
                click.echo(part, err=self.to_stderr)
            return
        try:
            with open(self.output_file, "w", encoding="utf-8") as file:
                file.write("".join(part + "\n" for part in self.parts))
        except OSError as error:
            _fail(f"{self.output_file}: cannot be written: {error.strerror or error}")


def _show(files: Sequence[str], chooser: _RuleChooser, settings: bool) -> None:
    """`--show-files`: each file that would be linted, absolute, sorted (as ruff lists them); `--show-settings`:
    what the first of them is linted with."""
    if not settings:
        for path in sorted(os.path.abspath(file) for file in files):
            click.echo(path)
        return
    if not files:
        _fail("no files to show the settings of")
    first = files[0]
    config = chooser.resolver.for_path(first)
    click.echo(f"Resolved settings for: {os.path.abspath(first)}")
    click.echo(f"Settings path: {config.path or '(none: the defaults)'}")
    for line in config.describe():
        click.echo(line)
    click.echo(f"rules = [{', '.join(rule.code for rule in chooser.rules_for(first))}]")


def _add_noqa(results: Sequence[FileResult], problems: list[tuple[str, str]]) -> NoReturn:
    from shapecheck.add_noqa import add_noqa
    from shapecheck.engine.linter import SourceError
    from shapecheck.notebook import NotebookError
    from shapecheck.writer import WriteError

    added = 0
    for result in results:
        try:
            added += add_noqa(result.filename, result.findings)
        except (OSError, WriteError, SourceError, NotebookError) as error:
            problems.append((result.filename, f"cannot add noqa directives: {error}"))
    problems += [(result.filename, result.error) for result in results if result.error]
    _print_messages(problems, results)
    click.echo(f"Added {added} noqa directive{'' if added == 1 else 's'}.", err=True)
    raise click.exceptions.Exit(2 if problems else 0)


def _print_messages(problems: Sequence[tuple[str, str]], results: Sequence[FileResult]) -> None:
    for path, reason in problems:
        click.echo(f"shapecheck: error: {shown(path)}: {reason}", err=True)
    for result in results:
        if result.warning:
            click.echo(f"shapecheck: warning: {shown(result.filename)}: {result.warning}", err=True)
        for position in result.invalid_noqa:
            click.echo(f"shapecheck: warning: Invalid `# noqa` directive on {shown(result.filename)}:{position}: expected a "
                       "comma-separated list of codes (e.g., `# noqa: SC101, SC201`).", err=True)


class _RuleChooser:
    """Each file's rules: those its configuration enables, less its per-file-ignores. Files with the same rules
    share one tuple, which a worker batch then pickles once."""

    def task(self, path: str, data: bytes | None = None) -> Task:
        """What linting the file at `path` takes: its rules, and the codes its configuration makes unfixable."""
        return Task(path, self.rules_for(path), data, self.resolver.for_path(path).file_options)

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._enabled: dict[Config, tuple[RuleEntry, ...]] = {}
        self._chosen: dict[tuple[Config, frozenset[str]], tuple[RuleEntry, ...]] = {}

    def rules_for(self, path: str) -> tuple[RuleEntry, ...]:
        """Not imported: the lint of each file imports those the file needs."""
        config = self.resolver.for_path(path)
        if config not in self._enabled:
            self._enabled[config] = config.enabled_entries()
        key = (config, config.ignored_codes(path))
        if key not in self._chosen:
            self._chosen[key] = rules_without(self._enabled[config], key[1])
        return self._chosen[key]

    def enabled(self, paths: Sequence[str]) -> tuple[type[Rule], ...]:
        """Every rule the configuration of one of `paths` enables (for the SARIF rule table and JSON's URLs)."""
        for path in paths or (".",):
            config = self.resolver.for_path(path)
            if config not in self._enabled:
                self._enabled[config] = config.enabled_entries()
        rules = {rule.code: rule for enabled in self._enabled.values() for rule in enabled}
        return tuple(rules[code].load() for code in sorted(rules))


def _lint_stdin(filename: str | None, chooser: _RuleChooser, run: RunSettings, force_exclude: bool
                ) -> Outcome | None:
    """Lint standard input; with --fix, print the source to standard output, fixed where it could be, as ruff
    does. None when --force-exclude excludes `filename`."""
    if sys.stdin is None:  # started with standard input closed
        _fail("-: standard input is closed")
    data = sys.stdin.buffer.read()
    config = chooser.resolver.for_path(filename or ".")
    if force_exclude and filename is not None and config.exclusions.covers(os.path.abspath(filename)):
        if run.write:
            _write_stdout(data)
        return None
    from shapecheck.runner import deliver_fixes, run as execute

    task = chooser.task(filename or "-", data)
    # In a worker, within the budget, like any file; the fixed source comes back to be written here.
    result = execute([task], run.fix_mode, budget=run.budget)[0].result
    outcome = deliver_fixes(data, result, task.rules, _write_stdout if run.write else None)
    if run.write and outcome.result.new_source is None:  # nothing fixed, or the fix could not be encoded
        _write_stdout(data)
    return outcome


def _write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@main.command("clean", short_help="Remove the result cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar=CACHE_DIR_ENV, metavar="PATH",
              help=f"The cache folder to remove (also {CACHE_DIR_ENV}).")
def clean_cache(cache_dir: str | None) -> None:
    """Remove the result cache: the folder `lint` keeps it in (`--cache-dir`, `cache-dir` in [tool.shapecheck],
    or .shapecheck_cache in the project root) and every .shapecheck_cache folder under the working directory."""
    from shapecheck.cache import clean

    try:
        folder, _ = cache_folder(cache_dir, Resolver(None).for_path("."))
    except ConfigError as error:
        _fail_config(error)
    removed, refused = clean([folder], ".")
    for path in removed:
        click.echo(f"Removing cache at: {os.path.relpath(path)}", err=True)
    for path in refused:
        click.echo(f"shapecheck: warning: {path}: not a shapecheck cache (no CACHEDIR.TAG of ours): left alone",
                   err=True)


RULE_FORMATS = click.Choice(["text", "json"])


def _all_records() -> str:
    from shapecheck.rule_docs import all_codes, record

    return json.dumps([record(code) for code in all_codes()], indent=2)


@main.command("rules", short_help="List every rule.")
@click.option("--output-format", type=RULE_FORMATS, default="text", show_default=True,
              help="json: each rule as `shapecheck rule --output-format json` describes it.")
def list_rules(output_format: str) -> None:
    """List every rule: code, name, whether it is on by default, and its fix."""
    if output_format == "json":
        click.echo(_all_records())
        return
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
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print the documentation of every rule.")
@click.option("--output-format", type=RULE_FORMATS, default="text", show_default=True,
              help="json: ruff's record of a rule (a list with --all).")
def explain_rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Print the documentation of rule CODE: a code (SC101) or a name (view-after-transpose)."""
    from shapecheck.rule_docs import all_codes, code_for, page, record

    if show_all == (code is not None):
        raise click.UsageError("give one rule's code or name, or --all")
    if show_all:
        if output_format == "json":
            click.echo(_all_records())
        else:
            click.echo("\n\n".join(page(each) for each in all_codes()))
        return
    found = code_for(code)
    if found is None:
        _fail(f"unknown rule {code!r} (see `shapecheck rules`)")
    click.echo(json.dumps(record(found), indent=2) if output_format == "json" else page(found))


@main.command("server", short_help="Run the editor server (Language Server Protocol over stdio).")
def language_server() -> None:
    """Run the Language Server an editor starts: diagnostics as you type, code actions for fixes and `# noqa`.

    It speaks LSP over standard input and output and reads the same [tool.shapecheck] settings as `lint` for each
    file. Needs the `server` extra: pip install "torch-shapecheck[server]".
    """
    try:
        from shapecheck.server.app import serve
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        _fail('`shapecheck server` needs pygls: pip install "torch-shapecheck[server]"')
    serve()

