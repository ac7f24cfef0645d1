"""Transposes and permutations (`transpose`, `permute`, `movedim`, `.T`, `.mT`): the dims reorder, and the memory
layout with them, so a later `view` can tell which dims are no longer neighbours in memory."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args, as_function
from shapecheck.shapes.positions import int_list, permuted, with_dims_named, with_rank
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def _transpose(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    first = ev.integer(args.get(0, "dim0", "axis0"), before)
    second = ev.integer(args.get(1, "dim1", "axis1"), before)
    if first is None or second is None:
        return None
    shape = with_dims_named(ev, shape, [first, second], args)
    if shape is None:
        return None
    a, b = shape.index(first), shape.index(second)
    if a is None or b is None:
        return None
    order = list(range(len(shape.dims)))
    order[a], order[b] = b, a
    return permuted(shape, order)


def _t(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    if shape.rank is not None and shape.rank < 2:
        return shape
    if shape.rank is None and len(shape.dims) < 2:
        # `.t()` takes a 0-d or 1-d tensor as it is: the code has not said which of those or a matrix this is
        return None
    shape = ev.materialized(shape, 2, id(args.call))
    if shape is None or shape.variadic is not None and len(shape.dims) > 2:
        return None
    shape = with_rank(ev, shape, 2, id(args.call))
    return permuted(shape, [1, 0]) if shape is not None else None


def _permute(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    listed = args.rest(0)
    if len(listed) == 1 and type(listed[0]) in (cst.Tuple, cst.List):
        listed = [e.value for e in listed[0].elements]
    elif not listed and args.keyword("dims") is not None and type(args.keyword("dims")) in (cst.Tuple, cst.List):
        listed = [e.value for e in args.keyword("dims").elements]
    dims = [ev.integer(expr, before) for expr in listed]
    if not dims or None in dims:
        return None
    shape = with_rank(ev, shape, len(dims), id(args.call))
    if shape is None:
        return None
    rank = len(dims)
    order = [d + rank if d < 0 else d for d in dims]
    if sorted(order) != list(range(rank)):
        return None
    return permuted(shape, order)


def _movedim(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sources = int_list(ev, args.get(0, "source"), before)
    targets = int_list(ev, args.get(1, "destination"), before)
    if sources is None or targets is None or len(sources) != len(targets) or shape.rank is None:
        return None
    rank = shape.rank
    sources = [s + rank if s < 0 else s for s in sources]
    targets = [t + rank if t < 0 else t for t in targets]
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets) or \
            any(not 0 <= d < rank for d in sources + targets):
        return None
    rest = iter(i for i in range(rank) if i not in sources)
    placed = dict(zip(targets, sources))
    return permuted(shape, [placed[i] if i in placed else next(rest) for i in range(rank)])


def attribute(ev: ShapeEvaluator, node: cst.Attribute, before: int) -> Shape | None:
    """`.T`, `.mT`, `.H`, `.mH`, `.data`, `.real`; `.values`/`.indices` of a reduction's result."""
    name = node.attr.value
    if ev.ctx.qualname(node) is not None:
        return None
    if name in ("values", "indices"):
        found = ev.items(node.value, before)
        return found.at(0 if name == "values" else 1) if found is not None else None  # type: ignore[return-value]
    shape = ev.tensor(node.value, before)
    if shape is None:
        return None
    if name in ("data", "grad", "real", "imag"):
        return shape.with_dtype("float") if name in ("real", "imag") else shape
    if name in ("T", "H"):
        if shape.rank is None:
            return None
        return replace(permuted(shape, list(reversed(range(shape.rank)))), permuted_by="." + name)
    if name in ("mT", "mH"):
        shape = ev.materialized(shape, 0, id(node), trailing=2)
        if shape is None or len(shape.dims) < 2 or shape.variadic is not None and \
                shape.variadic > len(shape.dims) - 2:
            return None
        order = list(range(len(shape.dims)))
        order[-1], order[-2] = order[-2], order[-1]
        return replace(permuted(shape, order), permuted_by="." + name)
    return None


def arguments_spelled(ctx, call: cst.Call) -> str:
    return ", ".join((f"{arg.keyword.value}=" if arg.keyword else "") + arg.star + ctx.code(arg.value)
                     for arg in call.args)


METHODS = {"transpose": _transpose, "swapaxes": _transpose, "swapdims": _transpose, "t": _t, "permute": _permute,
           "movedim": _movedim, "moveaxis": _movedim}
FUNCTIONS = {f"torch.{name}": as_function(handler) for name, handler in METHODS.items()}
