"""How fast `shapecheck lint` starts, and what the result cache saves: the three ratios issue 17 asks for, and
what a first-party import costs (issue 15).

    python bench/start_and_cache.py [--rounds 11] [--tree-rounds 3] [--files 1000] [--callgrind] [--python PATH]
                                    [--only one-file,tree,first-party,in-place]

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
4. First-party imports (issue 15): a training script in a generated project of 200 modules (100 models, each built
   from one of 100 blocks) imports one model, which imports its block. With the project's cache warm (every file
   linted once), the script is edited and linted again, against the same script edited and linted in a project of
   its own, where its import finds nothing. Goal: at most 1.2x.
5. A file in a large project: torch's `optim/sgd.py` with its folder in a project that also holds the rest of
   torch's tree (2,000+ files, none importing it), against its folder in a project of its own: the first run (an
   empty cache), a cache hit, and the file edited and linted again (as pre-commit and an editor's save lint it).
   What the large project adds is the search for the file's importers and the cache's check of it.

CPU time is user plus system time of the command and the processes it waited for (its workers). Each file is in a
project of its own with a `pyproject.toml`, as files are in real projects. Commands run from compiled bytecode, as an
installed package does (a warm-up run writes it even where PYTHONDONTWRITEBYTECODE is set). Runs are interleaved round
by round and the medians are reported, so a busy machine's noise hits every row alike; with `--callgrind` the first
two ratios are also counted in instructions (valgrind's callgrind, the command and its children, run without the
per-file time budget, whose watchdog polls by the clock), which noise does not change. `--python` runs every command
with another environment's interpreter and its `shapecheck` (a wheel installed without `-e`, say: an editable
install's finder makes every `python` start dearer, `python -c pass` included).
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
    # dated an hour back: a file written within the cache's racy window (2 s) keeps a first run from storing its
    # result, and the "hit" measured after it would be a lint (the first round of a fast run)
    hour_ago = time.time() - 3600
    for path in root.rglob("*"):
        os.utime(path, (hour_ago, hour_ago))
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
            # Without the time budget: under callgrind a lint runs some fifty times slower, so its watchdog's polls
            # (ten a second) add instructions a real run does not spend, more the busier the machine, and a first run
            # of sgd.py can overrun the 60 s and be stopped half-linted (and its entry never written, so the "hit"
            # below lints it again).
            unbudgeted = [*lint, "--file-time-limit", "0"]
            parse = instructions([PYTHON, "-c", PARSE, "file.py"], root)
            clear_cache(root)
            first = instructions(unbudgeted, root)
            bare = instructions([PYTHON, "-c", "pass"], root)
            hit = instructions(unbudgeted, root)
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


BLOCK = """import torch
from torch import nn


class Block{n}(nn.Module):
    \"\"\"A residual block of the generated project.\"\"\"

    def __init__(self, width: int = {width}, dropout: float = 0.1) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.up(self.norm(x))
        return x + self.drop(self.down(torch.relu(h)))


def init_weights{n}(module: nn.Module) -> None:
    for layer in module.modules():
        if isinstance(layer, nn.Linear):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
"""

MODEL = """import torch
from torch import nn

from proj.blocks.block_{n:03d} import Block{n}, init_weights{n}

HIDDEN = {width}


class Encoder{n}(nn.Module):
    def __init__(self, in_channels: int = 3, width: int = HIDDEN) -> None:
        super().__init__()
        self.conv = nn.Conv2d(in_channels, width, kernel_size=3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        features = self.pool(torch.relu(self.conv(images)))
        return features.flatten(1)


class Net{n}(nn.Module):
    def __init__(self, n_classes: int = 10, depth: int = 4) -> None:
        super().__init__()
        self.encoder = Encoder{n}()
        self.blocks = nn.Sequential(*[Block{n}(HIDDEN) for _ in range(depth)])
        self.head = nn.Linear(HIDDEN, n_classes)
        init_weights{n}(self)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(self.encoder(images)))


