"""The prefilter: torch training code without `import torch` is linted by the loop rules, look-alikes are not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck.engine.linter import applicable
from shapecheck.engine.registry import resolve
from shapecheck.engine.torch_code import implicit_torch_training
from tests.helpers import codes_of, lint, project_rows, write_project

HELPER_MODULE = """\
def train_epoch(model, optimizer, loader, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()

def validate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
"""

STAR_IMPORT = """\
from utils import *

def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
"""


def test_a_training_helper_module_is_linted_by_the_loop_rules() -> None:
    assert codes_of(lint(HELPER_MODULE)) == ["SC203"]


def test_torch_from_a_star_import_is_torch() -> None:
    # The second loop is under `torch.no_grad()`: the star-imported `torch` is read as torch.
    assert codes_of(lint(STAR_IMPORT)) == ["SC203"]


def test_only_the_loop_rules_run_without_an_import() -> None:
    source = STAR_IMPORT + "losses = torch.cat([a.sum(), b.sum()])\nscale = torch.Tensor(3)\n"
    assert codes_of(lint(source)) == ["SC203"]
    assert {code[:3] for code in codes_of(lint("import torch\n" + source))} >= {"SC1", "SC2", "SC4"}


@pytest.mark.parametrize("header", [
    "import numpy as np", "import jax.numpy as jnp", "import tensorflow as tf", "from tinygrad import Tensor",
    "import mxnet as mx", "import paddle", "from micrograd.engine import Value", "import os, numpy",
])
def test_look_alike_frameworks_stay_unlinted(header: str) -> None:
    source = f"{header}\n{HELPER_MODULE}"
    assert not implicit_torch_training(source)
    assert codes_of(lint(source)) == []


@pytest.mark.parametrize("source", [
    "def f(net, x):\n    net.eval()\n    return net(x)\n",  # no training step, no torch name
    "model.eval()\ny = model(x)\nopt.step()\n",  # a step without backward or zero_grad
    "def f(x):\n    return torch.zeros(3)\n",  # `torch.` without a star import to bring it
])
def test_other_code_without_the_import_is_not_torch_code(source: str) -> None:
    assert not implicit_torch_training(source)
    assert lint(source).findings == []



# Compiles nothing itself: every pattern compiled while shapecheck is imported (with the command's own module) and
# lints a torch file with no `noqa` (a first run pays each at start-up) is printed, one a line.
_PATTERNS_COMPILED = """\
import re._compiler, sys
compiled, compile = [], re._compiler.compile
re._compiler.compile = lambda pattern, flags=0: compiled.append(str(pattern)) or compile(pattern, flags)
import shapecheck.lint_command
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
lint_text("import torch\\n\\nx = torch.zeros(3).view(3, 1)\\n", "model.py", resolve(None))
print("\\n".join(compiled))
"""


def test_a_torch_file_without_noqa_compiles_no_pattern_only_other_files_need() -> None:
    # the `noqa` directives (read only of a text with the word) and the prefilter's patterns for a file that does not
    # import torch (another framework's import, a star import, a `torch.` name) are compiled on first use
    compiled = subprocess.run([sys.executable, "-c", _PATTERNS_COMPILED], capture_output=True, text=True,
                              check=True).stdout
    assert "torch" in compiled  # the prefilter's `import torch`: the script does see what is compiled
    assert "noqa" not in compiled and "tinygrad" not in compiled and r"import[ \t]+\*" not in compiled
    # nor those of a file the running Python refuses (its target version), of a file without the import (a callback
    # stepping what it holds), of `--select` (the rules' codes read from their modules) and of printed output
    assert "py3(" not in compiled and "~=" not in compiled and r"\.step\(\)" not in compiled
    assert "code = " not in compiled and r"\033" not in compiled


# A project whose `main.py` glues the model, the loader and the trainer of its torch modules without importing torch
# itself; `%s` is what the trainer's criterion compares the (batch, 1) predictions with.
GLUED = {
    "pyproject.toml": "",
    "model.py": """
        from torch import nn


        class Regressor(nn.Module):
            def __init__(self, n_features: int = 8, hidden: int = 32):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

            def forward(self, x):
                return self.net(x)
    """,
    "trainer.py": """
        import torch
        from torch import nn


        class Trainer:
            def __init__(self, model, lr: float = 1e-3):
                self.model = model
                self.criterion = nn.MSELoss()
                self.opt = torch.optim.Adam(model.parameters(), lr=lr)

            def epoch(self, loader):
                for x, y in loader:
                    loss = self.criterion(self.model(x), %s)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
    """,
    "data.py": """
        import torch
        from torch.utils.data import DataLoader, TensorDataset


        def make_loader(n: int = 256, batch_size: int = 32):
            x = torch.randn(n, 8)
            return DataLoader(TensorDataset(x, x.sum(dim=1)), batch_size=batch_size, shuffle=True)
    """,
    "main.py": """
        from data import make_loader
        from model import Regressor
        from trainer import Trainer


        def main():
            trainer = Trainer(Regressor())
            loader = make_loader()
            for epoch in range(5):
                trainer.epoch(loader)


        if __name__ == "__main__":
            main()
    """,
}


@pytest.mark.parametrize(("target", "rows"), [("y", [11]), ("y.unsqueeze(-1)", [])])
def test_a_script_running_the_projects_torch_modules_is_torch_code(project: Path, target: str,
                                                                   rows: list[int]) -> None:
    """The (32, 1) predictions against (32,) targets fail in the trainer's epoch, which the script runs: reported
    at its call, as in a script that imports torch."""
    files = {**GLUED, "trainer.py": GLUED["trainer.py"] % target}
    assert project_rows(project, "main.py", files, "SC104") == rows


def test_a_script_importing_only_modules_without_torch_is_not_torch_code(project: Path) -> None:
    files = {"pyproject.toml": "", "report.py": "import numpy as np\n\n\ndef table(rows):\n    return np.array(rows)\n",
             "main.py": "import numpy as np\nfrom report import table\n\nprint(table([[1, 2]]) - np.ones(3))\n"}
    write_project(project, files)
    assert not applicable(resolve(None), (project / "main.py").read_text(), str(project / "main.py"))
