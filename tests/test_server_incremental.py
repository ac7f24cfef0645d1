"""The editor server's incremental analysis (`shapecheck.server.incremental`) gives exactly the findings of
`shapecheck lint` on the same text, while keeping the findings of the statements an edit did not reach.

Three kinds of evidence: deterministic edits whose effect crosses statements (a constant a class reads, a container
mutated elsewhere, an unpacking that names dims, the imports a fix is spelled with); for every top-level statement
of real files, deleting it changes the findings only of statements that recorded reading it; and random edits of
real files, compared with `shapecheck lint` after each one. The contract of `Rule.scope = "statement"` is checked
on every such rule.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import random
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context
from shapecheck.engine.linter import applicable
from shapecheck.engine.registry import all_rules, resolve
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import split_lines
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import TrainingLoop
from shapecheck.objects.model_outputs import ForwardReturns
from shapecheck.runner import lint_decoded
from shapecheck.server.incremental import _FACT, _FUNCTIONS, Incremental, _Kept, _same, _Traversal
from tests.helpers import as_data

ROOT = Path(__file__).resolve().parents[1]
CORPUS = sorted((ROOT / "tests" / "data" / "incremental").glob("*.py"))
FIXTURES = sorted((ROOT / "fixtures" / "buggy").glob("*.py")) + sorted((ROOT / "fixtures" / "clean").glob("*.py"))
RULES = resolve(None)
# The findings a statement's own analysis makes: a rule that gathers for its `finish` also reports there, from the
# whole file, which deleting a statement may change anywhere (the random edits check those against lint).
STATEMENT_SCOPE = {rule.code for rule in all_rules() if rule.scope == "statement" and not rule.gathered}
# Minutes, not seconds: run with SHAPECHECK_SOAK=1 (with the server's soak test).
LONG = pytest.mark.skipif(not os.environ.get("SHAPECHECK_SOAK"), reason="long: set SHAPECHECK_SOAK=1")


def lint(text: str, analysis: Incremental | None = None) -> tuple:
    result = lint_decoded(text, "model.py", RULES, None, *([analysis] if analysis is not None else []))
    return result.error, result.warning, [as_data(finding) for finding in result.findings]


def typed(analysis: Incremental, texts: list[str]) -> list[int]:
    """Lint the versions one after the other as the server does, checking each against a whole-file lint; the
    number of statements whose findings each lint kept."""
    reused = []
    for text in texts:
        assert lint(text, analysis) == lint(text), text
        reused.append(analysis.reused)
    return reused


MODELS = (ROOT / "tests" / "data" / "incremental" / "models.py").read_text()
SCRIPT = (ROOT / "tests" / "data" / "incremental" / "script.py").read_text()


@pytest.mark.parametrize("before, after", [
    ("D = 16", "D = 32"),  # a constant the class's layers are built with: the calls of the model change
    ("layers.append(nn.Linear(16, 4))\n", ""),  # the Sequential is no longer changed after it is built
    ("import torch.nn.functional as F\n", "import torch.nn.functional as G\nF = G\n"),  # the fix's spelling
    ("x = torch.randn(8, 32)", "x = torch.randn(32, 8)"),  # a module-level tensor functions and statements read
    ("B, T = x.shape", "T, B = x.shape"),  # the names an unpacking gives the dims
])
def test_an_edit_reaches_the_statements_that_read_what_it_changed(before: str, after: str) -> None:
    assert before in MODELS
    edited = MODELS.replace(before, after, 1)
    assert lint(edited) != lint(MODELS)  # the edit matters somewhere
    analysis = Incremental()
    reused = typed(analysis, [MODELS, edited, MODELS, edited])
    assert reused[0] == 0 and all(count > 0 for count in reused[1:]), reused


LIBRARY = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        return F.softmax(self.proj(x), dim=-1).log()


def embed(tokens):
    table = torch.randn(100, 32)
    return table[tokens]


def mix(a, b):
    return a @ b.transpose(0, 1).view(-1)


def pool(h):
    scores = embed(h).mean(dim=1)
    return scores.view(4, 8).transpose(0, 1).view(-1)


def head(h):
    return torch.log(torch.softmax(h, dim=-1))
"""



def test_a_model_imported_from_another_file_is_read_again_when_that_file_changes(tmp_path: Path) -> None:
    """What `train.py` finds depends on `model.py` on disk: a change there reaches the kept statements, and the
    kept statements still name `model.py` among the files the lint read."""
    model = tmp_path / "model.py"
    model.write_text("import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
                     "        super().__init__()\n        self.fc = nn.Linear(8, 4)\n\n"
                     "    def forward(self, x):\n        return self.fc(x)\n")
    train = str(tmp_path / "train.py")
    text = "import torch\nfrom model import Net\n\nnet = Net()\nout = net(torch.randn(2, 8))\nother = 1\n"
    analysis = Incremental()

    def codes(source: str) -> tuple[list[str], list[str]]:
        result = lint_decoded(source, train, RULES, None, analysis)
        return [finding.code for finding in result.findings], result.dependencies

    found, read = codes(text)
    assert found == [] and str(model) in read
    edited = text.replace("other = 1", "other = 2")
    found, read = codes(edited)
    assert found == [] and str(model) in read and analysis.reused > 0  # kept, and still known to read model.py
    model.write_text(model.read_text().replace("Linear(8, 4)", "Linear(6, 4)"))
    os.utime(model, ns=(1, 1))  # a different stamp even on a coarse clock
    assert codes(edited)[0] == ["SC105"]
    assert codes(text)[0] == ["SC105"]

def test_an_edit_inside_a_function_keeps_the_other_statements_findings() -> None:
    in_pool = LIBRARY.replace("scores.view(4, 8)", "scores.view(8, 4)")
    in_embed = LIBRARY.replace("table = torch.randn(100, 32)", "table = torch.randn(100, 16)")
    assert lint(in_pool) != lint(LIBRARY)  # the finding in `pool` says other sizes
    analysis = Incremental()
    reused = typed(analysis, [LIBRARY, in_pool, LIBRARY, in_embed])
    statements = len(cst.parse_module(LIBRARY).body)
    # `pool` is parsed again and analysed alone; `embed` too, and `pool`, which reads it
    assert reused == [0, statements - 1, statements - 1, statements - 2]


HANDED = """import torch
import torch.nn as nn


def run_epoch(model, loader, criterion):
    for features, targets in loader:
        loss = criterion(model(features), targets)
        logits = net.forward(features)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(20, 5), nn.Softmax(dim=1))

    def forward(self, x):
        return self.layers(x)


net = nn.Linear(20, 5)
criterion = nn.CrossEntropyLoss()
run_epoch(MLP(), [], nn.CrossEntropyLoss())
"""


