"""What ctx.shape_conflict proves: shapes that certainly raise, named in the code's own symbols."""

from __future__ import annotations

import textwrap

from tests.helpers import lint
from tests.shapes.probe import probe


def test_broadcast_cat_stack_and_view_counts() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B D"], y: Float[torch.Tensor, "B"], m: Float[torch.Tensor, "B 1"], n):
            probe_conflict(x + y)
            probe_conflict(x + m)
            probe_conflict(x * n)
            probe_conflict(torch.cat([x, m], dim=0))
            probe_conflict(torch.cat([x, m], dim=1))
            probe_conflict(torch.stack([x, m]))
            probe_conflict(torch.zeros(2, 3).view(4, 2))
            probe_conflict(torch.zeros(2, 3).view(3, -1))
            probe_conflict(torch.zeros(2, 3).view(4, -1))
    ''') == ["`x + y`: x is (B, D) and y is (B,): D and B don't broadcast", None, None,
             "cat needs every dim but dim 0 equal: (B, D), (B, 1)", None,
             "stack needs every dim equal: (B, D), (B, 1)",
             "`torch.zeros(2, 3).view(4, 2)`: a (2, 3) tensor has 6 elements, which can't be viewed as (4, 2)",
             None,
             "`torch.zeros(2, 3).view(4, -1)`: a (2, 3) tensor has 6 elements, which can't be viewed as (4, -1)"]


def test_flexible_symbols_never_conflict() -> None:
    assert probe('''
        import torch
        def f(a, b):
            B, D = a.shape
            N, E = b.shape
            probe_conflict(a @ b)
            probe_conflict(a + b)
            probe_conflict(torch.cat([a, b], dim=1))
    ''') == [None, None, None]


def test_cat_skips_an_empty_vector() -> None:
    # torch.cat ignores a 1-D tensor with no element, whatever the ranks of the others: the empty cache idiom.
    assert probe('''
        import torch
        def f(keys):
            cache = torch.tensor([])
            new = torch.randn(2, 4, 3, 8)
            probe_conflict(torch.cat((cache, new), dim=2))
            probe(torch.cat((cache, new), dim=2))
            probe_conflict(torch.cat((torch.zeros(1), new), dim=2))
    ''') == [None, "(2, 4, 3, 8)", "tensors of different ranks: (1,), (2, 4, 3, 8)"]


def test_a_regression_loss_of_shapes_that_cannot_broadcast_is_one_finding_sc105_s() -> None:
    # It raises as `pred - y` does: SC105's. SC104 keeps the losses that broadcast into another shape and only warn.
    source = textwrap.dedent('''
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        head = nn.Linear(16, 3)
        features = torch.randn(64, 16)
        loss = F.mse_loss(head(features), torch.randn(64, 2))
        error = nn.L1Loss()(head(features), torch.randn(64, 2))
        loss_fn = F.smooth_l1_loss
        smooth = loss_fn(head(features), torch.randn(64, 2))
        warned = F.mse_loss(nn.Linear(16, 1)(features), torch.randn(64))
    ''')
    assert [(finding.location.row, finding.code) for finding in lint(source, "SC104", "SC105").findings] == [
        (7, "SC105"), (8, "SC105"), (10, "SC105"), (11, "SC104")]
