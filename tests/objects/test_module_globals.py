"""A function of the module run for a call reads the module's names as they are bound at the call's line, whatever
line first asked about the call: the same file gives the same findings with or without an earlier question (a
`model.parameters()` before a loop that rebinds `nn`), in a whole-file lint and in the editor server alike.

Each case states what Python binds at the call, and is read twice: as written, and with an earlier line that asks
about the same objects first (the order in which the engine evaluates them then differs)."""

from __future__ import annotations

import pytest

from shapecheck.engine.registry import resolve
from shapecheck.runner import lint_decoded
from shapecheck.server.incremental import Incremental
from tests.helpers import as_data
from tests.shapes.probe import probe
from tests.test_notebook import found, notebook

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n"
BUILD = "D = 5\n\n\ndef build():\n    return nn.Linear(10, D)\n\n\n"
NET = """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, %s)

    def forward(self, x):
        return self.fc(x)%s


"""
X = "torch.randn(4, 10)"
# a model whose width is a class attribute set from the global `D`
HIDDEN_NET = NET.replace("    def __init__(self):", "    hidden = D\n\n    def __init__(self):") % ("self.hidden", "")

# name -> (the module, with `{early}` where the earlier question goes; that question; the shape Python gives the
# last probe). `None`: the module name holds one of two values at the call, so the size is not one number.
CASES = {
    # `for nn in range(5)` rebinds the alias after the model is built: `__init__` ran with `torch.nn`
    "a loop rebinds an alias after the call": (
        HEAD + NET % ("5", "") + "model = Net()\n{early}for nn in range(5):\n    probe(model(%s))\n" % X,
        "params = model.parameters()", "(4, 5)"),
    "a global rebound after the call": (
        HEAD + BUILD + "layer = build()\n{early}D = 7\nprobe(layer(%s))\n" % X, f"probe(layer({X}))", "(4, 5)"),
    "a global rebound before a second call": (
        HEAD + BUILD + "first = build()\n{early}D = 7\nlayer = build()\nprobe(layer(%s))\n" % X,
        f"probe(first({X}))", "(4, 7)"),
    "a global rebound in an if before the call": (
        HEAD + "D = 5\nif torch.cuda.is_available():\n    D = 7\n\n\ndef build():\n    return nn.Linear(10, D)\n\n\n"
        "layer = build()\n{early}probe(layer(%s))\n" % X, f"probe(layer({X}))", "(4, D)"),
    "a global rebound in an if after the call": (
        HEAD + BUILD + "layer = build()\n{early}if torch.cuda.is_available():\n    D = 7\nprobe(layer(%s))\n" % X,
        f"probe(layer({X}))", "(4, 5)"),
    "a class attribute rebound after the call": (
        HEAD + "class Config:\n    dim = 5\n\n\n" + NET % ("Config.dim", "")
        + "model = Net()\n{early}Config.dim = 7\nprobe(model(%s))\n" % X, f"probe(model({X}))", "(4, 5)"),
    "a class redefined after the call": (
        HEAD + "class Config:\n    dim = 5\n\n\n" + NET % ("Config.dim", "")
        + "model = Net()\n{early}\n\nclass Config:\n    dim = 7\n\n\nprobe(model(%s))\n" % X,
        f"probe(model({X}))", "(4, 5)"),
    "a function defined before and called after a rebinding": (
        HEAD + BUILD + "{early}D = 7\nlayer = build()\nprobe(layer(%s))\n" % X, f"probe(build()({X}))", "(4, 7)"),
    # a class body and a parameter's default are evaluated when their statement runs, with `D = 5`
    "a global a class attribute was set from, rebound after the call": (
        HEAD + "D = 5\n\n\n" + HIDDEN_NET + "model = Net()\n{early}D = 7\nprobe(model(%s))\n" % X,
        f"probe(model({X}))", "(4, 5)"),
    "a global a parameter's default was set from, rebound after the call": (
        HEAD + "D = 5\n\n\n" + NET.replace("def __init__(self):", "def __init__(self, width=D):")
        % ("width", "") + "model = Net()\n{early}D = 7\nprobe(model(%s))\n" % X, f"probe(model({X}))", "(4, 5)"),
    "a global rebound before a class whose body reads it": (
        HEAD + "D = 5\nD = 7\n\n\n" + HIDDEN_NET + "model = Net()\n{early}probe(model(%s))\n" % X,
        f"probe(model({X}))", "(4, 7)"),
    # `forward` reads `D` each time it runs: at the second call, 7
    "a method that reads a global at each call": (
        HEAD + "D = 5\n\n\n" + NET % ("8", "[:, :D]") + "model = Net()\n{early}D = 7\nprobe(model(%s))\n" % X,
        f"probe(model({X}))", "(4, 7)"),
}