@pytest.mark.parametrize("before, after", [
    ("[], nn.CrossEntropyLoss()", "[], nn.MSELoss()"),  # the criterion `run_epoch` is handed (SC303)
    ("nn.Softmax(dim=1)", "nn.Softmax(dim=1), nn.Linear(5, 5)"),  # what the model it is handed ends with
    ("net = nn.Linear(20, 5)", "net = object()"),  # the global bound further down (SC205)
])
def test_what_a_kept_statement_gathered_for_finish_is_decided_again_with_the_whole_file(before: str,
                                                                                      after: str) -> None:
    """`run_epoch`'s findings are decided by statements after it: an edit there keeps `run_epoch` (its visits are
    not run again), and its rules' `finish` decides again from what its visits gathered. Each edit leaves every
    rule's triggers in the text, so the same rules apply and statements are kept."""
    edited = HANDED.replace(before, after)
    codes = [finding["code"] for finding in lint(HANDED)[2]]
    assert "SC303" in codes and "SC205" in codes and lint(edited) != lint(HANDED)
    analysis = Incremental()
    typed(analysis, [HANDED])
    run_epoch = analysis._source.module.body[2]  # type: ignore[union-attr]
    kept = analysis._kept[id(run_epoch)]
    for text in [edited, HANDED, edited]:
        typed(analysis, [text])
        assert analysis._kept[id(run_epoch)] is kept


ALLOCATED = """import torch


def make(n):
    return torch.Tensor(n)


buffer = make(3)
scratch = torch.FloatTensor(10, 3)
total = buffer.sum()
rows = scratch.size(0)
rows += 1
"""


MASKED = """import torch
import torch.nn as nn


def masked_bce(logits, targets, valid):
    probs = torch.sigmoid(logits)
    probs.masked_fill_(~valid, 0.5)
    return -(targets * torch.log(probs) + (1 - targets) * torch.log(1 - probs)).mean()


model = nn.Linear(20, 5)
valid = torch.rand(8, 5) > 0.1
loss = masked_bce(model(torch.randn(8, 20)), torch.rand(8, 5), valid)
loss.backward()
"""


EVALUATED = """import torch
import torch.nn as nn


def evaluate(model, loader):
    with torch.no_grad():
        for x in loader:
            preds = model(x)


net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
evaluate(net, [torch.randn(2, 4)])
"""


ACCUMULATED = """import torch
import torch.nn as nn


def train(model, optimizer, loader):
    losses = []
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        losses.append(loss)
    return losses


model = nn.Linear(4, 1)
history = train(model, torch.optim.SGD(model.parameters(), lr=0.1), [torch.randn(2, 4)])
"""


SCALED = """import torch
from torch.cuda import amp


def make_scaler():
    return amp.GradScaler()


scaler = make_scaler()
"""


VALIDATED = """import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def validate(model, loader):
    for x, y in loader:
        model(x)


net = nn.Linear(8, 1)
net.to("cuda")
loader = DataLoader(TensorDataset(torch.randn(4, 8), torch.randn(4, 1)))
validate(net, loader)
"""


@pytest.mark.parametrize("text, before, after", [
    # SC401: the allocation `make` returns is filled where it is called, or `n` may be data rather than a size
    (ALLOCATED, "total = buffer.sum()", "total = buffer.sum()\nbuffer.uniform_()"),
    (ALLOCATED, "make(3)", "make(3.5)"),
    (ALLOCATED, "rows = scratch.size(0)", "rows = scratch + 1"),  # a module-level allocation read for its values
    (MASKED, "loss.backward()", "print(loss)  # no loss.backward()"),  # SC216: the spoiled save is never needed
    (EVALUATED, "nn.Dropout(0.5)", "nn.ReLU()"),  # SC210: the model `evaluate` is handed has no dropout
    # SC402: a use of `amp` that `torch.amp` cannot spell leaves the deprecated import without a fix
    (SCALED, "scaler = make_scaler()", "scaler = make_scaler()\nmode = amp.common"),
    (VALIDATED, 'net.to("cuda")', "net.to(torch.float64)"),  # SC211: the model `validate` is handed stays put
    # SC208: a backward pass through what was accumulated means the graphs were kept on purpose
    (ACCUMULATED, "lr=0.1), [torch.randn(2, 4)])\n", "lr=0.1), [torch.randn(2, 4)])\nlosses = history[-1]\n"
                                                    "losses.backward()\n"),
])
def test_what_a_kept_function_gathered_for_finish_is_decided_again_with_the_whole_file(text: str, before: str,
                                                                                       after: str) -> None:
    """SC401 gathers the allocations, aliases, writes and reads each statement's visits see, SC216 the bodies with
    an in-place op, SC210 the calls of models under `no_grad`, SC208 the accumulations in loops, SC402 the
    torch.cuda.amp imports and uses, SC211 the moves and the calls of models on batches: an edit to what happens
    later keeps the function, and `finish` decides again. Each edit leaves every rule's triggers in the text."""
    edited = text.replace(before, after)
    assert lint(edited) != lint(text)
    analysis = Incremental()
    typed(analysis, [text])
    function = next(statement for statement in analysis._source.module.body  # type: ignore[union-attr]
                    if type(statement) is cst.FunctionDef)
    kept = analysis._kept[id(function)]
    for version in [edited, text, edited]:
        typed(analysis, [version])
        assert analysis._kept[id(function)] is kept


SCRIPTED = """import torch
import torch.nn as nn


def build(d):
    return nn.Sequential(nn.Linear(d, d), nn.Tanh())


def masked_bce(logits, targets, valid):
    probs = torch.sigmoid(logits)
    probs.masked_fill_(~valid, 0.5)
    return -(targets * torch.log(probs) + (1 - targets) * torch.log(1 - probs)).mean()


def double(x):
    return x * 2


net = build(8)
h = net(torch.randn(2, 8))
h.mul_(2.0)
h.sum().backward()
model = nn.Linear(20, 5)
valid = torch.rand(8, 5) > 0.1
loss = masked_bce(model(torch.randn(8, 20)), torch.rand(8, 5), valid)
loss.backward()
"""


