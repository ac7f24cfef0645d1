"""The `shapecheck record` and `shapecheck annotate` commands."""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path

import click

from shapecheck.record.annotate import annotate_paths
from shapecheck.record.recorder import DEFAULT_CALLS, Recorder
from shapecheck.record.store import DEFAULT_PATH, RecordError, load
from shapecheck.writer import encode, unified_diff, write_atomically

_PYTHONS = ("python", "python3", os.path.basename(sys.executable))


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
               short_help="Run a Python program and record the tensor shapes its functions see.")
@click.option("--packages", metavar="A,B", help="Record functions of these packages (default: the program's own "
              "files, those under its folder outside site-packages).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=str(DEFAULT_PATH), show_default=True,
              help="The record file; an existing one is merged into.")
@click.option("--calls", type=click.IntRange(min=1), default=DEFAULT_CALLS, show_default=True,
              help="Calls recorded per function.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def record(packages: str | None, output: str, calls: int, command: tuple[str, ...]) -> None:
    """Run COMMAND (`python script.py ARGS`, `python -m module ARGS`, or `script.py ARGS`) in this process, as
    `coverage run` does, and record the shape, dtype and device of every tensor argument and return value of its
    functions (the first N calls each). Then `shapecheck annotate` writes them as jaxtyping annotations.

        shapecheck record -- python train.py --batch-size 8
        shapecheck record --packages mymodel -- python -m pytest tests/
    """
    argv = list(command)
    if argv and argv[0] in _PYTHONS:
        argv = argv[1:]
    if not argv:
        raise click.UsageError("give the program to run: `shapecheck record -- python script.py [ARGS]`")
    module = None
    if argv[0] == "-m":
        if len(argv) < 2:
            raise click.UsageError("`-m` needs a module name")
        module, argv = argv[1], argv[1:]
        root = Path.cwd()
    else:
        script = Path(argv[0])
        if not script.is_file():
            raise click.UsageError(f"{argv[0]}: no such file")
        root = script.resolve().parent
    wanted = [name.strip() for name in (packages or "").split(",") if name.strip()]
    recorder = Recorder(packages=wanted, roots=[] if wanted else [root], calls=calls)
    sys.argv = argv
    sys.path.insert(0, str(root))
    status = 0
    recorder.start()
    try:
        if module is not None:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:  # the program's own error: show it as Python would, and keep what was recorded
        traceback.print_exc()
        status = 1
    finally:
        recorder.stop()
    recorder.save(output)
    recorded = sum(1 for function in recorder.functions.values() if function.calls)
    message = f"shapecheck: recorded {recorder.entries} calls of {recorded} functions into {output}"
    if recorder.truncated:
        message += f" (stopped at {recorder.max_entries} calls: the rest were not recorded)"
    click.echo(message, err=True)
    sys.exit(status)


@click.command(short_help="Write recorded shapes into the source as jaxtyping annotations.")
@click.argument("paths", nargs=-1)
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=str(DEFAULT_PATH),
              show_default=True, help="The record `shapecheck record` wrote.")
@click.option("--diff", is_flag=True, help="Print the changes as a unified diff instead of writing them; exit 1 if "
              "there are any.")
@click.option("--overwrite", is_flag=True, help="Replace existing annotations too (default: keep them).")
@click.option("--decorate", is_flag=True, help="Also add `@shapecheck.check` to each annotated function.")
def annotate(paths: tuple[str, ...], record_file: str, diff: bool, overwrite: bool, decorate: bool) -> None:
    """Annotate the recorded functions in PATHS (default: `.`) with the shapes `shapecheck record` saw: symbols for
    sizes that varied between calls, named from the code where it names them, literals for sizes that never did."""
    try:
        records = load(record_file)
    except RecordError as error:
        click.echo(f"shapecheck: error: {error}", err=True)
        sys.exit(2)
    if not records:
        click.echo(f"shapecheck: error: {record_file}: no record (run `shapecheck record` first)", err=True)
        sys.exit(2)
    failed = changed = functions = 0
    for result in annotate_paths(records, paths or (".",), overwrite=overwrite, decorate=decorate):
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
