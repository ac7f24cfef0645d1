"""How long `shapecheck lint` takes on a folder of 100 notebooks, and what reading them as notebooks costs over
linting the same code as `.py` files.

Corpus: 100 notebooks written to a temporary folder, each the bundled fixture notebooks' cells (magics, outputs,
markdown) followed by the code of one of torch's own torch/nn/modules files cut into cells at top-level `def` /
`class` lines (about 20 code cells and 850 lines a notebook). Found without importing torch.

    python bench/lint_notebooks.py [--rounds 3]

Rows (medians of interleaved rounds):
- notebooks, 1 core: the engine on each notebook's text in this process (`lint_notebook`, all default rules).
- same code as .py, 1 core: `lint_text` on each notebook's joined code cells: the floor for the row above.
- CLI: `shapecheck lint FOLDER` in a subprocess, one core and all cores (`--jobs`), as users run it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shapecheck.engine.linter import lint_notebook, lint_text
from shapecheck.engine.registry import resolve
from shapecheck.notebook import read_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint_speed import torch_root  # noqa: E402 - the same corpus lookup as the main bench

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NOTEBOOKS = 100


def cells_of(code: str) -> list[str]:
    """`code` cut into cells before each top-level `def` / `class`, as a notebook's author would cut it."""
    cells: list[list[str]] = [[]]
    for line in code.splitlines(keepends=True):
        if line.startswith(("def ", "class ")) and cells[-1]:
            cells.append([])
        cells[-1].append(line)
    return ["".join(cell) for cell in cells if "".join(cell).strip()]


def build(folder: Path) -> list[Path]:
    base = [cell for path in sorted(FIXTURES.rglob("*.ipynb")) for cell in json.loads(path.read_text())["cells"]]
    modules = sorted((torch_root() / "nn" / "modules").glob("*.py"))
    paths = []
    for index in range(NOTEBOOKS):
        code = modules[index % len(modules)].read_text()
        cells = base + [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                         "source": cell.splitlines(keepends=True)} for cell in cells_of(code)]
        document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        path = folder / f"notebook_{index:03d}.ipynb"
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    rules = resolve(None)
    with tempfile.TemporaryDirectory() as folder:
        paths = build(Path(folder))
        texts = [(str(path), path.read_text()) for path in paths]
        sources = [(name, read_notebook(text).source) for name, text in texts]
        lines = sum(source.count("\n") for _, source in sources)
        cells = sum(len(read_notebook(text).cells) for _, text in texts)
        print(f"{len(paths)} notebooks, {cells} code cells, {lines} lines of code")
        command = [sys.executable, "-m", "shapecheck", "lint", "--quiet", "--exit-zero", folder]
        rows = {
            "notebooks, 1 core": lambda: [lint_notebook(text, name, rules) for name, text in texts],
            "same code as .py, 1 core": lambda: [lint_text(source, name, rules) for name, source in sources],
            "CLI, --jobs 1": lambda: subprocess.run([*command, "--jobs", "1"], check=True, capture_output=True),
            f"CLI, --jobs {os.cpu_count()}": lambda: subprocess.run(command, check=True, capture_output=True),
        }
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(options.rounds):
            for name, row in rows.items():
                times[name].append(timed(row))
    floor = statistics.median(times["same code as .py, 1 core"])
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"{name:<28} {median:7.2f} s   {median / floor:5.2f}x")


if __name__ == "__main__":
    main()
