"""Run a program under the recorder, in this process, as `coverage run` does.

`shapecheck record -- python train.py` runs it here. When the command names another interpreter by its path
(`/path/to/venv/bin/python train.py`, as scripts and Makefiles do), the program must run under that interpreter, with
its own packages: `shapecheck record` then starts it as `INTERPRETER -m shapecheck.record.run ...` with shapecheck on
its path. This module and the recorder need nothing but the standard library, so that works in any environment
that has torch, whether or not shapecheck (or click, or libcst) is installed there.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from pathlib import Path

from shapecheck.record.recorder import DEFAULT_CALLS, Recorder


class UsageError(Exception):
    """The command to run is malformed: the message says how."""


def split_command(argv: list[str]) -> tuple[str | None, str | None, list[str]]:
    """(the interpreter named, if any; the module for `-m`, if any; the program's argv) of a command line such as
    `python train.py ARGS`, `/venv/bin/python3.11 -m pkg ARGS` or `train.py ARGS`."""
    interpreter = None
    if argv and is_interpreter(argv[0]):
        interpreter, argv = argv[0], argv[1:]
        while argv and argv[0] in ("-u", "-B", "-O", "-OO", "-E", "-s", "-I"):  # flags that change nothing here
            argv = argv[1:]
    if not argv:
        raise UsageError("give the program to run: `shapecheck record -- python script.py [ARGS]`")
    if argv[0] == "-m":
        if len(argv) < 2:
            raise UsageError("`-m` needs a module name")
        return interpreter, argv[1], argv[1:]
    if not Path(argv[0]).is_file():
        raise UsageError(f"{argv[0]}: no such file")
    return interpreter, None, argv


def is_interpreter(word: str) -> bool:
    """`python`, `python3`, `python3.11`, `/path/to/venv/bin/python`, or any executable that is not a script."""
    name = os.path.basename(word).lower().removesuffix(".exe")
    if name.startswith("python") and name[6:].replace(".", "").isdigit() or name in ("python", "pypy", "pypy3"):
        return True
    path = Path(word)
    if path.suffix == ".py" or not path.is_file() or not os.access(path, os.X_OK):
        return False
    try:
        with path.open("rb") as binary:
            head = binary.read(1024)
    except OSError:
        return False
    return b"\0" in head  # a compiled executable, not a script that Python could run


def same_interpreter(interpreter: str | None) -> bool:
    """Whether `interpreter` is this Python in this environment (a bare `python` is taken to be, as before)."""
    if interpreter is None or os.sep not in interpreter and interpreter in ("python", "python3"):
        return True
    import shutil

    found = shutil.which(interpreter)
    return found is not None and _environment(found) == _environment(sys.executable)


def _environment(executable: str) -> str:
    # A venv's `python` is a link to the base interpreter: the venv is told apart by the pyvenv.cfg above it.
    path = Path(executable).absolute()
    if (path.parent.parent / "pyvenv.cfg").exists():
        return str(path.parent.parent.resolve())
    return os.path.realpath(path)


def run(module: str | None, argv: list[str], output: str, packages: list[str], calls: int = DEFAULT_CALLS) -> int:
    """Run the program with the recorder on, save what it recorded into `output` (merged) and return its exit code."""
    root = Path.cwd() if module is not None else Path(argv[0]).resolve().parent
    recorder = Recorder(packages=packages, roots=[] if packages else [root], calls=calls)
    sys.argv = list(argv)
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
    print(message, file=sys.stderr)
    return status


def main(arguments: list[str] | None = None) -> None:
    """`python -m shapecheck.record.run --output PATH [--packages A,B] [--calls N] -- script.py ARGS`."""
    parser = argparse.ArgumentParser(prog="python -m shapecheck.record.run")
    parser.add_argument("--output", required=True)
    parser.add_argument("--packages", default="")
    parser.add_argument("--calls", type=int, default=DEFAULT_CALLS)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args(arguments)
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    try:
        _, module, argv = split_command(command)
    except UsageError as error:
        parser.error(str(error))
    packages = [name.strip() for name in options.packages.split(",") if name.strip()]
    sys.exit(run(module, argv, os.path.abspath(options.output), packages, options.calls))


if __name__ == "__main__":
    main()
