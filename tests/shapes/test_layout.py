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


def test_a_view_that_splits_a_dim_and_merges_its_inner_part_with_a_dim_not_next_in_memory_fails() -> None:
    from shapecheck.objects.dims import Dim
    from shapecheck.shapes.shape import Shape
    from shapecheck.shapes.views import WILDCARD, layout_verdict

    T, B, H, D, E = (Dim.symbol(name, name) for name in "TBHDE")
    # (B * H, T, D).transpose(0, 1): T lies between H and D in memory
    merged_heads = Shape.of(T, B * H, D, layout=(1, 0, 2))
    assert "splits dim 1" in layout_verdict(merged_heads, (T, B, E))
    assert "splits dim 1" in layout_verdict(merged_heads, (T, B, WILDCARD))
    assert "splits dim 1" in layout_verdict(Shape.of(T, B * 4, D, layout=(1, 0, 2)), (T, B, WILDCARD))
    # splitting alone, or merging the inner part with the dim that follows it in memory, is a view
    assert layout_verdict(merged_heads, (T, B, H, D)) is None
    assert layout_verdict(Shape.of(E, T, B * H, D, layout=(1, 0, 2, 3)), (E, T, B, WILDCARD)) is None
    # a size that is no factor of the dim, or the whole dim, says nothing of a split
    assert layout_verdict(merged_heads, (T, E, WILDCARD)) is None
    assert layout_verdict(Shape.of(T, B, D, layout=(1, 0, 2)), (T, B, D)) is None


def test_a_view_whose_end_puts_a_1_where_a_symbolic_dim_stands_may_merge_nothing_out_of_order() -> None:
    from shapecheck.objects.dims import Dim
    from shapecheck.shapes.shape import Shape
    from shapecheck.shapes.views import WILDCARD, layout_verdict

    C, H, W = (Dim.symbol(name, name) for name in "CHW")
    one = Dim.of(1)
    # `img.permute(1, 2, 0)` of a (C, H, W) image: with C == 1, `.view(-1, 1)` merges only H and W
    channels_last = Shape.of(H, W, C, layout=(1, 2, 0))
    assert layout_verdict(channels_last, (WILDCARD, one)) is None
    # without the 1, or with three channels, the view must merge C out of order
    assert "merges dims 0, 1 and 2" in layout_verdict(channels_last, (WILDCARD,))
    assert "merges dims" in layout_verdict(Shape.of(H, W, Dim.of(3), layout=(1, 2, 0)), (WILDCARD, one))
    # a 1 that stands where H does, at the other end, leaves W and C merged out of order
    assert "merges dims" in layout_verdict(channels_last, (one, WILDCARD))
