"""`expand` and `expand_as` that certainly raise: a dim that is not 1 can only be kept, never stretched to another
size ("The expanded size of the tensor (6) must match the existing size (32) at non-singleton dimension 1"), and the
sizes are aligned from the right, so `x.mean(1).expand_as(x)` on a (B, A) tensor lines the B means up with A."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.args import Args, shape_arguments
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Conflict
from shapecheck.shapes.views import WILDCARD

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

METHODS = frozenset({"expand", "expand_as"})
_ONE = Dim.of(1)


def expand_conflict(ev: ShapeEvaluator, node: cst.Call, before: int) -> Conflict | None:
    """`tensor.expand(*sizes)` / `tensor.expand_as(other)` whose sizes the tensor can't be expanded to."""
    assert type(node.func) is cst.Attribute
    tensor = node.func.value
    shape = ev.tensor(tensor, before)
    if shape is None or shape.variadic is not None:
        return None
    args = Args(node)
    if node.func.attr.value == "expand_as":
        other = args.get(0, "other")
        sizes = ev.tensor(other, before) if other is not None else None
    else:
        sizes = shape_arguments(ev, args, 0, "size", before)
    if sizes is None or sizes.variadic is not None:
        return None
    reason = _failure(shape, sizes)
    if reason is None:
        return None
    code = ev.ctx.code
    return Conflict("expand", node, (shape, sizes),
                    f"`{code(node)}`: {code(tensor)} is {shape.render()}, which can't be expanded to "
                    f"{sizes.render()}: {reason}")


def _failure(shape: Shape, sizes: Shape) -> str | None:
    """Why a tensor of `shape` can't take `sizes` (a -1 keeps a dim), proven; None when it can or may."""
    offset = len(sizes.dims) - len(shape.dims)
    if offset < 0:
        return f"{len(sizes.dims)} sizes for {len(shape.dims)} dims"
    if WILDCARD in sizes.dims[:offset]:
        return "a new leading dim can't be -1"
    for position, (dim, size) in enumerate(zip(shape.dims, sizes.dims[offset:])):
        if size == WILDCARD or same(dim, _ONE) is not False or same(dim, size) is not False:
            continue
        return f"dim {position} is {dim}, not 1, and sizes are aligned from the right, so it would become {size}"
    return None
