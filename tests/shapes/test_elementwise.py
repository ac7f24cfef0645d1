"""Broadcasting elementwise ops: operators, methods, torch functions, activations, comparisons."""

from __future__ import annotations

from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import Shape
from tests.shapes.probe import probe

N = Dim.symbol("N", "N")


def test_broadcast_aligns_from_the_right() -> None:
    assert broadcast(Shape.of(3, 1, 4), Shape.of(2, 4)).shape.render() == "(3, 2, 4)"
    assert broadcast(Shape.of(3, 4), Shape.of(3)).mismatch == (1, Dim.of(4), Dim.of(3))
    assert broadcast(Shape.of(3, 4), Shape.of(3)).shape is None


def test_broadcast_reports_stretches() -> None:
    result = broadcast(Shape.of(N, 1), Shape.of(N))
    assert result.shape.render() == "(N, N)"
    assert [(s.position, s.operand, str(s.size), s.missing) for s in result.stretched] == [
        (0, 1, "N", True), (1, 0, "N", False)]


def test_a_broadcast_of_two_sizes_spelled_alike_prints_the_name_once() -> None:
    # distilbert's `bs` of `forward` against the `bs` a nested `unshape` read: "bs|bs|bs" in the message before
    caller, nested, other = Dim.symbol("forward.bs", "bs"), Dim.symbol("unshape.bs", "bs"), Dim.symbol("T", "T")
    assert broadcast(Shape.of(caller, 4), Shape.of(nested, 4)).shape.render() == "(bs, 4)"
    assert broadcast(Shape.of(caller), Shape.of(other)).shape.render() == "(bs|T,)"


def test_operators_and_functions() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B T D"], b: Float[torch.Tensor, "D"], m: Float[torch.Tensor, "B 1 1"]):
            probe(x + b)
            probe(x * 2.0 - 1)
            probe(m * x)
            probe(F.relu(x))
            probe(torch.sigmoid(x).exp())
            probe(x.softmax(-1))
            probe(-x)
            probe(x > 0)
            probe_dtype(x > 0)
            probe(torch.where(x > 0, x, 0.0))
            probe(x.masked_fill(m > 0, 0.0))
            probe(x.float().to(torch.float16).detach().contiguous())
            probe_dtype(x.long())
    ''') == ["(B, T, D)"] * 3 + ["(B, T, D)"] * 5 + ["bool", "(B, T, D)", "(B, T, D)", "(B, T, D)", "int"]


def test_operand_of_unknown_shape_gives_unknown() -> None:
    assert probe('''
        import torch
        def f(x, scale):
            y = torch.zeros(3, 4)
            probe(y * scale)
            probe(y * 2)
    ''') == ["(..., 3, 4)", "(3, 4)"]  # scale may be a number or a tensor of any rank


def test_a_tensor_exponent_broadcasts() -> None:
    # pytorch/tutorials' polynomial features: x (2000,) unsqueezed against p (3,) gives (2000, 3), not x's shape
    assert probe('''
        import torch
        x, p = torch.randn(2000), torch.tensor([1, 2, 3])
        probe(x.unsqueeze(-1).pow(p))
        probe(torch.pow(x.unsqueeze(-1), p))
        probe(x.pow(2))
        probe(torch.pow(2, x))
        probe(x.float_power(p.unsqueeze(-1)))
        probe(x.pow(gamma))
    ''') == ["(2000, 3)", "(2000, 3)", "(2000,)", "(2000,)", "(3, 2000)", None]
