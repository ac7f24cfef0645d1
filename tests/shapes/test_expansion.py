"""`expand` / `expand_as` that certainly raise: a dim that is not 1 kept only, sizes aligned from the right."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_a_dim_not_1_is_never_stretched() -> None:
    assert probe('''
        import torch
        adv = torch.randn(32, 6)
        weights = torch.rand(4, 8, 8)
        inp = torch.randn(4, 3, 8, 8)
        probe_conflict(adv.mean(1).expand_as(adv))
        probe_conflict(weights.unsqueeze(0).expand_as(inp))
        probe_conflict(weights.unsqueeze(1).expand_as(inp))
        probe_conflict(adv.expand(2, 32, 6))
        probe_conflict(adv.mean(1, keepdim=True).expand_as(adv))
    ''') == ["`adv.mean(1).expand_as(adv)`: adv.mean(1) is (32,), which can't be expanded to (32, 6): dim 0 is 32, "
             "not 1, and sizes are aligned from the right, so it would become 6",
             "`weights.unsqueeze(0).expand_as(inp)`: weights.unsqueeze(0) is (1, 4, 8, 8), which can't be expanded "
             "to (4, 3, 8, 8): dim 1 is 4, not 1, and sizes are aligned from the right, so it would become 3",
             None, None, None]


def test_new_leading_dims_and_too_few_sizes() -> None:
    assert probe('''
        import torch
        static = torch.randn(8, 5)
        probe_conflict(static.expand(-1, 12, -1))
        probe_conflict(static.unsqueeze(1).expand(-1, 12, -1))
        probe_conflict(static.expand(5))
        probe_conflict(static.expand(3, -1, -1))
    ''') == ["`static.expand(-1, 12, -1)`: static is (8, 5), which can't be expanded to (-1, 12, -1): a new leading "
             "dim can't be -1",
             None,
             "`static.expand(5)`: static is (8, 5), which can't be expanded to (5,): 1 sizes for 2 dims",
             None]


def test_sizes_not_proven_different_are_kept() -> None:
    assert probe('''
        import torch
        def f(x, n):
            B, T = x.shape
            probe_conflict(x.expand(n, T))
            probe_conflict(x.sum(1).expand_as(x))
            probe_conflict(x[:, :1].expand(B, n))
    ''') == [None, None, None]
