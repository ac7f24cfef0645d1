"""`shapecheck lint`'s run, without click: the `lint` command (`shapecheck.cli`) and the plain command line
(`shapecheck.__main__`, `shapecheck.lint_options.plain_lint`) both run it, so a one-file lint need not import click.

Its output is written as click writes it (`echo`), and it ends in `Exit` with the exit code, or in `UsageProblem`
before it has done anything, which the command reports as click's usage error.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import re
import sys
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

from shapecheck.cache import ResultCache, cache_folder, run_cached
from shapecheck.config import Config, ConfigError, Resolver, rules_without
from shapecheck.discovery import discover
from shapecheck.engine.registry import RuleEntry, rules_by_code
from shapecheck.findings import INTERNAL_ERROR, FileResult
from shapecheck.lint_options import RunSettings, command_line_settings, split_config_options
from shapecheck.reporters import FOR_PEOPLE, fix_only_summary, fixes_applied, render, summary
from shapecheck.reporters import statistics as render_statistics, statistics_json as render_statistics_json
from shapecheck.reporters.paths import shown
from shapecheck.tasks import Outcome, Task

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# What a run needs beyond finding, keying and printing files (the engine, libcst, the rules, the workers) is
# imported where it is used: a run answered from the result cache never loads it (see `shapecheck.cache`).


class Exit(Exception):
    """The command ends with this exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class UsageProblem(Exception):
    """Options that do not go together, found before anything ran: click's usage error."""


# click's `strip_ansi`: what it removes from text written anywhere but a terminal. Compiled on first use: a run
# that prints nothing (a clean file under `--quiet`, what pre-commit and an editor's save run) never needs it.
@cache
def _ansi() -> re.Pattern[str]:
    return re.compile(r"\033\[[0-?]*[ -/]*[@-~]")


def echo(text: str, err: bool = False) -> None:
    """`click.echo(text, err=err)`: a line to standard output (or error), without terminal escapes unless it goes
    to a terminal, flushed. Written here for the usual stream (a text file in an encoding other than ASCII, not on
    Windows); any other is left to click, which mends an ASCII one and writes to Windows' console."""
    stream = sys.stderr if err else sys.stdout
    if type(stream) is not io.TextIOWrapper or stream.errors is None or os.name == "nt" or \
            codecs.lookup(stream.encoding).name == "ascii":
        import click

        click.echo(text, err=err)
        return
    try:
        terminal = stream.isatty()
    except Exception:  # noqa: BLE001 - as click: a stream that can't say is no terminal
        terminal = False
    stream.write(text + "\n" if terminal else _ansi().sub("", text + "\n"))
    stream.flush()


def system_error(error: OSError) -> None:
    """Any system error but a closed pipe (standard output on a full disk, say) is a message, not a traceback."""
    _silence_stdout()
    where = f"{error.filename}: " if error.filename else ""
    with contextlib.suppress(OSError):
        echo(f"shapecheck: error: {where}{error.strerror or error}", err=True)


def _silence_stdout() -> None:
    # What could not be written stays buffered; Python's flush at exit would fail again, with a traceback.
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def run_plain(params: dict[str, Any]) -> int:
    """The exit code of `lint` run with `params` (`lint_options.plain_lint`'s) as the click command runs it: a system
    error is a message and 2, a closed pipe (`| head`) 1 in silence, an interrupt `Aborted!` and 1."""
    try:
        try:
            lint(**{name: value for name, value in params.items() if name != "watch"})
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise
            system_error(error)
            return 2
    except Exit as done:
        return done.code
    except (EOFError, KeyboardInterrupt):
        echo("", err=True)  # the blank line closes the terminal's ^C
        echo("Aborted!", err=True)
        return 1
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        sys.stdout, sys.stderr = _Quiet(sys.stdout), _Quiet(sys.stderr)
        return 1


