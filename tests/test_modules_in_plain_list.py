"""SC217 reads what the constructions of a layer class hand the constructor parameter it fills its list from."""

from __future__ import annotations

import textwrap

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

MERGE = """
    import torch
    import torch.nn as nn
    class Merge(nn.Module):
        def __init__(self, layers):
            super().__init__()
            self.layers = {container}
            for layer in layers:
                self.layers.append(layer)
    def branch(k):
        return nn.Sequential(nn.Conv1d(4, 4, k), nn.ReLU())
    class Net(nn.Module):
        def __init__(self, sizes, given):
            super().__init__()
            {build}
"""


def rows(build: str, container: str = "[]") -> list[int]:
    source = textwrap.dedent(MERGE).format(build=build, container=container)
    return [finding.location.row for finding in lint_text(source, "net.py", resolve(["SC217"])).findings]


@pytest.mark.parametrize("build", [
    "self.merge = Merge([branch(k) for k in sizes])",
    "branches = [branch(k) for k in sizes]; self.merge = Merge(branches)",
    "self.merge = Merge([nn.Linear(4, 4), nn.ReLU()])",
])
def test_every_construction_hands_it_layers_with_parameters(build: str) -> None:
    assert rows(build) == [7]


@pytest.mark.parametrize("build", [
    "self.merge = Merge([nn.ReLU(), nn.Identity()])",  # nothing to register
    "self.merge = Merge(given)",  # not known
    "self.merge = Merge([branch(k) for k in sizes]); self.other = Merge(given)",  # one construction not known
    # the list built with layers is emptied before it is handed on: the literal no longer tells what it holds
    "branches = [branch(k) for k in sizes]; branches.clear(); branches.append(nn.ReLU()); self.merge = Merge(branches)",
    "branches = [branch(k) for k in sizes]; branches[0] = nn.ReLU(); self.merge = Merge(branches)",
])
def test_layers_without_parameters_or_not_known_are_clean(build: str) -> None:
    assert rows(build) == []


def test_a_module_list_registers_them() -> None:
    assert rows("self.merge = Merge([branch(k) for k in sizes])", container="nn.ModuleList()") == []


SEQUENTIAL_SUBCLASS = """
    from torch import nn
    class Head(nn.Sequential):
        def __init__(self, sizes):
            self.layers = [nn.Linear(a, b) for a, b in zip(sizes, sizes[1:])]
            super().__init__({handed})
"""


def test_a_container_subclass_registers_what_it_hands_its_base() -> None:
    def rows(handed: str) -> list[int]:
        source = textwrap.dedent(SEQUENTIAL_SUBCLASS).replace("{handed}", handed)
        return [f.location.row for f in lint_text(source, "head.py", resolve(["SC217"])).findings]

    assert rows("*self.layers") == []
    assert rows("") == [5]  # the base is built empty: the list's layers are nobody's


MMOE = """
    import torch
    import torch.nn as nn


    def mlp(dims):
        return nn.Sequential(*[LAYER for d_in, d_out in zip(dims[:-1], dims[1:])])


    class MultiGateMoE(nn.Module):
        def __init__(self, config):
            super().__init__()
            dims = [config["input_dim"]] + config["expert_hidden"]
            self.experts = EXPERTS
            self.gates = nn.ModuleList([nn.Linear(config["input_dim"], config["n_experts"]) for _ in config["tasks"]])

        def forward(self, x):
            h = torch.stack([e(x) for e in self.experts], dim=-1)
            return [(h * torch.softmax(g(x), -1).unsqueeze(1)).sum(-1) for g in self.gates]
"""


def test_experts_a_helper_builds_from_config_sizes_the_code_does_not_state() -> None:
    """The MMoE's experts, each `nn.Sequential(*[nn.Linear(...) for ...])` over the config's sizes: however many
    layers each gets, they are linear layers, left out of `.parameters()` by the plain list."""
    def rows(layer: str, experts: str) -> list[int]:
        source = textwrap.dedent(MMOE.replace("LAYER", layer).replace("EXPERTS", experts))
        return [finding.location.row for finding in lint_text(source, "model.py", resolve(["SC217"])).findings]

    assert rows("nn.Linear(d_in, d_out)", '[mlp(dims) for _ in range(config["n_experts"])]') == [14]
    assert rows("nn.Linear(d_in, d_out)", 'nn.ModuleList([mlp(dims) for _ in range(config["n_experts"])])') == []
    # layers without weights, however many
    assert rows("nn.Dropout(0.1)", '[mlp(dims) for _ in range(config["n_experts"])]') == []
    # the elements of a starred list with more arguments after it: not told by the list's elements
    assert rows("nn.Linear(d_in, d_out)", '[nn.Sequential(*[nn.Identity() for _ in dims], nn.Identity())]') == []
