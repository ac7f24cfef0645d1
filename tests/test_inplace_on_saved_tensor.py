"""SC216 reads a loop body as two iterations, einsum's saved operands and one-line helpers of graph tensors."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

MODULE = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    def feature_map(x):
        return F.elu(x) + 1
    def sizes(x):
        return x.shape
    class Scan(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.proj = nn.Linear(d, 2 * d)
        def forward(self, x):
            q, k = self.proj(x).chunk(2, dim=-1)
"""


def rows(body: str) -> list[int]:
    source = textwrap.dedent(MODULE) + textwrap.indent(textwrap.dedent(body), " " * 8)
    return [finding.location.row for finding in lint_text(source, "model.py", resolve(["SC216"])).findings]


def test_a_state_saved_late_in_one_iteration_and_changed_in_place_early_in_the_next() -> None:
    assert rows("""
        q = feature_map(q)
        state = x.new_zeros(x.size(0), x.size(2), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state += torch.einsum("nd,nm->ndm", k[:, i], k[:, i])
            outs.append(torch.einsum("nd,ndm->nm", q[:, i], state))
        return torch.stack(outs, 1)
    """) == [20]


def test_a_state_rebound_each_iteration_or_saved_by_nothing_is_clean() -> None:
    assert rows("""
        state = x.new_zeros(x.size(0), x.size(2), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state = state + torch.einsum("nd,nm->ndm", k[:, i], k[:, i])
            outs.append(torch.einsum("nd,ndm->nm", q[:, i], state))
        return torch.stack(outs, 1)
    """) == []
    assert rows("""
        total = x.new_zeros(x.size(0), x.size(2))
        for i in range(x.size(1)):
            total += q[:, i] + k[:, i]
        return total
    """) == []


def test_a_helper_s_result_is_in_the_graph_only_through_what_it_is_handed() -> None:
    assert rows("""
        n = sizes(q)[0]
        state = x.new_zeros(x.size(0), x.size(2))
        outs = []
        for i in range(n):
            state += k[:, i]
            outs.append(feature_map(q[:, i]) * state)
        return torch.stack(outs, 1)
    """) == [20]
    assert rows("""
        state = x.new_zeros(x.size(0), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state += x[:, i]
            outs.append(feature_map(x[:, i]) * state)
        return torch.stack(outs, 1)
    """) == []


L2NORM = """
    import torch
    import torch.nn as nn
    class L2Norm(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(c))
        def forward(self, x):
            norm = x.pow(2).sum(dim=1, keepdim=True).sqrt()
            x /= norm
            return self.weight.view(1, -1, 1, 1) * x
"""


def lint_l2norm(caller: str) -> list[int]:
    source = textwrap.dedent(L2NORM) + textwrap.dedent(caller)
    return [finding.location.row for finding in lint_text(source, "model.py", resolve(["SC216"])).findings]


def test_a_module_s_input_is_in_the_graph_when_a_call_of_its_instance_hands_it_a_layer_s_output() -> None:
    assert lint_l2norm("""
        class SSD(nn.Module):
            def __init__(self):
                super().__init__()
                self.features = nn.Conv2d(3, 8, 3)
                self.l2norm = L2Norm(8)
            def forward(self, images):
                x = self.features(images)
                return self.l2norm(x)
    """) == [10]
    # a script's instance, handed a convolution's output
    assert lint_l2norm("""
        conv, norm = nn.Conv2d(3, 8, 3), L2Norm(8)
        out = norm(conv(torch.randn(2, 3, 8, 8)))
    """) == [10]


def test_a_module_handed_raw_data_or_called_without_autograd_is_clean() -> None:
    assert lint_l2norm("""
        class SSD(nn.Module):
            def __init__(self):
                super().__init__()
                self.l2norm = L2Norm(3)
                self.features = nn.Conv2d(3, 8, 3)
            def forward(self, images):
                return self.features(self.l2norm(images))
        SSD()(torch.randn(2, 3, 8, 8))
    """) == []
    assert lint_l2norm("""
        conv, norm = nn.Conv2d(3, 8, 3), L2Norm(8)
        with torch.no_grad():
            out = norm(conv(torch.randn(2, 3, 8, 8)))
    """) == []