class Unrelated{n}(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.table = nn.Embedding(1000, HIDDEN)
        self.rnn = nn.GRU(HIDDEN, HIDDEN, batch_first=True)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(self.table(tokens))
        return out[:, -1]


def build{n}(n_classes: int) -> Net{n}:
    return Net{n}(n_classes)
"""

SCRIPT = """import torch
from torch import nn

from proj.models.model_{n:03d} import Net{n}


def train(loader, epochs: int = 10) -> nn.Module:
    model = Net{n}(n_classes=10)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(epochs):
        model.train()
        for images, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
    return model


def smoke_test() -> None:
    model = Net{n}()
    logits = model(torch.randn(8, 3, 32, 32))
    print(logits.softmax(dim=-1).argmax(dim=-1))
"""


def generated_project(root: Path, modules: int) -> Path:
    """`modules` files: half blocks, half models built from them, and the script (which imports the middle model)."""
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n\n[tool.shapecheck]\n')
    for folder in ("proj", "proj/blocks", "proj/models"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").write_text("")
    for n in range(modules // 2):
        (root / "proj" / "blocks" / f"block_{n:03d}.py").write_text(BLOCK.format(n=n, width=64 + n))
        (root / "proj" / "models" / f"model_{n:03d}.py").write_text(MODEL.format(n=n, width=64 + n))
    (root / "train.py").write_text(SCRIPT.format(n=modules // 4))
    return root / "train.py"


def first_party(work: Path, rounds: int, modules: int) -> None:
    script = generated_project(work / "project", modules)
    alone = project_with({"train.py": script}, work / "alone") / "train.py"
    lint = [*shapecheck(), "lint", "--exit-zero", "--quiet", "train.py"]
    measured([*shapecheck(), "lint", "--exit-zero", "--quiet", "."], script.parent)  # bytecode, the project's cache
    measured(lint, alone.parent)
    original = script.read_text()
    times: dict[str, list[float]] = {"alone": [], "project": []}
    for number in range(rounds):
        # An edit each round, so the script itself is always linted again: only the project's other files are cached.
        for name, path in (("alone", alone), ("project", script)):
            path.write_text(f"{original}# edit {number}\n")
            times[name].append(measured(lint, path.parent)[0])
    m = {key: median(values) * 1000 for key, values in times.items()}
    print(f"\n4. First-party imports: CPU ms, medians of {rounds} interleaved rounds, the script edited each round\n")
    print("| the script linted | CPU ms | x alone (goal <= 1.2) |")
    print("| --- | ---: | ---: |")
    print(f"| alone (its import finds nothing) | {m['alone']:.0f} | 1.00 |")
    print(f"| in a {modules}-module project, its cache warm | {m['project']:.0f} | {m['project'] / m['alone']:.2f} |")


def in_place(work: Path, rounds: int) -> None:
    """A file linted where it lives in a large project: torch's `optim/` (`sgd.py` linted) in a project that also
    holds a copy of the rest of torch's tree under `lib/` (none of it imports `optim/`, nor `optim/` it), against
    `optim/` in a project of its own. The analysis reads the same modules either way; what the large project adds is
    the search for the file's importers and the result cache's check of the folders that search looked in."""
    optim = {f"optim/{path.name}": path for path in (torch_root() / "optim").glob("*.py")}
    rest = {f"lib/{path.relative_to(torch_root())}": path for path in torch_root().rglob("*.py")
            if path.parent != torch_root() / "optim"}
    places = {"in a large project": project_with({**optim, **rest}, work / "large"),
              "alone": project_with(optim, work / "alone")}
    lint = [*shapecheck(), "lint", "--exit-zero", "--quiet", "optim/sgd.py"]
    for root in places.values():
        measured(lint, root)  # bytecode
    runs = ("first run", "hit", "edited, its cache warm")
    times: dict[str, list[float]] = {f"{where}, {run}": [] for where in places for run in runs}
    original = (places["alone"] / "optim" / "sgd.py").read_text(encoding="utf-8")
    for number in range(rounds):
        for where, root in places.items():
            clear_cache(root)
            times[f"{where}, first run"].append(measured(lint, root)[0])
            times[f"{where}, hit"].append(measured(lint, root)[0])
            edited = root / "optim" / "sgd.py"
            edited.write_text(f"{original}# edit {number}\n", encoding="utf-8")
            # dated an hour back: a file changed within the cache's racy window keeps the next round's first run
            # from storing its result, and that round's hit would be a lint
            os.utime(edited, (time.time() - 3600, time.time() - 3600))
            times[f"{where}, edited, its cache warm"].append(measured(lint, root)[0])
    m = {key: median(values) * 1000 for key, values in times.items()}
    print(f"\n5. torch's optim/sgd.py in a project of {len(optim) + len(rest):,} files and in one of its folder's "
          f"{len(optim)}: CPU ms, medians of {rounds} interleaved rounds\n")
    print("| run | alone | in a large project | x alone |")
    print("| --- | ---: | ---: | ---: |")
    for run in runs:
        alone, inside = m[f"alone, {run}"], m[f"in a large project, {run}"]
        print(f"| {run} | {alone:.0f} | {inside:.0f} | {inside / alone:.2f} |")


PARTS = ("one-file", "tree", "first-party", "in-place")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=11, help="rounds of the one-file runs")
    parser.add_argument("--tree-rounds", type=int, default=3, help="rounds of the 1,000-file runs")
    parser.add_argument("--files", type=int, default=1000, help="files in the tree")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (slow)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (and its shapecheck) to measure")
    parser.add_argument("--modules", type=int, default=200, help="modules of the first-party project")
    parser.add_argument("--only", default=",".join(PARTS), help=f"which parts to run, of {', '.join(PARTS)}")
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
        parts = set(args.only.split(","))
        if "one-file" in parts:
            one_file(Path(folder), args.rounds, args.callgrind)
        if "tree" in parts:
            tree(Path(folder), args.files, args.tree_rounds)
        if "first-party" in parts:
            first_party(Path(folder), args.rounds, args.modules)
        if "in-place" in parts:
            in_place(Path(folder), args.rounds)


if __name__ == "__main__":
    main()
