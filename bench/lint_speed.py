"""How fast `shapecheck lint` is, as a ratio to a bare libcst parse of the same files, measured in the same run.

Corpus: torch's own torch/nn, torch/optim and torch/distributions (206 files, 72k lines with torch 2.13), which every
machine with torch has. Found without importing torch.

    python bench/lint_speed.py [--rounds 3] [--torchfix PATH] [--torch-preflight PATH]

Rows:
- bare parse: `libcst.parse_module` on each file's text, nothing else (the floor a libcst linter can reach).
- bare parse in a subprocess: the same in a fresh `python` that imports libcst, finds and reads the files: the
  floor of any libcst linter run as a command, which pays the interpreter's start and libcst's import (0.2 s)
  however little it does. The subprocess rows get a second ratio against it.
- shapecheck, 1 core: the engine over every file in this process, all default rules (cold: shapecheck keeps no cache).
- shapecheck CLI: `shapecheck lint` as users run it, in a subprocess, one core and all cores (`--jobs`), from
  compiled bytecode as an installed package runs (a warm-up run writes it, even where PYTHONDONTWRITEBYTECODE is
  set, as on machines that lint from a source checkout; compiling every module costs 0.2 s a run).
- peers, when installed in their own environments (their executables on PATH or given as options): TorchFix and
  torch-preflight over the same files, in subprocesses.
In-process rows are interleaved round by round and the median is reported, so machine noise hits all rows alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import libcst as cst

from shapecheck.engine.linter import decode, lint_text
from shapecheck.engine.registry import resolve


FOLDERS = ("nn", "optim", "distributions")


def torch_root() -> Path:
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("torch is not installed: `pip install torch==2.13.0` gives the corpus this bench lints")
    return Path(spec.submodule_search_locations[0])


def corpus() -> list[Path]:
    return [path for folder in FOLDERS for path in sorted((torch_root() / folder).rglob("*.py"))]


def bare_parse(texts: list[tuple[str, str]]) -> None:
    for _, text in texts:
        cst.parse_module(text)


def shapecheck_engine(texts: list[tuple[str, str]]) -> int:
    rules = resolve(None)
    return sum(len(lint_text(text, name, rules).findings) for name, text in texts)


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


# Installed packages run from bytecode pip compiled; a source checkout writes it on first import unless told not to.
_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


# What a libcst linter run as a command does at the least: start, import libcst, find, read and parse the files.
_PARSE_FILES = """
import sys
from pathlib import Path
import libcst
for folder in sys.argv[1:]:
    for path in sorted(Path(folder).rglob("*.py")):
        libcst.parse_module(path.read_bytes().decode("utf-8"))
"""


def run_command(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_ENVIRONMENT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--torchfix", default=shutil.which("torchfix"), help="TorchFix executable")
    parser.add_argument("--torch-preflight", default=shutil.which("torch-preflight"),
                        help="torch-preflight executable")
    args = parser.parse_args()

    files = corpus()
    texts = [(str(path), decode(path.read_bytes())) for path in files]
    lines = sum(text.count("\n") for _, text in texts)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"corpus: {len(files)} files, {lines} lines (torch/nn, torch/optim, torch/distributions); {cores} cores")

    # Linters skip anything under site-packages by default (torch-preflight even when named): lint a copy.
    copy = Path(tempfile.mkdtemp(prefix="shapecheck-bench-"))
    for folder in FOLDERS:
        shutil.copytree(torch_root() / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    paths = [str(copy / folder) for folder in FOLDERS]
    shapecheck = [sys.executable, "-m", "shapecheck", "lint", "--exit-zero", "--quiet", "--no-cache"]
    rows: dict[str, list[float]] = {"bare libcst parse": [], "shapecheck engine, 1 core": [],
                                    "bare libcst parse in a subprocess": [], "shapecheck lint --jobs 1": [],
                                    f"shapecheck lint --jobs {cores}": []}
    run_command([*shapecheck, "--jobs", "1", str(copy / FOLDERS[1])])  # writes the bytecode, warms the disk cache
    for _ in range(args.rounds):
        rows["bare libcst parse"].append(timed(bare_parse, texts))
        rows["shapecheck engine, 1 core"].append(timed(shapecheck_engine, texts))
        rows["bare libcst parse in a subprocess"].append(run_command([sys.executable, "-c", _PARSE_FILES, *paths]))
        rows["shapecheck lint --jobs 1"].append(run_command([*shapecheck, "--jobs", "1", *paths]))
        rows[f"shapecheck lint --jobs {cores}"].append(run_command([*shapecheck, "--jobs", str(cores), *paths]))
    if args.torchfix:  # peers are slow (minutes): one run each
        rows[f"TorchFix --jobs {cores} (subprocess)"] = [run_command([args.torchfix, "--jobs", str(cores), *paths])]
    if args.torch_preflight:
        rows["torch-preflight check (subprocess)"] = [run_command([args.torch_preflight, "check", *paths])]
    shutil.rmtree(copy)

    floor = statistics.median(rows["bare libcst parse"])
    command_floor = statistics.median(rows["bare libcst parse in a subprocess"])
    print(f"findings: {shapecheck_engine(texts)}")
    print("\n| run | median s | lines/s | x bare parse | x bare parse in a subprocess |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, times in rows.items():
        median = statistics.median(times)
        second = f"{median / command_floor:.2f}" if name not in ("bare libcst parse", "shapecheck engine, 1 core") \
            else ""
        print(f"| {name} | {median:.2f} | {lines / median:,.0f} | {median / floor:.2f} | {second} |")


if __name__ == "__main__":
    main()