@pytest.mark.parametrize("before, after, changes", [
    ("return x * 2", "return x * 3", False),  # nothing the module-level code reads: its flow is kept
    ("nn.Tanh()", "nn.Linear(d, d)", True),  # the factory's network no longer saves its output
    # a second `build`, further down, is the one the module-level code calls: read through the name
    ("def double(x):", "def build(d):\n    return nn.Linear(d, d)\n\n\ndef double(x):", True),
    ("    probs.masked_fill_(~valid, 0.5)\n", "", True),  # the helper no longer returns a spoiled graph
    ("h.mul_(2.0)", "h = h * 2.0", True),  # the module-level code itself
])
def test_the_flow_of_the_module_level_code_is_kept_only_while_what_it_reads_is_the_same(
        before: str, after: str, changes: bool) -> None:
    """SC216's flow of the module-level code is a part of its `finish` the server keeps (`Context.finish_part`):
    kept across an edit of what it does not read, worked out again after an edit of the code, of a function it
    calls, or of which function a name it calls is bound to."""
    assert before in SCRIPTED
    edited = SCRIPTED.replace(before, after)
    assert (_messages(edited, "SC216") != _messages(SCRIPTED, "SC216")) == changes
    analysis = Incremental()
    typed(analysis, [SCRIPTED])
    part = analysis._finished[("SC216", None, "later")]
    assert len(part.reports) == 2
    for version in [edited, SCRIPTED, edited]:
        typed(analysis, [version])
        assert (analysis._finished.get(("SC216", None, "later")) is part) != changes


@pytest.mark.parametrize("before, after, changes", [
    ("return x * 2", "return x * 3", False),
    ("h.mul_(2.0)", "h = h * 2.0", False),  # the module-level code, which hands the helper the same
    ("masked_bce(model(torch.randn(8, 20))", "masked_bce(torch.randn(8, 5)", True),  # no model output handed
])
def test_the_flow_of_a_function_is_kept_only_while_what_its_callers_hand_it_is_the_same(
        before: str, after: str, changes: bool) -> None:
    """SC216's flow of a function is a part of its `finish` too, with what the file's calls hand its parameters
    (a model's output or not) among what it is worked out from."""
    edited = SCRIPTED.replace(before, after)
    analysis = Incremental()
    typed(analysis, [SCRIPTED])
    helper = next(statement for statement in analysis._source.module.body  # type: ignore[union-attr]
                  if type(statement) is cst.FunctionDef and statement.name.value == "masked_bce")
    part = analysis._finished[("SC216", helper, "mutating")]
    assert part.result[1]  # it returns a spoiled graph
    for version in [edited, SCRIPTED, edited]:
        typed(analysis, [version])
        assert (analysis._finished[("SC216", helper, "mutating")] is part) != changes


TIMESTEPS = """import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    freqs = torch.arange(dim)
    return t[:, None] * freqs[None]


class Denoiser(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x, t):
        return self.fc(x) + timestep_embedding(t, x.shape[-1])


model = Denoiser(8).to("cuda")
STEPS = 10
"""


@pytest.mark.parametrize("before, after, changes", [
    ("STEPS = 10", "STEPS = 20", False),
    # the helper it calls places its tensor now, or another definition further down is the one the name reaches
    ("torch.arange(dim)", "torch.arange(dim, device=t.device)", True),
    ("STEPS = 10", "STEPS = 10\n\n\ndef timestep_embedding(t, dim):\n    return t", True),
])
def test_a_classes_creations_off_the_device_are_kept_only_while_what_they_read_is_the_same(
        before: str, after: str, changes: bool) -> None:
    """SC212's findings of a module class are a part of its `finish` the server keeps (`Context.finish_part`):
    kept across an edit of what they do not read, worked out again after an edit of a function the class calls or
    of which function its name is bound to."""
    edited = TIMESTEPS.replace(before, after)
    assert (_messages(edited, "SC212") != _messages(TIMESTEPS, "SC212")) == changes
    analysis = Incremental()
    typed(analysis, [TIMESTEPS])
    denoiser = next(statement for statement in analysis._source.module.body  # type: ignore[union-attr]
                    if type(statement) is cst.ClassDef)
    part = analysis._finished[("SC212", denoiser)]
    assert len(part.result[0]) == 1
    for version in [edited, TIMESTEPS, edited]:
        typed(analysis, [version])
        assert (analysis._finished[("SC212", denoiser)] is part) != changes


def _messages(text: str, code: str) -> list[str]:
    return [finding["message"] for finding in lint(text)[2] if finding["code"] == code]


COPIED = """import copy
import torch
import torch.nn as nn


def evaluate(model, loader):
    with torch.no_grad():
        for x in loader:
            preds = model(x)


def train(model, loader):
    best = copy.deepcopy(model)
    evaluate(best, loader)


net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
train(net, [torch.randn(2, 4)])
"""


UNPACKED = """import torch
import torch.nn as nn


def evaluate(model, loader):
    with torch.no_grad():
        for x in loader:
            preds = model(x)


def build():
    return nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), 4


net, size = build()
evaluate(net, [torch.randn(2, size)])
"""


SAMPLED = """import torch
from torchvision import datasets

test_data = datasets.FashionMNIST(root="data", train=False)
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10))
model.to("cuda")
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model(x)
"""


EMBEDDED = """import torch
import torch.nn as nn


class Embed(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.bg = nn.Parameter(torch.empty(1, d))


def init_weights(m):
    if isinstance(m, Embed):
        nn.init.orthogonal_(m.bg)
"""


BOOTSTRAPPED = """import torch


def td_errors(critic, obs, rewards, gamma=0.99):
    T, N = rewards.shape
    values = torch.empty(T + 1, N)
    for t in range(T):
        values[t + 1] = critic(obs[t]).squeeze(-1)
    return rewards + gamma * values[1:]


def advantages(critic, obs, rewards, gamma=0.99):
    T, N = rewards.shape
    values = torch.empty(T + 1, N)
    for t in range(T):
        values[t + 1] = critic(obs[t]).squeeze(-1)
    return rewards + gamma * values[1:] - values[:-1]
"""

STEPPED = """import torch


class Agent:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=0.1)
        self.costs = []

    def learn(self, x, y):
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.costs.append(loss)


def replay(agent):
    return agent.costs
"""

def _edited_around_kept(text: str, edited: str, kept: int | None) -> None:
    """Types `text`, then `edited`, `text`, `edited`: each version's findings are lint's (`typed` checks them), and
    the `kept`-th top-level compound statement, where one is named, keeps the reports it gathered."""
    analysis = Incremental()
    typed(analysis, [text])
    if kept is None:
        typed(analysis, [edited, text, edited])
        return
    statement = [statement for statement in analysis._source.module.body  # type: ignore[union-attr]
                 if type(statement) is not cst.SimpleStatementLine][kept]
    reports = analysis._kept[id(statement)]
    for version in [edited, text, edited]:
        typed(analysis, [version])
        assert analysis._kept[id(statement)] is reports



