"""What torch's and numpy's constructors share: the nesting of a literal list (`torch.tensor([[1, 2], [3, 4]])`,
`np.array([1.0, 1.4, -0.6])`) and the length of a range of numbers (`torch.arange(n)`, `np.arange(n)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.builtins import grown_count
from shapecheck.objects.dims import Dim
from shapecheck.objects.tensor_facts import is_int
from shapecheck.objects.values import Seq, number_kind
from shapecheck.shapes.positions import opaque
from shapecheck.shapes.shape import DtypeFamily, Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def literal_dtype(expr: cst.BaseExpression | None) -> DtypeFamily | None:
    while type(expr) is cst.UnaryOperation:
        expr = expr.expression
    if type(expr) is cst.Integer:
        return "int"
    if type(expr) is cst.Float:
        return "float"
    if type(expr) is cst.Name and expr.value in ("True", "False"):
        return "bool"
    return None


def nested_shape(ev: ShapeEvaluator, data: cst.BaseExpression, before: int) -> Shape | None:
    """The shape of a list of numbers, nested evenly: written there, or the list an expression holds (`labels = [0,
    2, 1]`, a list no code appends to, a comprehension over a list the code states); its dtype where the numbers
    tell it (a float among ints makes it float)."""
    dims: list[Dim] = []
    kinds: set[str] = set()
    if not _nested(data, dims, kinds, 0):
        dims, kinds = [], set()
        value = ev.object(data, before)
        if isinstance(value, Dim) and value.literal is None and not is_int(ev.ctx, data, before):
            # `torch.tensor(batch["obs"])`: the objects floor reads a subscript or a config field as a size where a
            # size goes, but as data it may as well be an array (a replay buffer's sampled rows)
            return None
        if not _nested_value(value, dims, kinds, 0):
            return None
    return Shape(tuple(dims), layout=tuple(range(len(dims))), dtype=_numbers_dtype(kinds))


def _numbers_dtype(kinds: set[str]) -> DtypeFamily | None:
    """The dtype a tensor of numbers of these kinds (see `number_kind`) gets: a float among ints makes it float."""
    if "number" in kinds:
        return "float" if "float" in kinds else None
    if len(kinds) == 1:
        return next(iter(kinds))  # type: ignore[return-value]
    return "float" if kinds <= {"int", "float"} else None


def uncounted_numbers(ev: ShapeEvaluator, node: cst.Call, value: object, dtype: DtypeFamily | None = None,
                      length: Dim | None = None) -> Shape | None:
    """A list of numbers whose count the code does not state (`[stoi[c] for c in text]`, a corpus encoded, or the
    labels a loop appends), made an array or a tensor by `node`: one dim of a size only equal to itself. Where the
    count follows from the code all the same, that count: `length` where the caller knows it (a comprehension over
    rows, `numpy_arrays.comprehension_length`), or the passes of a loop that grew the list by one number each."""
    if not isinstance(value, Seq) or value.complete or value.each is None or number_kind(value.each) is None \
            or any(number_kind(item) is None for item in value.items) or not node.args:
        return None
    if length is None and not value.items:
        length = grown_count(value)
    if length is None:
        length = opaque(("tensor of a list", id(node)), f"len({ev.ctx.code(node.args[0].value)})")
    if dtype is None:  # `torch.tensor([y for _, y in batch])` of ints: the labels' int64
        dtype = _numbers_dtype({number_kind(item) for item in (*value.items, value.each)})  # type: ignore[misc]
    return Shape((length,), layout=(0,), dtype=dtype)


def range_length(ev: ShapeEvaluator, node: cst.CSTNode, bounds: list[cst.BaseExpression], before: int) -> Dim | None:
    """How many numbers `arange(end)`, `arange(start, end)` or `arange(start, end, step)` gives, in sizes."""
    if not 1 <= len(bounds) <= 3:
        return None
    values = [ev.size(e, before) for e in bounds]
    if None in values:
        return None
    start, end = (Dim.of(0), values[0]) if len(values) == 1 else (values[0], values[1])
    step = values[2] if len(values) == 3 else Dim.of(1)
    span = end - start  # type: ignore[operator]
    length = span if step.literal == 1 else span._divided(step)  # type: ignore[union-attr]
    return length if length is not None else opaque(("arange", id(node)), f"({span}) / {step}")


def _nested(expr: cst.BaseExpression | None, dims: list[Dim], kinds: set[str], depth: int) -> bool:
    if type(expr) in (cst.List, cst.Tuple):
        elements = expr.elements
        if any(type(e) is cst.StarredElement for e in elements):
            return False
        if depth == len(dims):
            dims.append(Dim.of(len(elements)))
        elif dims[depth].literal != len(elements):
            return False
        if not elements:
            return depth == len(dims) - 1
        return all(_nested(e.value, dims, kinds, depth + 1) for e in elements)
    kind = literal_dtype(expr)
    if kind is None or depth != len(dims):
        return False
    kinds.add(kind)
    return True


def _nested_value(value: object, dims: list[Dim], kinds: set[str], depth: int) -> bool:
    """`_nested` over the value a name holds: a list or tuple whose every element the code states."""
    if isinstance(value, Seq):
        if not value.complete:
            return False
        if depth == len(dims):
            dims.append(Dim.of(len(value.items)))
        elif dims[depth].literal != len(value.items):
            return False
        if not value.items:
            return depth == len(dims) - 1
        return all(_nested_value(item, dims, kinds, depth + 1) for item in value.items)
    if depth != len(dims):
        return False
    kind = number_kind(value)
    if kind is None:
        return False
    kinds.add(kind)
    return True
