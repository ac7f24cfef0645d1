"""Memory layout: what transpose/permute/T/mT/movedim do to it, and what contiguous/reshape/clone undo."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_permutations_reorder_the_layout() -> None:
    assert probe('''
        import torch
        x = torch.randn(2, 3, 4)
        probe(x.transpose(1, 2)), probe_layout(x.transpose(1, 2))
        probe(x.permute(2, 0, 1)), probe_layout(x.permute(2, 0, 1))
        probe(x.mT), probe_layout(x.mT)
        probe(x.T), probe_layout(x.T)
        probe(torch.movedim(x, 0, -1)), probe_layout(torch.movedim(x, 0, -1))
        probe_layout(x.swapaxes(0, 2).swapaxes(0, 2))
        probe(torch.randn(2, 3).t())
    ''') == ["(2, 4, 3)", (0, 2, 1), "(4, 2, 3)", (2, 0, 1), "(2, 4, 3)", (0, 2, 1), "(4, 3, 2)", (2, 1, 0),
             "(3, 4, 2)", (1, 2, 0), (0, 1, 2), "(3, 2)"]


def test_what_restores_row_major_and_what_keeps_the_layout() -> None:
    assert probe('''
        import torch
        y = torch.randn(2, 3, 4).transpose(0, 1)
        probe_layout(y.contiguous())
        probe_layout(y.reshape(6, 4))
        probe_layout(y.clone(memory_format=torch.contiguous_format))
        probe_layout(y.clone())
        probe_layout(y.float().detach())
        probe_layout(torch.relu(y) * 2)
        probe_layout(y.view(3, 2, 4))
        probe_layout(y.view(3, 8))
        probe_layout(y @ torch.randn(4, 5))
        probe_layout(y[0])
        probe_layout(y.unsqueeze(0))
    ''') == [(0, 1, 2), (0, 1), (0, 1, 2), (1, 0, 2), (1, 0, 2), (1, 0, 2), (1, 0, 2), None, (0, 1, 2), (0, 1),
             (1, 2, 0, 3)]


def test_unknown_rank_tensors_name_the_dims_a_permute_touches() -> None:
    assert probe('''
        import torch
        def f(x):
            probe(x.transpose(0, 1))
            probe_layout(x.transpose(0, 1))
            probe(x.permute(0, 2, 1))
            probe(x.mT)
    ''') == ["(d1, d0, ...)", (1, 0), "(d0, d2, d1)", "(..., d-1, d-2)"]


def test_dims_of_an_unknown_run_are_named_only_where_they_cannot_overlap_known_ones() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "*batch n m"], y):
            probe(x.transpose(0, 1))
            probe(x.transpose(-1, -2))
            probe(y.transpose(0, 1).mT)
    ''') == [None, "(*batch, m, n)", None]


def test_an_elementwise_result_keeps_the_layout_of_a_left_operand_with_every_dim() -> None:
    assert probe('''
        import torch
        scores = torch.randn(16, 5)
        top = scores.t()
        probe_layout(top.eq(torch.randint(0, 5, (1, 16)).expand_as(top)))
        probe_layout(top == torch.randn(5, 1))
        probe_layout(top * torch.randn(16))
        probe_layout(torch.randn(5, 16) + top)
        probe_layout(torch.randn(1, 16) + top)
    ''') == [(1, 0), (1, 0), (1, 0), (0, 1), None]
