"""jaxtyping annotations read statically, without importing jaxtyping."""

from __future__ import annotations

from shapecheck.shapes.annotations import parse_dims
from shapecheck.objects.dims import same
from tests.shapes.probe import probe


def test_parameter_annotations() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float, Int, Bool
        from torch import Tensor
        def f(x: Float[Tensor, "B T D"], ids: Int[Tensor, "B T"], m: Bool[torch.Tensor, "B 1 T"],
              s: Float[Tensor, ""], img: Float[Tensor, "*batch 3 H W"], a: Float[Tensor, "... d"]):
            probe(x), probe(ids), probe(m), probe(s), probe(img), probe(a)
            probe_dtype(x), probe_dtype(ids), probe_dtype(m)
    ''') == ["(B, T, D)", "(B, T)", "(B, 1, T)", "()", "(*batch, 3, H, W)", "(..., d)", "float", "int", "bool"]


def test_module_alias_and_quoted_annotation() -> None:
    assert probe('''
        import torch
        import jaxtyping as jt
        def f(x: jt.Float[torch.Tensor, "n c"], y: "jt.Int[torch.Tensor, 'n']"):
            probe(x), probe(y)
    ''') == ["(n, c)", "(n,)"]


def test_not_jaxtyping() -> None:
    assert probe('''
        import torch
        from mylib import Float
        def f(x: Float[torch.Tensor, "n c"], n: int):
            probe(x), probe(n)
    ''') == ["(...)", None]


def test_symbols_are_shared_within_a_function_and_rigid() -> None:
    dims, variadic, _ = parse_dims("B T D", owner=1)
    again, _, _ = parse_dims("B D", owner=1)
    other, _, _ = parse_dims("B", owner=2)
    assert variadic is None
    assert dims[0] == again[0] and dims[2] == again[1]
    assert same(dims[0], dims[1]) is False
    assert same(dims[0], other[0]) is False  # another function's B is another type variable


def test_open_sizes_literals_and_expressions() -> None:
    dims, _, _ = parse_dims("_ #B 3 c=4 n+1 2*d", owner=1)
    assert [str(d) for d in dims] == ["_", "B", "3", "4", "n + 1", "2 * d"]
    assert dims[0].rigid is False and dims[1].rigid is False  # any size; broadcastable (may be 1)
    assert parse_dims("*a *b", owner=1) is None
