"""The module methods that return the module they are called on (`objects.modules.RETURNS_SELF`) are one list that
every question reads alike: `Net().to(device).apply(init_weights)` is the `Net()`, wherever it is asked about. A
question that must stop at some of them (a move back to the CPU, a switch to eval, a model frozen) takes those out."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import mode_switch, training_loop
from shapecheck.objects.stored import stored_parameters


def context(source: str) -> Context:
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "train.py")
    traverse(ctx, [training_loop(ctx)])
    return ctx


def findings(code: str, *parts: str) -> list[int]:
    source = "".join(textwrap.dedent(part) for part in parts)
    return [finding.location.row for finding in lint_text(source, "train.py", resolve([code])).findings]


@pytest.mark.parametrize("stored", ["model.bfloat16()", "model.apply(init_weights)", "model.to(device).eval()"])
def test_a_constructor_stores_its_parameter_through_any_of_them(stored: str) -> None:
    ctx = context(f"""
        class Trainer:
            def __init__(self, model, device):
                self.model = {stored}
    """)
    init = next(node for node in walk(ctx.module) if type(node) is cst.FunctionDef)
    assert stored_parameters(ctx, init) == [("self.model", "model")]


@pytest.mark.parametrize("switch", ["model.share_memory().eval()", "model.to_empty(device='cuda').eval()"])
def test_a_switch_to_eval_names_the_module_through_any_of_them(switch: str) -> None:
    ctx = context(f"{switch}\n")
    call = next(node for node in walk(ctx.module) if type(node) is cst.Call)
    assert mode_switch(ctx, call) == ("eval", "model")


INIT = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    def init_weights(m):
        if isinstance(m, nn.Linear):
            nn.init.zeros_(m.bias)
"""


def test_sc211_reads_a_move_before_apply() -> None:
    train = """
        def train(device):
            model = nn.Linear(5, 1).to(device){then}
            loader = DataLoader(TensorDataset(torch.randn(64, 5), torch.randn(64, 1)), batch_size=32)
            for x, y in loader:
                model(x)
    """
    assert findings("SC211", INIT, train.format(then=".apply(init_weights)")) == [13]
    assert findings("SC211", INIT, train.format(then=".cpu()")) == []  # moved back: the batch is where it is


def test_sc207_reads_a_layer_through_apply_but_not_through_a_freeze() -> None:
    run = """
        net = nn.Linear(3, 2).{then}
        print(net(torch.randn(4, 3)).numpy())
    """
    assert findings("SC207", INIT, run.format(then="apply(init_weights)")) == [10]
    assert findings("SC207", INIT, run.format(then="requires_grad_(False)")) == []  # no graph: `.numpy()` runs


def test_sc210_reads_a_model_with_dropout_through_apply() -> None:
    main = """
        def main(train_loader, test_loader):
            model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.5), nn.Linear(16, 2)).apply(init_weights)
            opt = torch.optim.Adam(model.parameters())
            for x, y in train_loader:
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            correct = 0
            {switch}
            with torch.no_grad():
                for x, y in test_loader:
                    correct += (model(x).argmax(1) == y).sum().item()
            return correct
    """
    assert findings("SC210", INIT, main.format(switch="pass")) == [21]
    assert findings("SC210", INIT, main.format(switch="model.apply(init_weights).eval()")) == []
