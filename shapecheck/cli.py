"""The `shapecheck` command: `lint`, `rules` and `rule CODE`, with ruff's options, output and exit codes.

Exit codes of `lint`: 0 no findings, 1 findings (with `--diff`: something to fix), 2 bad usage or configuration, a
path that can't be linted, or an internal error (SC999). Findings go to standard output; messages about paths and
configuration go to standard error as `shapecheck: error: <path>: <reason>`.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Sequence
from typing import Any

import click

from shapecheck.version import __version__
from shapecheck.cache import CACHE_DIR_ENV, NO_CACHE_ENV, cache_folder
from shapecheck.cli_options import configuration, file_selection, fixing, reporting, rule_selection
from shapecheck.config import ConfigError, Resolver
from shapecheck.engine.registry import ENGINE_CODES, rules_by_code
from shapecheck.lint_command import (Exit, UsageProblem, fail, fail_config, lint as run_lint, reads_stdin,
                                     system_error)

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
        except Exit as done:  # the end of a run of `shapecheck.lint_command`
            raise click.exceptions.Exit(done.code) from None
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise
            system_error(error)
            raise click.exceptions.Exit(2) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="shapecheck")
def main() -> None:
    """Catch PyTorch shape bugs and training-loop pitfalls before they run."""


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
def lint(paths: tuple[str, ...], watch: bool, **options: Any) -> None:
    """Lint PATHS: Python files and notebooks, and folders searched for `*.py` and `*.ipynb` (default: `.`); `-`
    reads standard input.

    Each file's settings come from the nearest .shapecheck.toml, shapecheck.toml or pyproject.toml with
    [tool.shapecheck] above it; the options here override them.
    """
    try:
        if watch:
            if reads_stdin(paths, options["stdin_filename"]) or options["add_noqa"] or options["show_files"] or \
                    options["show_settings"]:
                raise click.UsageError("--watch lints files as they change: not standard input, --add-noqa, "
                                       "--show-files or --show-settings")
            from shapecheck.watch import watch as watch_files

            # Each pass is this command without --watch; the cache answers for the files that did not change.
            watch_files(paths or (".",), lambda: run_lint(paths, **options), options["quiet"])
        run_lint(paths, **options)
    except UsageProblem as problem:
        raise click.UsageError(str(problem)) from None


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
        fail_config(error)
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
        fail(f"unknown rule {code!r} (see `shapecheck rules`)")
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
        fail('`shapecheck server` needs pygls: pip install "torch-shapecheck[server]"')
    serve()

