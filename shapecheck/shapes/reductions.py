"""Reductions with `dim`/`keepdim`: `sum`, `mean`, `max(dim)`, `argmax`, `norm`, `std`, `topk`, `sort`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args, as_function
from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Dim
from shapecheck.shapes.positions import dropped, int_list, replaced, with_dims_named
from shapecheck.shapes.shape import DtypeFamily, Shape
from shapecheck.shapes.values import Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def reduction(dtype: DtypeFamily | None = None, dim_index: int = 0, dim_names: tuple[str, ...] = ("dim", "axis")):
    """`x.sum(dim, keepdim)`, `x.mean()`, `x.argmax(-1)`: the dims named are removed (kept as 1 with keepdim);
    no dim reduces everything to a scalar."""
    def reduce(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        target = args.get(dim_index, *dim_names)
        if type(target) is cst.Name and target.value in ("True", "False"):
            target = None  # the old `std(unbiased)` overload
        result_dtype = dtype or shape.dtype
        if target is None or type(target) is cst.Name and target.value == "None":
            return Shape((), layout=(), dtype=result_dtype)
        keep = args.get(dim_index + 1, "keepdim", "keepdims")
        keepdim = type(keep) is cst.Name and keep.value == "True"
        if keep is not None and not (type(keep) is cst.Name and keep.value in ("True", "False")):
            return None
        listed = int_list(ev, target, before)
        if listed is None:
            return None
        expanded = with_dims_named(ev, shape, listed, args)
        if expanded is None:
            return None
        positions = {expanded.index(d) for d in listed}
        if None in positions:
            return None
        if keepdim:
            dims = tuple(Dim.of(1) if i in positions else d for i, d in enumerate(expanded.dims))
            result = Shape(dims, expanded.variadic, expanded.variadic_name, None, result_dtype)
        else:
            result = dropped(expanded, positions).with_dtype(result_dtype)  # type: ignore[arg-type]
        return result.row_major()
    return reduce


def _pair(dtype: DtypeFamily | None = None):
    """`x.max(dim)` -> (values, indices); `x.max()` -> a scalar, as a tuple of one for `items`."""
    reduce = reduction(dtype)

    def pair(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
        if args.get(0, "dim") is None:
            return None
        values = reduce(ev, shape, args, before)
        if values is None:
            return None
        return Items((values, values.with_dtype("int")))
    return pair


def _max_min(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`x.max()` (a scalar) or `x.max(other)` (elementwise); `x.max(dim)` is a pair, see `items`."""
    target = args.get(0, "dim", "other")
    if target is None:
        return Shape((), layout=(), dtype=shape.dtype)
    if ev.integer(target, before) is None:
        other = ev.tensor(target, before)
        return broadcast(shape, other).shape if other is not None else None
    return None


def _topk(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
    k = ev.size(args.get(0, "k"), before)
    dim = args.get(1, "dim")
    position = shape.index(ev.integer(dim, before) if dim is not None else -1) if dim is None or \
        ev.integer(dim, before) is not None else None
    if k is None or position is None:
        return None
    values = replaced(shape, position, k).row_major()
    return Items((values, values.with_dtype("int")))


def _sort(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
    return Items((shape.row_major(), shape.row_major().with_dtype("int")))


METHODS = {
    **dict.fromkeys(("sum", "mean", "prod", "nansum", "nanmean", "logsumexp", "amax", "amin", "count_nonzero", "std",
                     "var"), reduction()),
    "norm": reduction(dim_index=1), "argmax": reduction("int"), "argmin": reduction("int"),
    "all": reduction("bool"), "any": reduction("bool"),
    "max": _max_min, "min": _max_min,
}
FUNCTIONS = {
    **{f"torch.{name}": as_function(handler) for name, handler in METHODS.items()},
    "torch.linalg.norm": as_function(METHODS["norm"]), "torch.linalg.vector_norm": as_function(METHODS["norm"]),
}
TUPLE_METHODS = {"max": _pair(), "min": _pair(), "median": _pair(), "mode": _pair(), "topk": _topk, "sort": _sort}