@pytest.mark.parametrize("text, before, after, kept", [
    # SC210: the deep copy `train` hands on is of a model with dropout, or of something else
    (COPIED, "copy.deepcopy(model)", "copy.deepcopy(loader)", 0),
    (COPIED, "nn.Dropout(0.5)", "nn.ReLU()", 1),
    # SC210: the model unpacked from the factory's tuple has dropout, or not
    (UNPACKED, "nn.Dropout(0.5)", "nn.ReLU()", 0),
    # SC211: the dataset's item is run through a model moved off the CPU, or kept there (the call reads the model
    # the move changes in place, so it is analysed again: no statement to keep)
    (SAMPLED, 'model.to("cuda")', "model.to(torch.float64)", None),
    (SAMPLED, "datasets.FashionMNIST(", "make_data(", None),
    # SC401: the parameter allocated with torch.empty is initialized by a function of the file, or not
    (EMBEDDED, "nn.init.orthogonal_(m.bg)", "pass", 0),
    # SC401: a buffer a loop fills from row 1 is read from row 0, or not (the rows read are replayed only for the
    # buffers such a loop fills: the kept `advantages`'s too)
    (BOOTSTRAPPED, "gamma * values[1:]\n\n", "gamma * values[:-1]\n\n", 1),
    # SC208: a step method keeps its backpropagated loss in an attribute made in `__init__`, or makes it anew
    (STEPPED, "        self.opt.zero_grad()\n", "        self.costs = []\n        self.opt.zero_grad()\n", None),
])
def test_what_a_kept_statement_gathered_for_the_loops_rules_is_decided_again(text: str, before: str, after: str,
                                                                             kept: int | None) -> None:
    """The findings SC208, SC210, SC211 and SC401 make from more of the file (a step method's attribute, a deep
    copy handed on, a model unpacked from a factory's tuple, a dataset's item, a `torch.empty` parameter) are
    decided by `finish` from what each statement gathered: an edit elsewhere keeps the statement (the `kept`-th
    top-level definition or compound statement, where one is kept) and gives the findings of lint."""
    assert before in text
    edited = text.replace(before, after)
    assert lint(edited) != lint(text)
    _edited_around_kept(text, edited, kept)


SALIENCY = """import torch
import torch.nn as nn

net = nn.Linear(4, 2)


def evaluate(model, x):
    model.eval()
    return model(x)


def saliency(model, x):
    model.eval()
    x.requires_grad = True
    return model(x)


print(evaluate(net, torch.randn(1, 4)), saliency(net, torch.randn(1, 4)))
"""

EXPLAINED = """import torch
import torch.nn as nn

net = nn.Linear(4, 2)


def explain(out):
    return out.sum()


def evaluate(model, x):
    model.eval()
    out = model(x)
    return explain(out)


print(evaluate(net, torch.randn(1, 4)))
"""

SHARDED = """import torch
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def build_loader(dataset):
    return DataLoader(dataset, sampler=DistributedSampler(dataset), batch_size=8)


def train(model, dataset, epochs):
    loader = build_loader(dataset)
    for epoch in range(epochs):
        for batch in loader:
            model(batch).sum().backward()


EPOCHS = 10
"""

PLACED = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x) + torch.zeros(4)


model = Net().to("cuda")
"""


@pytest.mark.parametrize("text, before, after, kept, changes", [
    # SC203: calls added before `saliency` move every call after them in the traversal's count; its
    # `requires_grad` stays inside its eval region, which `finish` works out from the nodes it gathered
    (SALIENCY, "net = nn.Linear(4, 2)", "net = nn.Sequential(nn.Linear(4, 2), nn.ReLU())", 1, False),
    (SALIENCY, "    model.eval()\n    return model(x)", "    model.eval()\n    model.train()\n    return model(x)", 1,
     True),
    # SC203: the helper the eval region calls computes gradients, or not (the file's functions are a module fact, each
    # statement's part kept; `evaluate` reads the helper it calls: analysed again)
    (EXPLAINED, "    return out.sum()", "    out.sum().backward()\n    return out", None, True),
    # SC215: the loader `train` builds comes from a factory before it, which stops shuffling (`train` reads it:
    # analysed again), or the file sets the sampler's epoch after it
    (SHARDED, "DistributedSampler(dataset)", "DistributedSampler(dataset, shuffle=False)", None, True),
    (SHARDED, "EPOCHS = 10\n", "EPOCHS = 10\n\n\ndef reshuffle(sampler, epoch):\n    sampler.set_epoch(epoch)\n",
     1, True),
    # SC212: the module whose forward makes a CPU tensor is moved to a device further down, or not
    (PLACED, 'Net().to("cuda")', "Net().to(torch.float64)", 0, True),
])
def test_what_a_kept_statement_gathered_in_place_of_the_traversal_is_decided_again(text: str, before: str,
                                                                                   after: str, kept: int | None,
                                                                                   changes: bool) -> None:
    """SC203, SC212 and SC215 decide in `finish` from what each statement gathered (nodes, never the traversal's
    count of calls): an edit elsewhere keeps the `kept`-th top-level definition, where one is kept, and gives the
    findings of lint (other findings where `changes`)."""
    assert before in text
    edited = text.replace(before, after)
    assert lint(text)[2] and (lint(edited) != lint(text)) == changes
    _edited_around_kept(text, edited, kept)


FACTORY = """import torch
import torch.nn as nn


def build():
    return nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), 4


net, size = build()
with torch.no_grad():
    for x in [torch.randn(2, size)]:
        preds = net(x)
