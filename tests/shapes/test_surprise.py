"""`shapes.surprise`: the size a broadcast multiplies out, also where one operand's rank is not known but its known
dims settle it."""

from __future__ import annotations

from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.surprise import surprise

N, M = Dim.symbol("n", "n"), Dim.symbol("m", "m")
ONE = Dim.of(1)


def test_a_column_of_unknown_rank_against_a_vector_of_its_first_size() -> None:
    """(n, ..., 1) against (n,): the 1 meets n whatever the dims between, and n is still in front: (n, ..., n)."""
    column = Shape((N, ONE), variadic=1)
    for a, b, operand in ((column, Shape((N,)), 0), (Shape((N,)), column, 1)):
        found = surprise(a, b)
        assert found is not None and found.size == N and found.operand == operand
        assert found.result.render() == "(n, ..., n)"


def test_what_the_known_dims_do_not_settle_is_no_surprise() -> None:
    """Another size (m), no size in front of the unknown run ((..., 1)), a vector of more dims than the known
    trailing ones, or a stretch the other way ((n, ..., m) against (1,)): nothing said."""
    assert surprise(Shape((N, ONE), variadic=1), Shape((M,))) is None
    assert surprise(Shape((ONE,), variadic=0), Shape((N,))) is None
    assert surprise(Shape((N, ONE), variadic=1), Shape((N, N))) is None
    assert surprise(Shape((N, M), variadic=1), Shape((ONE,))) is None
    assert surprise(Shape((N,), variadic=0), Shape((N, ONE), variadic=1)) is None