def _versions(case: tuple[str, str, str | None]) -> tuple[str, str]:
    source, early, _ = case
    return source.replace("{early}", ""), source.replace("{early}", early + "\n")


@pytest.mark.parametrize("name", CASES)
def test_a_function_run_for_a_call_reads_the_module_names_bound_at_the_call(name: str) -> None:
    plain, asked_early = _versions(CASES[name])
    expected = CASES[name][2]
    assert probe(plain)[-1] == expected
    assert probe(asked_early)[-1] == expected  # the same answer when an earlier line asked first


# SC106 sees the last call's output: each module as a whole-file lint and an editor would lint it.
FINDINGS = {
    "a loop rebinds an alias after the call": (
        HEAD + NET % ("5", "") + "model = Net()\n{early}for nn in range(5):\n    out = model(%s)\n"
        "    loss = F.cross_entropy(out, torch.randn(4, 7, 3))\n" % X, "params = model.parameters()", True),
    "a global rebound after the call": (
        HEAD + BUILD + "layer = build()\n{early}D = 7\nloss = F.cross_entropy(layer(%s), torch.randn(4, 7))\n" % X,
        f"probe = F.cross_entropy(layer({X}), torch.randint(0, 5, (4,)))", True),
    "a global rebound before a second call": (
        HEAD + BUILD + "first = build()\n{early}D = 7\nlayer = build()\n"
        "loss = F.cross_entropy(layer(%s), torch.randn(4, 5))\n" % X,
        f"probe = F.cross_entropy(first({X}), torch.randint(0, 5, (4,)))", True),
    "a global rebound in an if before the call": (
        HEAD + "D = 5\nif torch.cuda.is_available():\n    D = 7\n\n\ndef build():\n    return nn.Linear(10, D)\n\n\n"
        "layer = build()\n{early}loss = F.cross_entropy(layer(%s), torch.randn(4, 7))\n" % X,
        f"probe = F.cross_entropy(layer({X}), torch.randint(0, 5, (4,)))", False),
    "a method that reads a global at each call": (
        HEAD + "D = 5\n\n\n" + NET % ("8", "[:, :D]")
        + "model = Net()\n{early}D = 7\nloss = F.cross_entropy(model(%s), torch.randn(4, 5))\n" % X,
        f"probe = F.cross_entropy(model({X}), torch.randint(0, 5, (4,)))", True),
}
RULES = resolve(None)


def _lint(text: str, analysis: Incremental | None = None) -> list:
    result = lint_decoded(text, "model.py", RULES, None, *([analysis] if analysis is not None else []))
    return [as_data(finding) for finding in result.findings]


def _last_line_codes(text: str) -> list[str]:
    last = len(text.splitlines())
    return [finding["code"] for finding in _lint(text) if finding["location"]["row"] == last]


@pytest.mark.parametrize("name", FINDINGS)
def test_the_findings_do_not_depend_on_an_earlier_question(name: str) -> None:
    plain, asked_early = _versions(FINDINGS[name])
    expected = ["SC106"] if FINDINGS[name][2] else []
    assert _last_line_codes(plain) == expected
    assert _last_line_codes(asked_early) == expected


@pytest.mark.parametrize("name", FINDINGS)
def test_the_server_finds_what_a_whole_file_lint_finds_after_adding_and_removing_the_earlier_question(
        name: str) -> None:
    plain, asked_early = _versions(FINDINGS[name])
    analysis = Incremental()
    for text in (plain, asked_early, plain, asked_early):
        assert _lint(text, analysis) == _lint(text), text


def test_a_notebook_cell_that_rebinds_a_name_an_earlier_cells_function_reads() -> None:
    """The model is built in the second cell, with `D = 5`; the third rebinds `D`; the fourth feeds the model:
    its output is (4, 5), whether or not a cell before asked about it."""
    cells = [HEAD + BUILD, "layer = build()\n", "D = 7\n",
             "out = layer(%s)\nloss = F.cross_entropy(out, torch.randn(4, 7))\n" % X]
    early = f"probe = F.cross_entropy(layer({X}), torch.randint(0, 5, (4,)))\n"
    for text in (notebook(*cells), notebook(cells[0], cells[1] + early, *cells[2:])):
        findings = [(finding.cell, finding.location.row, finding.code) for finding in found(text, "SC106").findings]
        assert findings == [(4, 2, "SC106")]