"""


def test_a_statement_that_read_a_function_of_the_file_is_analysed_again_when_it_changes() -> None:
    """SC210 follows `net` to what the file's function `build` returns (`Context.functions`), which the statement
    reading it need not look up by name: the server records that read too."""
    edited = FACTORY.replace("nn.Dropout(0.5)", "nn.ReLU()")
    assert lint(edited) != lint(FACTORY)
    analysis = Incremental()
    assert typed(analysis, [FACTORY, edited, FACTORY, edited])[1:] == [2, 2, 2]
    loop = analysis._source.module.body[-1]  # type: ignore[union-attr]
    assert _FUNCTIONS + "build" in analysis._kept[id(loop)].reads


def test_a_statement_that_reads_a_module_fact_is_analysed_again_when_the_fact_changes() -> None:
    """`encoder(flat)` asks whether anything in the module changes the Sequential's layers (`encoder.append`), a
    fact of the whole module: an edit elsewhere that leaves the fact as it was keeps its findings, and one that
    changes it analyses it again."""
    analysis = Incremental()
    typed(analysis, [SCRIPT])
    (statement,) = [s for s in analysis._source.module.body if "encoder(flat)" in cst.Module([s]).code]
    before = analysis._kept[id(statement)]
    assert "<the module fact> mutated containers" in before.reads
    # the module's code is run for `encoder(flat)` (the Sequential is changed in place), which reads every name it
    # calls; nothing reads `log_attention`
    edited = SCRIPT.replace("torch.log(attention)", "torch.log(attention + 1e-9)")
    typed(analysis, [edited])
    assert analysis._source.module.body.index(statement) >= 0  # the same node, not parsed again
    assert analysis._kept[id(statement)] is before
    typed(analysis, [edited.replace("encoder.append", "print")])
    assert analysis._kept[id(statement)] is not before


@pytest.mark.parametrize("before, after", [
    ("torch.log(attention)", "torch.log(attention + 1e-9)"),  # no statement's part changes
    ("encoder.append", "print"),  # the statement's part is gone: the fact changes
    ("encoder.append(nn.Dropout(0.1))\n", "encoder.append(nn.Dropout(0.1))\nencoder.append(nn.ReLU())\n"),
    ("encoder.append(nn.Dropout(0.1))\n", ""),  # a statement removed with its part
    ("hidden = encoder(flat)", "encoder.append(nn.ReLU())\nhidden = encoder(flat)"),  # a part added elsewhere
])
def test_a_module_fact_is_found_from_the_parts_of_the_statements_an_edit_replaced(
        before: str, after: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module fact is the union of every statement's part; after an edit the server finds the parts of the
    statements it added only, and where together they are what the removed ones had, the fact is the latest lint's
    (the same object). Whatever the edit, it is what `Context.module_fact` finds in the whole module."""
    from shapecheck.shapes import layers

    asked: list[cst.CSTNode] = []
    of_statement = layers._mutated_in

    def part(statement: cst.CSTNode) -> frozenset:
        asked.append(statement)
        return of_statement(statement)

    monkeypatch.setattr(layers, "_mutated_in", part)
    analysis = Incremental()
    typed(analysis, [SCRIPT])
    latest = analysis._unions["mutated containers"][1]
    for text in [SCRIPT.replace(before, after, 1), SCRIPT]:
        body = analysis._body
        asked.clear()
        found = lint(text, analysis)
        parts = set(map(id, asked))
        assert found == lint(text)
        module = analysis._source.module  # type: ignore[union-attr]
        added = {id(statement) for statement in module.body if not any(statement is old for old in body)}
        value = analysis._unions["mutated containers"][1]
        assert value == Context(module, "model.py").module_fact("mutated containers", of_statement)
        assert parts == added
        assert (value is latest) == (value == latest)
        latest = value


# A training script: a model, its optimizer and scheduler, a helper stepping it, and loops before and after the
# module-level statement the tests type into.
TRAINING = """\
import torch
import torch.nn as nn

model = nn.Linear(8, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)


def train_step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()


for epoch in range(3):
    scheduler.step()
    for batch in range(5):
        train_step(torch.randn(4, 8), torch.randn(4, 2))

x = torch.randn(4, 8)
scores = torch.softmax(model(x), dim=-1).log()

for epoch in range(3):
    for batch in range(5):
        loss = nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 2))
        loss.backward()
        optimizer.step()
"""
TYPED = TRAINING.replace("dim=-1", "dim=-12")


def _resumed(analysis: Incremental, texts: list[str]) -> list[int]:
    """Lint the versions one after the other as the server does, checking each against a whole-file lint; the
    number of statements each lint resumed from a checkpoint instead of walking them."""
    resumed = []
    for text in texts:
        assert lint(text, analysis) == lint(text), text
        resumed.append(analysis.resumed)
    return resumed


def _index_of(text: str, snippet: str) -> int:
    return next(k for k, statement in enumerate(cst.parse_module(text).body) if snippet in cst.Module([statement]).code)


def test_typing_in_a_statement_resumes_the_traversal_before_it() -> None:
    """The first edit of a statement copies the state before it (a checkpoint); the next ones there start from the
    copy instead of walking the statements before it, and the training-loop rules still find what lint finds on
    both sides of it (a helper stepping the optimizer before it, a loop after it)."""
    codes = [finding["code"] for finding in lint(TYPED)[2]]
    assert codes.count("SC201") == 2 and "SC213" in codes
    analysis = Incremental()
    # the statements before the first one the edit replaced (the parser may take the one before it too)
    first, loop = _index_of(TRAINING, "scores ="), _index_of(TRAINING, "scheduler.step()")
    resumed = _resumed(analysis, [TRAINING, TYPED, TRAINING, TYPED, TRAINING])
    assert resumed[:2] == [0, 0] and loop < resumed[2] <= first and resumed[2:] == [resumed[2]] * 3
    # an edit before the checkpoint walks every statement again, and copies the state before the first statement
    # it replaced for the next one
    earlier = TRAINING.replace("lr=0.1", "lr=0.2")
    resumed = _resumed(analysis, [earlier, earlier.replace("lr=0.2", "lr=0.3")])
    assert resumed[0] == 0 and 0 < resumed[1] <= _index_of(TRAINING, "lr=")


