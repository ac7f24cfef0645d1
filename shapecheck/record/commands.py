"""The `shapecheck record` and `shapecheck annotate` commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click

from shapecheck.record.annotate import annotate_paths
from shapecheck.record.recorder import DEFAULT_CALLS
from shapecheck.record.run import UsageError, run, same_interpreter, split_command
from shapecheck.record.store import DEFAULT_PATH, RecordError, load
from shapecheck.writer import encode, unified_diff, write_atomically


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
               short_help="Run a Python program and record the tensor shapes its functions see.")
@click.option("--packages", metavar="A,B", help="Record functions of these packages (default: the program's own "
              "files, those under its folder outside site-packages).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=str(DEFAULT_PATH), show_default=True,
              help="The record file; an existing one is merged into.")
@click.option("--calls", type=click.IntRange(min=1), default=DEFAULT_CALLS, show_default=True,
              help="Distinct shape signatures recorded per function.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def record(packages: str | None, output: str, calls: int, command: tuple[str, ...]) -> None:
    """Run COMMAND (`python script.py ARGS`, `python -m module ARGS`, `/path/to/venv/bin/python script.py ARGS` or
    `script.py ARGS`), as `coverage run` does, and record the shape, dtype and device of the tensor arguments and
    return values of its functions: one call of each distinct shape signature. Then `shapecheck annotate` writes
    them as jaxtyping annotations.

        shapecheck record -- python train.py --batch-size 8
        shapecheck record --packages mymodel -- .venv/bin/python -m pytest tests/
    """
    try:
        interpreter, module, argv = split_command(list(command))
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    wanted = [name.strip() for name in (packages or "").split(",") if name.strip()]
    output = os.path.abspath(output)
    if same_interpreter(interpreter):
        sys.exit(run(module, argv, output, wanted, calls))
    # Another environment's interpreter: the program runs there, with its packages, and records through ours.
    assert interpreter is not None
    home = str(Path(__file__).resolve().parents[2])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))}
    started = [interpreter, "-m", "shapecheck.record.run", "--output", output, "--packages", ",".join(wanted),
               "--calls", str(calls), "--", *(["-m"] if module is not None else []), *argv]
    try:
        sys.exit(subprocess.run(started, env=environment).returncode)
    except OSError as error:
        raise click.UsageError(f"{interpreter}: cannot run it ({error.strerror})") from None


@click.command(short_help="Write recorded shapes into the source as jaxtyping annotations.")
@click.argument("paths", nargs=-1)
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=str(DEFAULT_PATH),
              show_default=True, help="The record `shapecheck record` wrote.")
@click.option("--diff", is_flag=True, help="Print the changes as a unified diff instead of writing them; exit 1 if "
              "there are any.")
@click.option("--overwrite", is_flag=True, help="Replace existing annotations too (default: keep them).")
@click.option("--keep-plain", is_flag=True, help="Leave plain `Tensor` hints as they are (default: upgrade them to "
              "jaxtyping annotations of the same structure).")
@click.option("--decorate", is_flag=True, help="Also add `@shapecheck.check` to each annotated function.")
def annotate(paths: tuple[str, ...], record_file: str, diff: bool, overwrite: bool, keep_plain: bool,
             decorate: bool) -> None:
    """Annotate the recorded functions in PATHS (default: `.`) with the shapes `shapecheck record` saw: symbols for
    sizes that varied between calls or come from a setting (named from the code, an int argument or a config
    object's attribute), literals for sizes that never did (each noted)."""
    try:
        records = load(record_file)
    except RecordError as error:
        click.echo(f"shapecheck: error: {error}", err=True)
        sys.exit(2)
    if not records:
        click.echo(f"shapecheck: error: {record_file}: no record (run `shapecheck record` first)", err=True)
        sys.exit(2)
    failed = changed = functions = 0
    for result in annotate_paths(records, paths or (".",), overwrite=overwrite, decorate=decorate,
                                 keep_plain=keep_plain):
        shown = os.path.relpath(result.path)
        if result.error is not None:
            click.echo(f"shapecheck: error: {shown}: {result.error}", err=True)
            failed += 1
            continue
        for note in result.notes:
            click.echo(f"{shown}: note: {note}", err=True)
        if result.new == result.old:
            continue
        changed += 1
        functions += len(result.functions)
        if diff:
            click.echo(unified_diff(result.old, result.new, shown), nl=False)
        else:
            write_atomically(str(result.path), encode(result.new, result.path.read_bytes()))
    verb = "would annotate" if diff else "annotated"
    click.echo(f"shapecheck: {verb} {functions} functions in {changed} files", err=True)
    sys.exit(2 if failed else 1 if diff and changed else 0)
