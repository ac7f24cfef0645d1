"""The prefilter: torch training code without `import torch` is linted by the loop rules, look-alikes are not."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shapecheck.engine.torch_code import implicit_torch_training
from tests.helpers import codes_of, lint

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