def test_the_traversal_is_not_resumed_where_the_state_before_the_edit_read_the_whole_module(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A visitor that sees every statement may read the whole module (every function by name: the objects floor's
    `Context.functions_by_name`) or a module fact while the traversal is before the edit: then the state there
    depends on what the edit changed, and the traversal walks the statements again; a module fact of the same value
    does not stop it."""
    from shapecheck.shapes.layers import _mutated_in

    whole: list[bool] = [True]

    def visit_for(self: TrainingLoop, node: cst.For) -> None:
        if whole[0]:
            list(self.ctx.functions_by_name())
        else:
            self.ctx.module_fact("mutated containers", _mutated_in)
        self._enclosing[node] = self.ctx.loops

    monkeypatch.setattr(TrainingLoop, "visit_For", visit_for)
    assert _resumed(Incremental(), [TRAINING, TYPED, TRAINING]) == [0, 0, 0]
    whole[0] = False
    appended = TRAINING.replace("x = torch.randn(4, 8)", "x = torch.randn(4, 8)\nlayers = []\nlayers.append(x)")
    typing = [appended.replace("dim=-1", "dim=-12"), appended] * 2
    resumed = _resumed(Incremental(), [TRAINING, TYPED, TRAINING, *typing])
    # the statement the fact changed for is analysed again, with the analyses that read the whole module: the next
    # checkpoint is the first one made with every statement before it kept
    assert resumed[:2] == [0, 0] and resumed[2] > 0 and resumed[3] == 0 and resumed[-1] > resumed[2]


def test_every_rule_s_state_over_all_fixtures_can_be_copied_into_a_checkpoint() -> None:
    """A visitor keeping in its file-scope state an object a checkpoint cannot copy (SC219 once kept a plain class)
    stops the traversal from resuming on every edit of every file that has one: each keystroke walks the whole file.
    All fixtures in one file, an edit in its second half: the lint resumes from the state before it."""
    text = "".join(line for path in FIXTURES for line in split_lines(path.read_text()) if "__future__" not in line)
    lines = text.splitlines(keepends=True)
    row = next(i for i in range(len(lines) // 2, len(lines)) if "dim=-1" in lines[i])
    typed = "".join(lines[:row]) + lines[row].replace("dim=-1", "dim=-12", 1) + "".join(lines[row + 1:])
    analysis = Incremental()
    for version in (text, typed, text):
        lint(version, analysis)
    assert analysis.resumed > 0


GROWN = """\
import torch
import torch.nn as nn


def build(sizes):
    grow(sizes)
    return nn.Sequential(*[nn.Linear(a, b) for a, b in zip(sizes, sizes[1:])])


sizes = [4, 8]
net = build(sizes)
out = net(torch.randn(2, 5))


def grow(values):
    return len(values)
"""


def test_a_statement_that_reads_a_later_function_through_the_objects_floor_is_analysed_again() -> None:
    """`build(sizes)` calls `grow`, defined after it, with the list: whether `grow` changes the list decides what
    `net` holds. Edited to `values.clear()`, the layers are unknown and lint finds nothing at `net(...)`: the
    statement read `grow` by name (`Context.functions_by_name`), so it is analysed again, and the edits after it
    that leave `grow` alone keep it."""
    edited = GROWN.replace("    return len(values)", "    values.clear()")
    assert lint(GROWN) != lint(edited)
    elsewhere = edited.replace("torch.randn(2, 5)", "torch.randn(3, 5)")
    # seven statements: the edit of `grow` analyses again it and the three that follow a call into it (`build`,
    # `net = build(sizes)`, `out = net(...)`), the imports and `sizes` are kept; the edit of `out = ...` analyses
    # that statement and the one before it (the parser takes it too)
    assert typed(Incremental(), [GROWN, edited, elsewhere]) == [0, 3, 5]


@pytest.mark.parametrize("before, after", [
    ("D = 16\n", "D = 16\nE = 8\n"),  # a binding added
    ("H = 4\n", ""),  # a binding removed
    ("H = 4\n", "H = D\n"),  # a binding's value
    ("import torch.nn.functional as F\n", "from torch.nn import functional as F\n"),  # an import
    ("import torch.nn.functional as F\n", ""),  # an import removed: the names it bound are unbound
    ("def project(v):", "def project(v, scale=1):"),  # a function's signature
    ("def project(v):\n    return v @ W", "def project(v):\n    return v.T @ W"),  # a function's body
    ("def attend(q):", "def project(q):"),  # a function renamed to another's name
    ("        self.out = nn.Linear(H, 2)\n", ""),  # a class's layers
    ("class Net(nn.Module):", "class Net(nn.Sequential):"),  # a class's base
    ("B, T = x.shape", "T, B = x.shape"),  # an unpacking
    ("B, T = x.shape", "B = T = 8"),  # an unpacking removed
])
def test_a_statement_kept_without_reading_the_module_again_reads_what_it_read(
        before: str, after: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit, a statement is kept without asking `_seen` what its reads find now when none of them is
    answered by a statement the edit removed or added (`_Traversal._unchanged_reads`): whenever that holds, `_seen`
    finds what the statement read, and the findings are lint's."""
    shortcuts = _checking_unchanged_reads(monkeypatch)
    assert before in MODELS
    edited = MODELS.replace(before, after, 1)
    typed(Incremental(), [MODELS, edited, MODELS, edited])
    assert shortcuts


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_random_edits_keep_statements_without_reading_the_module_again_only_where_it_is_the_same(
        path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _checking_unchanged_reads(monkeypatch)
    _random_edits(path.read_text(), seed, 15)


def _checking_unchanged_reads(monkeypatch: pytest.MonkeyPatch) -> list[cst.CSTNode]:
    """Check every statement `_Traversal._unchanged_reads` keeps against `_seen`; the statements it kept."""
    shortcuts: list[cst.CSTNode] = []
    unchanged = _Traversal._unchanged_reads

    def checked(self: _Traversal, kept: _Kept) -> bool:
        found = unchanged(self, kept)
        if found:
            statement = kept.statement
            assert _same(kept.seen, self._seen(kept.reads, self._order[id(statement)], statement)), \
                cst.Module([statement]).code
            shortcuts.append(statement)
        return found

    monkeypatch.setattr(_Traversal, "_unchanged_reads", checked)
    return shortcuts


def test_the_walks_and_spellings_of_the_nodes_an_edit_did_not_replace_are_carried_over() -> None:
    """Rules walk and spell the same nodes at every lint; the next lint reuses what the latest made for the nodes
    it still has, and keeps nothing of the nodes an edit replaced."""
    analysis = Incremental()
    typed(analysis, [MODELS])
    walked, (nodes, spelled) = dict(analysis._walked_by_rules), map(dict, analysis._code)
    (replaced,) = [s for s in analysis._source.module.body if "D = 16" in cst.Module([s]).code]
    typed(analysis, [MODELS.replace("D = 16", "D = 32")])
    body = analysis._source.module.body
    alive = {id(node) for statement in body for node in walk(statement)}
    assert all(key in alive for key in analysis._walked_by_rules)
    carried = [key for key in analysis._walked_by_rules if key in walked]
    assert carried and all(analysis._walked_by_rules[key][1] is walked[key][1] for key in carried)
    now_nodes, now_spelled = analysis._code
    carried = [key for key in now_nodes if nodes.get(key) is now_nodes[key]]
    assert carried and all(now_spelled[key] is spelled[key] for key in carried)
    gone = set(map(id, walk(replaced)))
    assert not any(id(node) in gone for node in now_nodes.values())


def test_the_children_of_the_nodes_an_edit_did_not_replace_are_carried_over() -> None:
    """The analyses' walks find each node's children once a lint (`walker.caching`); the next lint takes those of the
    nodes it still has from the latest (`walker.carried`), and drops the others."""
    analysis = Incremental()
    typed(analysis, [MODELS])
    before = dict(analysis._children)
    (replaced,) = [s for s in analysis._source.module.body if "D = 16" in cst.Module([s]).code]
    typed(analysis, [MODELS.replace("D = 16", "D = 32")])
    assert any(before.get(key) is entry for key, entry in analysis._children.items())
    gone = set(map(id, walk(replaced)))
    assert not any(id(node) in gone for node, _ in analysis._children.values())


def test_a_crash_is_reported_as_the_whole_file_lint_reports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that crashes on some code: `shapecheck lint` drops it from there on and reports the crash once;
    the server's lint of every version, before and after the edit that brings that code in, says the same."""
    from shapecheck.rules.log_of_softmax import LogOfSoftmax

    def crash(self: Rule, node: cst.Call) -> None:
        if type(node.func) is cst.Attribute and node.func.attr.value == "log" and "dim=-2" in self.ctx.code(node):
            raise RuntimeError("boom")

    monkeypatch.setattr(LogOfSoftmax, "visit_Call", crash)
    edited = MODELS.replace("F.softmax(scores, dim=-1).log()", "F.softmax(scores, dim=-2).log()")
    assert any(finding["code"] == "SC999" for finding in lint(edited)[2])
    typed(Incremental(), [MODELS, edited, MODELS, edited])


# ------------------------------------------------------------------------------------------- every statement


def _origin_findings(analysis: Incremental) -> list[list[tuple[str, str]]]:
    """The statement-scope findings each top-level statement's analysis made, in order: where it made them, which is
    not always where they are (what fails in the code a call runs is reported there, "via" the call)."""
    assert analysis._source is not None
    return [sorted((report.rule.code, report.message) for report in analysis._kept[id(statement)].reports)
            for statement in analysis._source.module.body]


def _check_reads(text: str) -> int:
    """Delete each top-level statement in turn: every other statement whose findings change must have recorded a
    read of it. Returns how many (deleted, changed) pairs were seen."""
    analysis = Incremental()
    lint(text, analysis)
    source = analysis._source
    if source is None:  # no rule applies: nothing was parsed, nothing is kept
        return 0
    body, starts, lines = source.module.body, source.starts, split_lines(text)
    assert starts is not None
    kept = [analysis._kept[id(statement)] for statement in body]
    before = _origin_findings(analysis)
    rules = {rule.code for rule in applicable(RULES, text)}
    pairs = 0
    for k, statement in enumerate(body):
        end = starts[k + 1] if k + 1 < len(body) else len(lines)
        without = "".join(lines[:starts[k]] + lines[end:])
        if {rule.code for rule in applicable(RULES, without)} != rules:
            continue  # other rules apply: nothing is kept across such an edit
        fresh = Incremental()
        lint(without, fresh)
        after = _origin_findings(fresh)
        for j, findings in enumerate(before[:k] + before[k + 1:]):
            index = j if j < k else j + 1
            if findings != after[j]:
                pairs += 1
                assert _recorded(analysis, kept[index], statement), (
                    f"deleting statement {k} (line {starts[k] + 1}) changes the findings of statement {index} "
                    f"(line {starts[index] + 1}), which did not record reading it: {findings} -> {after[j]}")
    return pairs


def _recorded(analysis: Incremental, kept: _Kept, statement: cst.CSTNode) -> bool:
    """Whether a statement's kept findings record reading `statement`: where it binds a name they read, or a part
    of a module fact they read."""
    facts = [read.removeprefix(_FACT) for read in kept.reads if read.startswith(_FACT)]
    return any(read is statement for read in kept.seen) or \
        any(analysis._facts[kind][1][id(statement)][1] for kind in facts)


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_each_statement_records_every_statement_its_findings_depend_on(path: Path) -> None:
    assert _check_reads(path.read_text()) > 0  # the corpus is there to have such dependencies


@LONG
@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_each_fixture_statement_records_what_its_findings_depend_on(path: Path) -> None:
    _check_reads(path.read_text())


# ---------------------------------------------------------------------------------------------- random edits

_NUMBER = re.compile(r"\b\d+\b")
_WORD = re.compile(r"[A-Za-z_]\w*")
_NAMES = ["x", "y", "h", "model", "layers", "out", "self", "torch", "nn", "F", "D", "B", "T", "loss", "logits"]


def random_edit(rng: random.Random, text: str) -> str:
    """One edit as a person makes them, biased to what crosses statements: sizes, names, whole lines."""
    lines = split_lines(text)
    if not lines:
        return "import torch\n"
    k = rng.randrange(len(lines))
    roll = rng.random()
    if roll < 0.35:
        numbers = list(_NUMBER.finditer(text))
        if numbers:
            found = rng.choice(numbers)
            return text[:found.start()] + str(rng.choice([1, 2, 3, 4, 8, 16, 32, 64])) + text[found.end():]
    if roll < 0.55:
        words = list(_WORD.finditer(lines[k]))
        if words:
            found = rng.choice(words)
            lines[k] = lines[k][:found.start()] + rng.choice(_NAMES) + lines[k][found.end():]
    elif roll < 0.7:
        del lines[k]
    elif roll < 0.85:
        lines.insert(rng.randrange(len(lines) + 1), lines[k])  # a line copied (often a syntax error)
    elif len(lines[k]) > 1:
        column = rng.randrange(len(lines[k]) - 1)
        lines[k] = lines[k][:column] + lines[k][column + 1:]  # a keystroke deleted
    return "".join(lines)


def _random_edits(text: str, seed: int, edits: int) -> None:
    rng = random.Random(seed)
    analysis = Incremental()
    for step in range(edits):
        assert lint(text, analysis) == lint(text), f"seed {seed}, edit {step}:\n{text}"
        text = random_edit(rng, text)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("path", CORPUS + FIXTURES[::12], ids=lambda path: f"{path.parent.name}/{path.name}")
def test_random_edits_give_the_findings_of_lint(path: Path, seed: int) -> None:
    _random_edits(path.read_text(), seed, 15)


@LONG
@pytest.mark.parametrize("seed", range(4))
def test_random_edits_of_all_fixtures_in_one_file(seed: int) -> None:
    text = "".join(line for path in FIXTURES for line in split_lines(path.read_text()) if "__future__" not in line)
    _random_edits(text, seed, 25)


# ----------------------------------------------------------------------------------- the statement-scope contract


class _Guarded(Context):
    """A context whose whole-file facts must not be read by statement-scope rules while `guarded` is set."""

    guarded = False
    _FACTS = ("calls", "class_defs")

    def __getattribute__(self, name: str):
        if name in _Guarded._FACTS and object.__getattribute__(self, "guarded"):
            raise AssertionError(f"a statement-scope rule read ctx.{name}, a whole-file fact")
        return object.__getattribute__(self, name)

    def calls_to(self, name: str):
        if self.guarded:
            raise AssertionError("a statement-scope rule read ctx.calls_to, a whole-file fact")
        return super().calls_to(name)

    def analysis(self, kind):
        if self.guarded and kind is TrainingLoop:
            raise AssertionError("a statement-scope rule read the training-loop record, a whole-file fact")
        return super().analysis(kind)


class _WriteOnly(list):
    """A gathered list, which the rule's visits may only append to."""

    def __init__(self, ctx: _Guarded) -> None:
        super().__init__()
        self.ctx = ctx

    def _read(self) -> None:
        if self.ctx.guarded:
            raise AssertionError("a statement-scope rule's visits read a list they gather for finish()")

    def __iter__(self):
        self._read()
        return super().__iter__()

    def __getitem__(self, index):
        self._read()
        return super().__getitem__(index)

    def __len__(self) -> int:
        self._read()
        return super().__len__()

    def __contains__(self, item) -> bool:
        self._read()
        return super().__contains__(item)

    def __bool__(self) -> bool:
        self._read()
        return super().__len__() > 0


def _syntax_and_values(item: object) -> bool:
    """Nothing of the lint's context: what a kept part holds must mean the same to the next lint."""
    if item is None or isinstance(item, (cst.CSTNode, str, int, float)):
        return True
    if type(item) in (tuple, frozenset):
        return all(_syntax_and_values(element) for element in item)  # type: ignore[attr-defined]
    params = getattr(type(item), "__dataclass_params__", None)
    # frozen, or a record of the analysis (hashable, and never changed in place: CONTRIBUTING.md, "Records")
    if dataclasses.is_dataclass(item) and (params.frozen or params.unsafe_hash):
        return all(_syntax_and_values(getattr(item, field.name)) for field in dataclasses.fields(item))
    return False


def _guard(rule: Rule, ctx: _Guarded) -> None:
    for attribute in dir(type(rule)):
        if attribute.startswith(("visit_", "leave_")):
            handler = getattr(rule, attribute)

            def guarded(node: cst.CSTNode, handler=handler) -> None:
                ctx.guarded = True
                try:
                    handler(node)
                finally:
                    ctx.guarded = False

            setattr(rule, attribute, guarded)


def _modules(rule: type[Rule], *more: str) -> Iterator[cst.Module]:
    """The rule's examples, `more` and real files, parsed (those that parse)."""
    for source in [*rule.valid_examples(), *(example.code for example in rule.invalid_examples()), *more,
                   *(path.read_text() for path in CORPUS + FIXTURES[::3])]:
        try:
            yield cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue


@pytest.mark.parametrize("rule", [rule for rule in all_rules() if rule.scope == "statement"],
                         ids=lambda rule: rule.code)
def test_statement_scope_rules_keep_no_state_and_read_no_whole_file_fact(rule: type[Rule]) -> None:
    assert rule.finish is Rule.finish or rule.gathered, \
        "a rule with a finish() reads the whole file: its scope is \"file\", or it names what it gathers for it"
    for module in _modules(rule):
        ctx = _Guarded(module, "model.py")
        instance = rule(ctx)
        for name in rule.gathered:
            assert getattr(instance, name) == [], f"{rule.code}.{name} is not a list its visits fill"
            setattr(instance, name, _WriteOnly(ctx))
        _guard(instance, ctx)
        traversal = traverse(ctx, [ctx.analysis(TrainingLoop), ctx.analysis(ForwardReturns), instance])
        assert not traversal.crashes, traversal.crashes
        state = {name for name in vars(instance) if not name.startswith(("visit_", "leave_"))}
        assert state == {"ctx", *rule.gathered}, f"{rule.code} keeps state between statements: {state - {'ctx'}}"
        for name in rule.gathered:
            assert all(_syntax_and_values(item) for item in getattr(instance, name)), \
                f"{rule.code}.{name} holds something of the lint's context, which the next lint makes anew"


class _GuardedParts(_Guarded):
    """A context whose whole-file facts must not be read inside a part of a `finish` (`Context.finish_part`)."""

    def finish_part(self, key, given, work):
        self.guarded = True
        try:
            return work()
        finally:
            self.guarded = False


@pytest.mark.parametrize("rule", [rule for rule in all_rules()
                                  if "finish_part" in inspect.getsource(sys.modules[rule.__module__])],
                         ids=lambda rule: rule.code)
def test_the_parts_of_a_finish_read_no_whole_file_fact(rule: type[Rule]) -> None:
    """The server records what a part of a `finish` reads of the module as it records a statement's reads, which
    covers no whole-file fact: those are worked out before the part and handed to it in `given`."""
    for module in _modules(rule, SCRIPTED):
        ctx = _GuardedParts(module, "model.py")
        traversal = traverse(ctx, [ctx.analysis(TrainingLoop), ctx.analysis(ForwardReturns), rule(ctx)])
        assert not traversal.crashes, traversal.crashes


def test_sc301_s_part_of_its_module_fact_is_found_without_the_first_lint_s_context() -> None:
    # SC301 asks which module-level tensors are changed in place (a log of a clamped sigmoid is not reported); the
    # edit changes such a statement, whose part the server finds after the first lint is over: a part that walked
    # with that lint's released context failed there and every lint after it reported an internal error
    text = textwrap.dedent("""
        import torch

        gate = torch.sigmoid(torch.randn(4, 3))
        keep = -torch.log(1 - gate).mean()
        scores = torch.zeros(4)
        scores += 1
    """)
    analysis = Incremental()
    typed(analysis, [text, text.replace("scores += 1", "scores += 2"), text])


def test_an_edited_statement_s_part_of_a_module_fact_is_found_without_the_first_lint_s_context() -> None:
    # the first lint asks which containers the module changes (`checkpoint["epoch"]`, an item of a dict the code
    # doesn't explain); the edit changes a statement that fills a list, whose part is found again after that lint
    # is over (it asked that lint's released context for the list's spelling, and every lint after failed)
    text = textwrap.dedent("""
        import torch
        import torch.nn as nn

        checkpoint = torch.load("last.pt", map_location="cpu", weights_only=True)
        start_epoch = checkpoint["epoch"] + 1

        def build(dim):
            layers = []
            layers.append(nn.Linear(dim, 2 * dim))
            return nn.Sequential(*layers)
    """)
    analysis = Incremental()
    assert typed(analysis, [text, text.replace("2 * dim", "3 * dim"), text])[1:] == [4, 4]  # all but `def build`
