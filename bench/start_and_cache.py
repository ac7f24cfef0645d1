"""How fast `shapecheck lint` starts, and what the result cache saves: the three ratios issue 17 asks for.

    python bench/start_and_cache.py [--rounds 11] [--tree-rounds 3] [--files 1000] [--callgrind] [--python PATH]

1. One file, as pre-commit and an editor's save lint it after an edit: the CPU time of `shapecheck lint FILE` (an
   empty cache, so the file is linted and its entry written) against `python -c "import libcst;
   libcst.parse_module(open(FILE).read())"` on the same file. Goal: at most 1.3x. Files: two of torch's own
   (nn/modules/linear.py, optim/sgd.py, present wherever torch is installed), a clean fixture and a fixture with
   seven findings (their positions and fixes cost more).
2. The same file again, unchanged: a cache hit, against `python -c pass`. Goal: at most 3x. `python -c "import
   click"` is printed beside it: the floor of any click command, which no cache lowers.
3. A tree of 1,000 files (torch's own, the first 1,000 in sorted order): the first run, with an empty cache,
   against a second over the unchanged tree. Goal: at least 20x faster, by the clock and in CPU time. A run with
   `--no-cache` shows what keeping the cache costs a first run.

CPU time is user plus system time of the command and the processes it waited for (its workers). Each file is in a
project of its own with a `pyproject.toml`, as files are in real projects. Commands run from compiled bytecode, as
an installed package does (a warm-up run writes it even where PYTHONDONTWRITEBYTECODE is set). Runs are
interleaved round by round and the medians are reported, so a busy machine's noise hits every row alike; with
`--callgrind` the first two ratios are also counted in instructions (valgrind's callgrind, the command and its
children), which noise does not change. `--python` runs every command with another environment's interpreter and
its `shapecheck` (a wheel installed without `-e`, say: an editable install's finder makes every `python` start dearer,
`python -c pass` included).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lint_speed import torch_root

REPOSITORY = Path(__file__).resolve().parent.parent
ONE_FILE = {
    "torch nn/modules/linear.py": lambda: torch_root() / "nn" / "modules" / "linear.py",
    "torch optim/sgd.py": lambda: torch_root() / "optim" / "sgd.py",
    "fixture clean/shape_mismatch.py": lambda: REPOSITORY / "fixtures" / "clean" / "shape_mismatch.py",
    "fixture buggy/view_after_transpose.py (7 findings)":
        lambda: REPOSITORY / "fixtures" / "buggy" / "view_after_transpose.py",
}
PARSE = "import libcst, sys; libcst.parse_module(open(sys.argv[1], encoding='utf-8').read())"

# Installed packages run from bytecode pip compiled; a source checkout writes it on first import unless told not to.
ENVIRONMENT = {name: value for name, value in os.environ.items()
               if name not in ("PYTHONDONTWRITEBYTECODE", "SHAPECHECK_NO_CACHE", "SHAPECHECK_CACHE_DIR")}


PYTHON = sys.executable  # --python


def shapecheck() -> list[str]:
    """The `shapecheck` script users run, beside the Python measured; `python -m shapecheck` where there is none."""
    script = Path(PYTHON).with_name("shapecheck")
    return [str(script)] if script.exists() else [PYTHON, "-m", "shapecheck"]


def measured(command: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds of the command and its waited-for children, seconds by the clock)."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, cwd=cwd, env=ENVIRONMENT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def instructions(command: list[str], cwd: Path) -> int:
    """Instructions the command and its children execute, by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        f"--callgrind-out-file={folder}/out.%p", *command], cwd=cwd, env=ENVIRONMENT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        total = 0
        for out in Path(folder).glob("out.*"):
            for line in out.read_text(errors="replace").splitlines():
                if line.startswith(("summary:", "totals:")):
                    total += int(line.split()[1])
                    break
        return total


def project_with(files: dict[str, Path], root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "bench"\n\n[tool.shapecheck]\n')
    for name, source in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, root / name)
    return root


def clear_cache(root: Path) -> None:
    shutil.rmtree(root / ".shapecheck_cache", ignore_errors=True)


def median(values: list[float]) -> float:
    return statistics.median(values)