class _Quiet:
    """A standard stream whose flush at exit does not fail again on the closed pipe (click's `_PacifyFlushWrapper`)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def fail(message: str) -> NoReturn:
    echo(f"shapecheck: error: {message}", err=True)
    raise Exit(2)


def fail_config(error: ConfigError) -> NoReturn:
    for message in error.messages:
        echo(f"shapecheck: error: {message}", err=True)
    raise Exit(2)


def reads_stdin(paths: Sequence[str], stdin_filename: str | None) -> bool:
    return paths == ("-",) or (not paths and stdin_filename is not None)


def lint(paths: tuple[str, ...], no_cache: bool, cache_dir: str | None, jobs: int | None, stdin_filename: str | None,
         add_noqa: bool, show_files: bool, show_settings: bool, **options: Any) -> NoReturn:
    """One run of `shapecheck lint` (without `--watch`), given the command's parameters."""
    stdin = reads_stdin(paths, stdin_filename)
    if "-" in paths and len(paths) > 1:
        raise UsageProblem("`-` (standard input) cannot be combined with other paths")
    if stdin_filename is not None and not stdin:
        raise UsageProblem("--stdin-filename names standard input: pass `-` as the only path")
    if stdin and (add_noqa or show_files or show_settings):
        raise UsageProblem("--add-noqa, --show-files and --show-settings work on files, not standard input")
    problems: list[tuple[str, str]] = []
    try:
        config_file, overrides = split_config_options(options["config_options"])
        if options["isolated"] and config_file is not None:
            raise UsageProblem("--isolated reads no configuration file: leave out --config PATH")
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
                echo("shapecheck: warning: no Python files found under the given paths", err=True)
            if show_files or show_settings:
                _show(found.files, chooser, show_settings)
                raise Exit(2 if found.errors else 0)
            cache = None if no_cache else _open_cache(cache_dir, chooser.resolver)
            outcomes = run_cached(found.files, cache, chooser.resolver.for_path, chooser.task,
                                  None if add_noqa else run.fix_mode, run.write and not add_noqa, jobs, run.budget)
    except ConfigError as error:
        fail_config(error)
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
            echo(f"Would fix {fixed} error{'' if fixed == 1 else 's'}." if fixed else "No errors would be fixed.",
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
        raise Exit(2)
    raise Exit(1 if failing or (options["exit_non_zero_on_fix"] and fixed) else 0)


def _open_cache(option: str | None, resolver: Resolver) -> ResultCache:
    folder, chosen = cache_folder(option, resolver.for_path("."))

    def warn(message: str) -> None:
        echo(f"shapecheck: warning: {message}", err=True)

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
                echo(part, err=self.to_stderr)
            return
        try:
            with open(self.output_file, "w", encoding="utf-8") as file:
                file.write("".join(part + "\n" for part in self.parts))
        except OSError as error:
            fail(f"{self.output_file}: cannot be written: {error.strerror or error}")


def _show(files: Sequence[str], chooser: _RuleChooser, settings: bool) -> None:
    """`--show-files`: each file that would be linted, absolute, sorted (as ruff lists them); `--show-settings`:
    what the first of them is linted with."""
    if not settings:
        for path in sorted(os.path.abspath(file) for file in files):
            echo(path)
        return
    if not files:
        fail("no files to show the settings of")
    first = files[0]
    config = chooser.resolver.for_path(first)
    echo(f"Resolved settings for: {os.path.abspath(first)}")
    echo(f"Settings path: {config.path or '(none: the defaults)'}")
    for line in config.describe():
        echo(line)
    echo(f"rules = [{', '.join(rule.code for rule in chooser.rules_for(first))}]")


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
    echo(f"Added {added} noqa directive{'' if added == 1 else 's'}.", err=True)
    raise Exit(2 if problems else 0)


def _print_messages(problems: Sequence[tuple[str, str]], results: Sequence[FileResult]) -> None:
    for path, reason in problems:
        echo(f"shapecheck: error: {shown(path)}: {reason}", err=True)
    for result in results:
        if result.warning:
            echo(f"shapecheck: warning: {shown(result.filename)}: {result.warning}", err=True)
        for position in result.invalid_noqa:
            echo(f"shapecheck: warning: Invalid `# noqa` directive on {shown(result.filename)}:{position}: expected a "
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
        fail("-: standard input is closed")
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
