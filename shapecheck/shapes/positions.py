"""Dims by position, for the transfer functions: where a `dim` argument points, and the shape surgery they share
(insert, drop, permute or replace a dim; name the dims an argument reaches in a tensor of unknown rank)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args
from shapecheck.objects.dims import Atom, Dim
from shapecheck.objects.values import Seq
from shapecheck.shapes.shape import MAX_RANK, Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def opaque(key: object, name: str, at_most: int | None = None, last: int | None = None) -> Dim:
    """A size only known to be itself (a chunk of a symbolic size, a conv output of unknown kernel), and at most
    `at_most` when that is given (and `last` on a loop's last pass, see `Atom.last`)."""
    return Dim((((Atom(key, name, compound=True, at_most=at_most, last=last),), 1),))


def dim_position(ev: ShapeEvaluator, shape: Shape, expr: cst.BaseExpression | None, before: int) -> int | None:
    """The position in `shape.dims` of the dim a `dim` argument names; None when it can't be told."""
    dim = ev.integer(expr, before)
    return None if dim is None else shape.index(dim)


def insert_position(shape: Shape, dim: int) -> int | None:
    """Where `unsqueeze(dim)` puts the new dim, as a position in the result's dims."""
    if shape.variadic is None:
        rank = len(shape.dims)
        position = dim if dim >= 0 else dim + rank + 1
        return position if 0 <= position <= rank else None
    if dim >= 0:
        return dim if dim <= shape.variadic else None
    position = len(shape.dims) + dim + 1
    return position if position >= shape.variadic else None


def dropped(shape: Shape, positions: set[int]) -> Shape:
    """`shape` without the dims at `positions`; row-major order of the remaining memory ranks kept."""
    kept = [i for i in range(len(shape.dims)) if i not in positions]
    dims = tuple(shape.dims[i] for i in kept)
    layout = _renumbered([shape.layout[i] for i in kept]) if shape.layout is not None else None
    variadic = None
    if shape.variadic is not None:
        variadic = shape.variadic - sum(1 for p in positions if p < shape.variadic)
    return Shape(dims, variadic, shape.variadic_name, layout, shape.dtype)


def _renumbered(ranks: list[int]) -> tuple[int, ...]:
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    result = [0] * len(ranks)
    for new, i in enumerate(order):
        result[i] = new
    return tuple(result)


def inserted(shape: Shape, position: int, dim: Dim) -> Shape:
    """`shape` with `dim` inserted at `position` (a size-1 dim for unsqueeze / None indexing)."""
    dims = shape.dims[:position] + (dim,) + shape.dims[position:]
    layout = None
    if shape.layout is not None:
        # the new dim sits in memory right before the dim that follows it logically (or last)
        following = shape.layout[position] if position < len(shape.layout) else len(shape.layout)
        shifted = [r + 1 if r >= following else r for r in shape.layout]
        layout = tuple(shifted[:position]) + (following,) + tuple(shifted[position:])
    variadic = shape.variadic
    if variadic is not None and position < variadic or variadic == position and position == 0:
        variadic += 1
    return Shape(dims, variadic, shape.variadic_name, layout, shape.dtype)


def permuted(shape: Shape, order: list[int]) -> Shape:
    dims = tuple(shape.dims[i] for i in order)
    layout = tuple(shape.layout[i] for i in order) if shape.layout is not None else None
    return Shape(dims, shape.variadic, shape.variadic_name, layout, shape.dtype)


def with_rank(ev: ShapeEvaluator, shape: Shape, rank: int, owner: object) -> Shape | None:
    """`shape` now known to have exactly `rank` dims (a permute names them all)."""
    if shape.variadic is None:
        return shape if len(shape.dims) == rank else None
    missing = rank - len(shape.dims)
    if missing < 0 or rank > MAX_RANK:
        return None
    v = shape.variadic
    new = tuple(Dim.symbol(("dim", owner, i), f"d{i}", placeholder=True) for i in range(v, v + missing))
    layout = None
    if shape.layout is not None:
        def moved(r: int) -> int:
            return r if r < v else r + missing
        layout = tuple(moved(r) for r in shape.layout[:v]) + tuple(range(v, v + missing)) + \
            tuple(moved(r) for r in shape.layout[v:])
    return Shape(shape.dims[:v] + new + shape.dims[v:], None, "...", layout, shape.dtype)


def with_dims_named(ev: ShapeEvaluator, shape: Shape, positions: list[int], args: Args) -> Shape | None:
    """`shape` with the dims that dim arguments name (from the front or, negative, from the back) named."""
    leading = max((p + 1 for p in positions if p >= 0), default=0)
    trailing = max((-p for p in positions if p < 0), default=0)
    return ev.materialized(shape, leading, id(args.call), trailing)


def int_list(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int) -> list[int] | None:
    if expr is None:
        return None
    if type(expr) in (cst.Tuple, cst.List):
        values = [ev.integer(e.value, before) for e in expr.elements]
        return None if None in values else values  # type: ignore[return-value]
    single = ev.integer(expr, before)
    if single is not None:
        return [single]
    # `dims = (0, 2, 3)` then `torch.sum(x, dims)`: the ints a name (an attribute, a constant) holds
    held = ev.object(expr, before)
    if not isinstance(held, Seq) or not held.complete or not held.items:
        return None
    values = [item.literal if isinstance(item, Dim) else None for item in held.items]
    return None if None in values else values  # type: ignore[return-value]


def replaced(shape: Shape, position: int, dim: Dim) -> Shape:
    dims = shape.dims[:position] + (dim,) + shape.dims[position + 1:]
    return Shape(dims, shape.variadic, shape.variadic_name, shape.layout, shape.dtype)