def one_file(work: Path, rounds: int, callgrind: bool) -> None:
    lint = [*shapecheck(), "lint", "--exit-zero", "--quiet", "file.py"]
    print("\n1 and 2. One file: CPU ms, medians of", rounds, "interleaved rounds")
    print("\n| file | lines | parse (import libcst + parse) | lint, first run | x parse (goal <= 1.3) | "
          "`python -c pass` | `import click` | lint again (cache hit) | x pass (goal <= 3) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    counted = []
    for number, (name, where) in enumerate(ONE_FILE.items()):
        root = project_with({"file.py": where()}, work / f"one{number}")
        measured(lint, root)  # bytecode, disk cache
        times: dict[str, list[float]] = {"parse": [], "first": [], "pass": [], "click": [], "hit": []}
        for _ in range(rounds):
            times["parse"].append(measured([PYTHON, "-c", PARSE, "file.py"], root)[0])
            clear_cache(root)
            times["first"].append(measured(lint, root)[0])
            times["pass"].append(measured([PYTHON, "-c", "pass"], root)[0])
            times["click"].append(measured([PYTHON, "-c", "import click"], root)[0])
            times["hit"].append(measured(lint, root)[0])
        m = {key: median(values) * 1000 for key, values in times.items()}
        lines = (root / "file.py").read_text(encoding="utf-8").count("\n")
        print(f"| {name} | {lines} | {m['parse']:.0f} | {m['first']:.0f} | {m['first'] / m['parse']:.2f} | "
              f"{m['pass']:.0f} | {m['click']:.0f} | {m['hit']:.0f} | {m['hit'] / m['pass']:.2f} |")
        if callgrind:
            parse = instructions([PYTHON, "-c", PARSE, "file.py"], root)
            clear_cache(root)
            first = instructions(lint, root)
            bare = instructions([PYTHON, "-c", "pass"], root)
            hit = instructions(lint, root)
            counted.append((name, parse, first, bare, hit))
    if counted:
        print("\nIn instructions (callgrind, millions):\n")
        print("| file | parse | lint, first run | x parse | `python -c pass` | cache hit | x pass |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, parse, first, bare, hit in counted:
            print(f"| {name} | {parse / 1e6:.0f} | {first / 1e6:.0f} | {first / parse:.2f} | {bare / 1e6:.0f} | "
                  f"{hit / 1e6:.0f} | {hit / bare:.2f} |")


def tree(work: Path, count: int, rounds: int) -> None:
    sources = sorted(torch_root().rglob("*.py"))[:count]
    root = project_with({str(path.relative_to(torch_root())): path for path in sources}, work / "tree")
    lines = sum(path.read_bytes().count(b"\n") for path in sources)
    lint = [*shapecheck(), "lint", "--exit-zero", "--quiet", "."]
    measured(lint, root)  # bytecode, disk cache
    runs: dict[str, list[tuple[float, float]]] = {"no cache (--no-cache)": [], "first run (empty cache)": [],
                                                  "again, nothing changed": []}
    for _ in range(rounds):
        runs["no cache (--no-cache)"].append(measured([*lint, "--no-cache"], root))
        clear_cache(root)
        runs["first run (empty cache)"].append(measured(lint, root))
        runs["again, nothing changed"].append(measured(lint, root))
    m = {name: (median([t[0] for t in values]), median([t[1] for t in values])) for name, values in runs.items()}
    print(f"\n3. {len(sources):,} files ({lines:,} lines of torch's own), medians of {rounds} interleaved rounds\n")
    print("| run | wall s | CPU s |")
    print("| --- | ---: | ---: |")
    for name, (cpu, wall) in m.items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} |")
    (cpu_first, wall_first), (cpu_again, wall_again) = m["first run (empty cache)"], m["again, nothing changed"]
    print(f"| first run / again (goal >= 20) | {wall_first / wall_again:.1f}x | {cpu_first / cpu_again:.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=11, help="rounds of the one-file runs")
    parser.add_argument("--tree-rounds", type=int, default=3, help="rounds of the 1,000-file runs")
    parser.add_argument("--files", type=int, default=1000, help="files in the tree")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (slow)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (and its shapecheck) to measure")
    args = parser.parse_args()
    global PYTHON
    PYTHON = args.python
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    version = subprocess.run([PYTHON, "--version"], capture_output=True, text=True).stdout.split()[-1]
    print(f"{PYTHON} (Python {version}), {cores} cores, load average {load:.1f} at the start")
    editable = subprocess.run([PYTHON, "-c", "import sys; print(any('__editable__' in name for name in "
                               "sys.modules))"], capture_output=True, text=True, env=ENVIRONMENT).stdout.strip()
    if editable == "True":
        print("shapecheck is installed in editable mode: every `python` start here also loads the editable finder "
              "(pathlib and more), `python -c pass` included")
    with tempfile.TemporaryDirectory(prefix="shapecheck-bench-") as folder:
        one_file(Path(folder), args.rounds, args.callgrind)
        tree(Path(folder), args.files, args.tree_rounds)


if __name__ == "__main__":
    main()
