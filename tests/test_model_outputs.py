"""The engine's record of what `forward` returns, read later where the method's names still resolve."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.bindings import traverse
from shapecheck.objects.model_outputs import forward_returns
from tests.helpers import codes_of, lint

SOURCE = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def forward(self, x):
        def helper(y):
            return y * 2
        probs = F.softmax(self.fc(helper(x)), dim=1)
        if x.dim() > 2:
            return probs.view(-1, 10)
        return probs

probs = torch.randn(4, 10)  # a module-level name of the same spelling: not what forward returns
model = Net().to(device)
output = model(batch)
output = output.to(device)
loss = F.cross_entropy(output, target)
"""


def test_forward_returns_are_recorded_per_class() -> None:
    module = cst.parse_module(SOURCE)
    ctx = Context(module, "net.py")
    traverse(ctx, [forward_returns(ctx)])
    class_def = next(n for n in module.body if type(n) is cst.ClassDef)
    returns = forward_returns(ctx).of(class_def)
    assert [module.code_for_node(r.value) for r in returns] == ["probs.view(-1, 10)", "probs"]  # not helper's
    with ctx.at(returns[1].point):
        binding = ctx.binding("probs")
        assert binding is not None and "softmax" in module.code_for_node(binding.value)
    assert ctx.binding("probs") is None or "randn" in module.code_for_node(ctx.binding("probs").value)


def test_a_loss_reads_the_model_output_through_the_engine() -> None:
    assert codes_of(lint(SOURCE, "SC303")) == ["SC303"]
    assert codes_of(lint(SOURCE.replace("F.softmax(", "F.log_softmax("), "SC303")) == []


BRANCHED = """\
import torch.nn as nn
import torch.nn.functional as F

class Tagger(nn.Module):
    def forward(self, x, probabilities=False):
        out = self.fc(x)
        if probabilities:
            out = F.softmax(out, dim=-1)
        return out

model = Tagger()
loss = F.cross_entropy(model(x), y)
"""


def test_a_return_of_a_name_a_branch_binds_again_is_not_settled() -> None:
    module = cst.parse_module(BRANCHED)
    ctx = Context(module, "tagger.py")
    traverse(ctx, [forward_returns(ctx)])
    class_def = next(n for n in module.body if type(n) is cst.ClassDef)
    assert [r.settled for r in forward_returns(ctx).of(class_def)] == [False]
    assert codes_of(lint(BRANCHED, "SC303")) == []
    # bound once on every path (the SOURCE above: `probs = ...` then two returns of it): settled, and read
    module = cst.parse_module(SOURCE)
    ctx = Context(module, "net.py")
    traverse(ctx, [forward_returns(ctx)])
    class_def = next(n for n in module.body if type(n) is cst.ClassDef)
    assert [r.settled for r in forward_returns(ctx).of(class_def)] == [True, True]
    unconditional = BRANCHED.replace("        if probabilities:\n            out = F.softmax", "        out = F.softmax")
    assert codes_of(lint(unconditional, "SC303")) == ["SC303"]


def test_only_a_returned_name_is_read_twice_for_settled(monkeypatch) -> None:
    # `value_of` follows names alone: a returned call is itself wherever it is read, so it is settled without
    # asking the bindings (here and at the point), the cost of every `return self.fc(x)` a lint meets
    module = cst.parse_module(SOURCE)
    ctx = Context(module, "net.py")
    asked: list[str] = []
    value_of = Context.value_of

    def recorded(self, expr, before=None):
        asked.append(module.code_for_node(expr))
        return value_of(self, expr, before)

    monkeypatch.setattr(Context, "value_of", recorded)
    traverse(ctx, [forward_returns(ctx)])
    class_def = next(n for n in module.body if type(n) is cst.ClassDef)
    assert [r.settled for r in forward_returns(ctx).of(class_def)] == [True, True]
    assert "probs.view(-1, 10)" not in asked and asked.count("probs") == 2
