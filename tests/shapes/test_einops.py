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
    ''') == ['`rearrange(q, "b n (h d) -> b h n d", h=8)`: q is (2, 10, 500): dim 2 is 500, but the pattern\'s left '
             'side (b n (h d)) expects (h d) = a multiple of 8',
             None,
             '`rearrange(torch.randn(2, 3, 32, 32), "b n d -> b d n")`: torch.randn(2, 3, 32, 32) is (2, 3, 32, 32): 4 '
             'dims, but the pattern\'s left side (b n d) expects 3 dims',
             '`rearrange(torch.randn(5), "b ... d -> b d ...")`: torch.randn(5) is (5,): 1 dim, but the pattern\'s '
             'left side (b ... d) expects 2 dims or more',
             '`rearrange(q, "b n (h d) -> b h n d", h=4, d=100)`: q is (2, 10, 500): dim 2 is 500, but the pattern\'s '
             'left side (b n (h d)) expects (h d) = 400',
             '`rearrange(q, "b n d -> b d n", d=512)`: q is (2, 10, 500): dim 2 is 500, but the pattern\'s left side '
             '(b n d) expects d = 512',
             '`repeat(q, "() n d -> b n d", b=4)`: q is (2, 10, 500): dim 0 is 2, but the pattern\'s left side '
             '(() n d) expects () = 1',
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
    for call in (lambda: einops.rearrange(torch.randn(2, 10, 512), "b n d -> b d n", h=8),
                 lambda: einops.repeat(torch.randn(2, 10, 512), "b (n 2) d -> b n d")):
        with pytest.raises(einops.EinopsError):  # what the analysis leaves unknown is an error too
            call()
    layers = pytest.importorskip("einops.layers.torch")
    to_patches = torch.nn.Sequential(layers.Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4),
                                     torch.nn.Linear(48, 192))
    assert to_patches(torch.randn(2, 3, 32, 32)).shape == (2, 64, 192)
    assert layers.Reduce("b n d -> b d", "mean")(torch.randn(2, 64, 192)).shape == (2, 192)
    with pytest.raises(einops.EinopsError):
        to_patches(torch.randn(2, 3, 30, 32))
    with pytest.raises((einops.EinopsError, KeyError)):  # the layer finds no recipe for a 2-d input
        layers.Reduce("b n d -> b d", "mean")(torch.randn(2, 192))


def test_the_layers_in_a_sequential() -> None:
    """`Rearrange`/`Reduce` from `einops.layers.torch`, bound or in an `nn.Sequential`: the same pattern, and a
    Linear after them meets (or not) the features they make."""
    assert probe('''
        import torch
        from torch import nn
        from einops.layers.torch import Rearrange, Reduce
        to_patches = nn.Sequential(Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4), nn.Linear(48, 192))
        pool = Reduce("b n d -> b d", "mean")
        to_tokens = nn.Sequential(Rearrange("b c h w -> b (h w) c"), nn.Linear(64, 10))
        probe(to_patches(torch.randn(2, 3, 32, 32)))
        probe(pool(torch.randn(2, 64, 192)))
        probe_conflict(to_patches(torch.randn(2, 3, 30, 32)))
        probe_conflict(to_tokens(torch.randn(2, 3, 8, 8)))
        probe_conflict(pool(torch.randn(2, 192)))
    ''') == ["(2, 64, 192)", "(2, 192)",
             '`to_patches(torch.randn(2, 3, 30, 32))`: the input is (2, 3, 30, 32): dim 2 is 30, but in `to_patches` '
             '= nn.Sequential(...), `Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4)` expects '
             '(h p1) = a multiple of 4',
             '`to_tokens(torch.randn(2, 3, 8, 8))`: the input is (2, 3, 8, 8): 3 features (last dim), but in '
             '`to_tokens` = nn.Sequential(...), `nn.Linear(64, 10)` expects 64',
             '`pool(torch.randn(2, 192))`: the input is (2, 192): 2 dims, but `pool` = Reduce("b n d -> b d", "mean") '
             'expects 3 dims']
