"""The prefilter: torch training code without `import torch` is linted by the loop rules, look-alikes are not."""

from __future__ import annotations

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

