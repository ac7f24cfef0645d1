"""einops: `rearrange`, `repeat` and `reduce` give the pattern's output shape, recognised by import only; a pattern
the input certainly cannot match (another number of dims without `...`, a group whose sizes don't multiply to its
dim) is a conflict; anything unknown stays silent."""

from __future__ import annotations

import pytest

from tests.shapes.probe import probe


def test_the_output_of_rearrange_repeat_and_reduce() -> None:
    assert probe('''
        import torch
        import einops
        from einops import rearrange, repeat, reduce
        def f(b: int, n: int, heads: int):
            q = torch.randn(b, n, 512)
            image = torch.randn(b, 3, 32, 32)
            probe(rearrange(q, "b n (h d) -> b h n d", h=8))
            probe(rearrange(q, "b n (h d) -> b h n d", h=heads))
            probe(rearrange(image, "b c h w -> b (h w) c"))
            probe(einops.rearrange(image, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4))
            probe(repeat(torch.randn(1, 1, 64), "() n d -> b n d", b=b))
            probe(repeat(torch.randn(64), "d -> b 1 d", b=b))
            probe(reduce(image, "b c h w -> b c", "mean"))
            probe(reduce(image, "b c (h 2) (w 2) -> b c h w", "max"))
            probe(rearrange(image, "b ... -> b (...)"))
            probe(rearrange(image, "... h w -> ... (h w)"))
            probe(reduce(image, "b c ... -> b c", "sum"))
    ''') == ["(b, 8, n, 64)", "(b, heads, n, 512 // heads)", "(b, 1024, 3)", "(b, 64, 48)", "(b, 1, 64)",
             "(b, 1, 64)", "(b, 3)", "(b, 3, 16, 16)", "(b, 3072)", "(b, 3, 1024)", "(b, 3)"]


def test_unknown_stays_unknown() -> None:
    """A pattern held in a parameter, an input of unknown shape, `**sizes`, an axis named twice, two unknown members
    of a group, a repeat's new axis without a size, a size of no axis, an
    anonymous axis a repeat cannot add, einops bound to a name of the project: no shape."""
    assert probe('''
        import torch
        from einops import rearrange, repeat
        from mylib import rearrange as mine
        def f(x, pattern, sizes, k):
            q = torch.randn(2, 10, 512)
            probe(rearrange(q, pattern))
            probe(rearrange(x, "b n d -> b d n"))
            probe(rearrange(q, "b n (h d) -> b h n d", **sizes))
            probe(rearrange(q, "b n (h d) -> b h n d"))
            probe(rearrange(q, "b b d -> b d"))
            probe(repeat(q, "b n d -> b n d r"))
            probe(mine(q, "b n d -> b d n"))
            probe(rearrange(q, "b n d -> b d n", h=8))
            probe(repeat(q, "b (n 2) d -> b n d"))
            probe(q.rearrange("b n d -> b d n") if hasattr(q, "rearrange") else None)
    ''') == [None] * 10


def test_patterns_the_input_cannot_match() -> None:
    assert probe('''
        import torch
        from einops import rearrange, repeat, reduce
        def f(x, n: int, heads: int):
            q = torch.randn(2, 10, 500)
            probe_conflict(rearrange(q, "b n (h d) -> b h n d", h=8))
            probe_conflict(rearrange(q, "b n (h d) -> b h n d", h=heads))
            probe_conflict(rearrange(torch.randn(2, 3, 32, 32), "b n d -> b d n"))
            probe_conflict(rearrange(torch.randn(5), "b ... d -> b d ..."))
            probe_conflict(rearrange(q, "b n (h d) -> b h n d", h=4, d=100))
            probe_conflict(rearrange(q, "b n d -> b d n", d=512))
            probe_conflict(repeat(q, "() n d -> b n d", b=4))
            probe_conflict(reduce(torch.randn(n, 3), "b c -> b", "mean"))
            probe_conflict(rearrange(x, "b n d -> b d n"))
    ''') == ['`rearrange(q, "b n (h d) -> b h n d", h=8)`: the pattern\'s left side (b n (h d)) needs dim 2, '
             '(h d), to be a multiple of 8, but q is (2, 10, 500)',
             None,
             '`rearrange(torch.randn(2, 3, 32, 32), "b n d -> b d n")`: the pattern\'s left side (b n d) names 3 '
             'dims, but torch.randn(2, 3, 32, 32) is (2, 3, 32, 32)',
             '`rearrange(torch.randn(5), "b ... d -> b d ...")`: the pattern\'s left side (b ... d) names 2 dims or '
             'more, but torch.randn(5) is (5,)',
             '`rearrange(q, "b n (h d) -> b h n d", h=4, d=100)`: the pattern\'s left side (b n (h d)) needs dim 2, '
             '(h d), to be 400, but q is (2, 10, 500)',
             '`rearrange(q, "b n d -> b d n", d=512)`: the pattern\'s left side (b n d) needs dim 2, d, to be 512, '
             'but q is (2, 10, 500)',
             '`repeat(q, "() n d -> b n d", b=4)`: the pattern\'s left side (() n d) needs dim 0, (), to be 1, but '
             'q is (2, 10, 500)',
             None, None]


def test_shapes_agree_with_einops() -> None:
    """The shapes the tests above expect are einops' own."""
    einops = pytest.importorskip("einops")
    torch = pytest.importorskip("torch")
    b, n = 2, 10
    q, image = torch.randn(b, n, 512), torch.randn(b, 3, 32, 32)
    assert einops.rearrange(q, "b n (h d) -> b h n d", h=8).shape == (b, 8, n, 64)
    assert einops.rearrange(image, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4).shape == (b, 64, 48)
    assert einops.repeat(torch.randn(1, 1, 64), "() n d -> b n d", b=b).shape == (b, 1, 64)
    assert einops.repeat(torch.randn(64), "d -> b 1 d", b=b).shape == (b, 1, 64)
    assert einops.reduce(image, "b c (h 2) (w 2) -> b c h w", "max").shape == (b, 3, 16, 16)
    assert einops.rearrange(image, "b ... -> b (...)").shape == (b, 3072)
    assert einops.rearrange(image, "... h w -> ... (h w)").shape == (b, 3, 1024)
    assert einops.reduce(image, "b c ... -> b c", "sum").shape == (b, 3)
    for pattern, sizes in [("b n (h d) -> b h n d", {"h": 8}), ("b n (h d) -> b h n d", {"h": 4, "d": 100}),
                           ("b n d -> b d n", {"d": 512})]:
        with pytest.raises(einops.EinopsError):
            einops.rearrange(torch.randn(2, 10, 500), pattern, **sizes)
    with pytest.raises(einops.EinopsError):
        einops.rearrange(torch.randn(2, 3, 32, 32), "b n d -> b d n")
    with pytest.raises(einops.EinopsError):
        einops.rearrange(torch.randn(5), "b ... d -> b d ...")
    with pytest.raises(einops.EinopsError):
        einops.repeat(torch.randn(2, 10, 500), "() n d -> b n d", b=4)
