"""Reshaping: `view`, `reshape`, `flatten`, `unflatten`, `squeeze`, `unsqueeze`, `expand`, `repeat`; a view of a
permuted tensor keeps an unknown layout (its strides depend on which dims it splits)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shapecheck.shapes.args import Args, as_function, dtype_of, shape_arguments
from shapecheck.objects.dims import Dim
from shapecheck.shapes.positions import dim_position, dropped, insert_position, inserted, int_list
from shapecheck.shapes.views import WILDCARD, layout_verdict, product, reshaped
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def _view(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    if args.starred is None and args.count() == 1 and dtype_of(ev, args.get(0)) is not None:
        return None  # `.view(torch.int16)` reinterprets the bytes
    sizes = shape_arguments(ev, args, 0, "size", before)
    return reshaped(shape, sizes, copies=False, owner=id(args.call)) if sizes is not None else None


def _reshape(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sizes = shape_arguments(ev, args, 0, "shape", before)
    if sizes is None:
        return None
    copies = not shape.contiguous and layout_verdict(shape, sizes.dims) is not None if sizes.variadic is None \
        else False
    return reshaped(shape, sizes, copies=copies, owner=id(args.call))


def _view_as(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = ev.tensor(args.get(0, "other"), before)
    if other is None:
        return None
    return reshaped(shape, Shape(other.dims, other.variadic, other.variadic_name), copies=False,
                    owner=id(args.call))


def _flatten(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    start = ev.integer(args.get(0, "start_dim"), before) if args.get(0, "start_dim") is not None else 0
    end = ev.integer(args.get(1, "end_dim"), before) if args.get(1, "end_dim") is not None else -1
    if start is None or end is None or shape.rank is None:
        return None
    rank = max(shape.rank, 1)
    first, last = start % rank, end % rank
    if first > last:
        return None
    if shape.rank == 0:
        return Shape((Dim.of(1),), layout=(0,), dtype=shape.dtype)
    dims = shape.dims[:first] + (product(shape.dims[first:last + 1]),) + shape.dims[last + 1:]
    sizes = Shape(dims)
    copies = not shape.contiguous and layout_verdict(shape, dims) is not None
    return reshaped(shape, sizes, copies=copies, owner=id(args.call))


def _unflatten(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = dim_position(ev, shape, args.get(0, "dim"), before)
    sizes = ev.sizes(args.get(1, "sizes"), before)
    if position is None or sizes is None or sizes.variadic is not None:
        return None
    dims = list(sizes.dims)
    if WILDCARD in dims:
        index = dims.index(WILDCARD)
        dims[index] = shape.dims[position] // product(d for d in dims if d != WILDCARD)
    new = shape.dims[:position] + tuple(dims) + shape.dims[position + 1:]
    layout = tuple(range(len(new))) if shape.contiguous else None
    variadic = shape.variadic
    if variadic is not None and variadic > position:
        variadic += len(dims) - 1
    return Shape(new, variadic, shape.variadic_name, layout, shape.dtype)


def _squeeze(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    target = args.get(0, "dim")
    if target is None:
        if shape.variadic is not None or any(d.literal is None for d in shape.dims):
            return None  # which dims are 1 can't be told
        return dropped(shape, {i for i, d in enumerate(shape.dims) if d.literal == 1})
    listed = int_list(ev, target, before)
    if listed is None:
        return None
    positions = set()
    for dim in listed:
        position = shape.index(dim)
        if position is None:
            return None
        size = shape.dims[position].literal
        if size == 1:
            positions.add(position)
        elif size is None:
            return None  # squeezing a dim that may or may not be 1
    return dropped(shape, positions)


def _unsqueeze(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    dim = ev.integer(args.get(0, "dim"), before)
    if dim is None:
        return None
    position = insert_position(shape, dim)
    return inserted(shape, position, Dim.of(1)) if position is not None else None


def _aligned(ev: ShapeEvaluator, shape: Shape, args: Args, keyword: str, before: int) -> tuple[Shape, int] | None:
    """The sizes `expand`/`repeat` take, and how many leading dims they add in front of the tensor's."""
    sizes = shape_arguments(ev, args, 0, keyword, before)
    if sizes is None or sizes.variadic is not None or shape.variadic is not None:
        return None
    offset = len(sizes.dims) - len(shape.dims)
    return (sizes, offset) if offset >= 0 else None


def _expand(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    aligned = _aligned(ev, shape, args, "size", before)
    if aligned is None:
        return None
    sizes, offset = aligned
    dims = []
    for i, size in enumerate(sizes.dims):
        if size == WILDCARD:
            if i < offset:
                return None
            size = shape.dims[i - offset]
        dims.append(size)
    return Shape(tuple(dims), layout=None, dtype=shape.dtype)


def _expand_as(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = ev.tensor(args.get(0, "other"), before)
    return Shape(other.dims, other.variadic, other.variadic_name, None, shape.dtype) if other is not None else None


def _repeat(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    aligned = _aligned(ev, shape, args, "repeats", before)
    if aligned is None:
        return None
    sizes, offset = aligned
    dims = tuple(size * (shape.dims[i - offset] if i >= offset else Dim.of(1)) for i, size in enumerate(sizes.dims))
    return Shape(dims, layout=tuple(range(len(dims))), dtype=shape.dtype)


METHODS = {"view": _view, "reshape": _reshape, "view_as": _view_as, "reshape_as": _view_as, "flatten": _flatten,
           "unflatten": _unflatten, "squeeze": _squeeze, "unsqueeze": _unsqueeze, "expand": _expand,
           "expand_as": _expand_as, "repeat": _repeat}
FUNCTIONS = {f"torch.{name}": as_function(METHODS[name])
             for name in ("reshape", "flatten", "unflatten", "squeeze", "unsqueeze")}
