"""einops' `rearrange`, `repeat` and `reduce` (recognised by import: `from einops import rearrange`, `import
einops`): the pattern read against the input. Each axis on the left takes one dim (a `...` takes the dims no axis
names), a parenthesised group's sizes multiply to its dim (one unknown member is solved from the others, given as
keywords: `h=heads`), `()` and `1` are a dim of size 1; the output takes its axes' sizes, a group their product, a
`repeat` its new axes from the keywords. Anything einops would reject for other reasons than the input's shape
(a name twice, axes left unmatched, two unknown members in a group) is not modelled: the result is unknown."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim, same
from shapecheck.objects.values import Const
from shapecheck.shapes.args import Args
from shapecheck.shapes.nn_modules import UNKNOWN, Applied, Layer, Mismatch, SizeReader, ValueReader
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.spelling import Spelled
from shapecheck.shapes.views import product

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

ELLIPSIS = "..."
Axis = str | int  # a name, or an anonymous axis of that size
Group = tuple[Axis, ...]  # one dim: `h`, `(h d)`, `()`, `1`
Side = tuple[Group | str, ...]  # the groups, and ELLIPSIS where it stands


# Compiled on first use, by a file that calls einops: compiling it cost every lint a million instructions.
@functools.cache
def _token() -> re.Pattern[str]:
    return re.compile(r"\.\.\.|\(|\)|[A-Za-z_][A-Za-z_0-9]*|\d+|\S")


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Rearranged:
    """What the pattern says about this input: the result (None when a size is unknown) or why it fails."""

    result: Shape | None
    conflict: str | None = None


def _side(text: str) -> Side | None:
    """"b n (h d)" -> (("b",), ("n",), ("h", "d")); `(...)` (the ellipsis' dims as one) is (ELLIPSIS,). None for
    what einops rejects or this reading doesn't model (an ellipsis in a group with axes, nested or unbalanced
    parentheses, an underscore name)."""
    groups: list[Group | str] = []
    group: list[Axis] | None = None
    for token in _token().findall(text):
        if token == "(":
            if group is not None:
                return None
            group = []
        elif token == ")":
            if group is None:
                return None
            if group == [ELLIPSIS]:
                groups.append((ELLIPSIS,))
            elif ELLIPSIS in group:
                return None
            else:
                groups.append(tuple(group))
            group = None
        elif token == ELLIPSIS:
            if ELLIPSIS in groups or (ELLIPSIS,) in groups or group:
                return None
            if group is None:
                groups.append(ELLIPSIS)
            else:
                group.append(ELLIPSIS)
        elif token.isdigit() or token.isidentifier() and not token.startswith("_"):
            axis: Axis = int(token) if token.isdigit() else token
            if group is None:
                groups.append((axis,))
            else:
                group.append(axis)
        else:
            return None
    return tuple(groups) if group is None else None


def _names(side: Side) -> list[str]:
    return [axis for group in side if group != ELLIPSIS for axis in group if isinstance(axis, str) and axis != ELLIPSIS]


def _has_ellipsis(side: Side) -> bool:
    return ELLIPSIS in side or (ELLIPSIS,) in side


def _parsed(text: str) -> tuple[Side, Side] | None:
    left_text, arrow, right_text = text.partition("->")
    left, right = _side(left_text), _side(right_text)
    if not arrow or left is None or right is None or (ELLIPSIS,) in left:
        return None
    for side in (left, right):
        names = _names(side)
        if len(names) != len(set(names)):
            return None
    return left, right


def _keywords(node: cst.Call, size: SizeReader) -> dict[str, Dim | None] | None:
    """The axes the call gives sizes of (`h=self.heads`), each with its size where known; None under `**sizes` (any
    axis may be among them)."""
    if any(arg.star == "**" for arg in node.args):
        return None
    return {arg.keyword.value: size(arg.value) for arg in node.args
            if arg.keyword is not None and arg.keyword.value not in ("tensor", "pattern", "reduction")}


def _spelled(group: Group | str) -> str:
    if group == ELLIPSIS:
        return ELLIPSIS
    text = " ".join(str(axis) for axis in group)
    return text if len(group) == 1 else f"({text})"


def _dims(count: int) -> str:
    return f"{count} dim{'' if count == 1 else 's'}"


def _bind(left: Side, shape: Shape, sizes: dict[str, Dim]) -> Mismatch | tuple[Shape | None, bool] | None:
    """Each left axis's size into `sizes`; the dims the ellipsis takes (None without one) and whether every axis is
    known; or why the input cannot match; None when its rank or dims can't be read."""
    named = [group for group in left if group != ELLIPSIS]
    has_ellipsis = len(named) != len(left)
    rank = shape.rank
    if rank is not None and (rank < len(named) if has_ellipsis else rank != len(named)):
        return Mismatch(_dims(rank), _dims(len(named)) + (" or more" if has_ellipsis else ""))
    cut = left.index(ELLIPSIS) if has_ellipsis else len(left)
    placed = [(i, group, shape.size(i)) for i, group in enumerate(left[:cut])]
    if has_ellipsis:
        placed += [(i - len(left), group, shape.size(i - len(left))) for i, group in enumerate(left[cut + 1:], cut + 1)]
    elif rank is None:
        return None
    complete = True
    for position, group, dim in placed:
        if dim is None:
            complete = False
            continue
        unknown = [axis for axis in group if isinstance(axis, str) and axis not in sizes]
        given = product(Dim.of(axis) if isinstance(axis, int) else sizes[axis] for axis in group
                        if axis not in unknown)
        if len(unknown) > 1:
            complete = False
            continue
        if unknown:
            if given.literal == 0:
                return None
            if dim.literal is not None and given.literal is not None and dim.literal % given.literal:
                return Mismatch(f"dim {position} is {dim}", f"{_spelled(group)} = a multiple of {given}")
            sizes[unknown[0]] = dim // given if given.literal != 1 else dim
        elif same(dim, given) is False:
            return Mismatch(f"dim {position} is {dim}", f"{_spelled(group)} = {given}")
    if not has_ellipsis:
        return None if not complete else (None, True)
    if shape.variadic is not None and not (cut <= shape.variadic <= len(shape.dims) - (len(left) - cut - 1)):
        return None
    middle = Shape(shape.dims[cut:len(shape.dims) - (len(left) - cut - 1)],
                   None if shape.variadic is None else shape.variadic - cut, shape.variadic_name)
    return middle, complete


def _output(right: Side, sizes: dict[str, Dim], middle: Shape | None, like: Shape, kind: str) -> Shape | None:
    """The result's shape; its layout is unknown (a rearrange may hand back a permuted view), and a reduction's
    dtype too (a sum of booleans counts them)."""
    dims: list[Dim] = []
    variadic = None
    for group in right:
        if group == ELLIPSIS:
            if middle is None:
                return None
            if middle.variadic is not None:
                variadic = len(dims) + middle.variadic
            dims.extend(middle.dims)
        elif group == (ELLIPSIS,):
            if middle is None or middle.variadic is not None:
                return None
            dims.append(product(middle.dims))
        elif any(isinstance(axis, str) and axis not in sizes for axis in group):
            return None
        else:
            dims.append(product(Dim.of(axis) if isinstance(axis, int) else sizes[axis] for axis in group))
    return Shape(tuple(dims), variadic, middle.variadic_name if middle is not None else "...", None,
                 like.dtype if kind != "reduce" else None)


def _matches(kind: str, left: Side, right: Side, keywords: set[str]) -> bool:
    """Whether einops accepts the pattern's axes for `kind`: `rearrange` keeps each, `reduce` drops some (never adds
    one), `repeat` adds some (never drops one); the ellipsis stays or (in `reduce`) goes; an anonymous axis other
    than 1 only where it is dropped or added; every size given names an axis."""
    before, after = set(_names(left)), set(_names(right))
    if _has_ellipsis(right) > _has_ellipsis(left) or kind != "reduce" and _has_ellipsis(left) != _has_ellipsis(right):
        return False
    fixed = [side for side, varies in ((left, "reduce"), (right, "repeat")) if kind != varies]
    if any(axis != 1 for side in fixed for group in side if group != ELLIPSIS for axis in group
           if isinstance(axis, int)) or not keywords <= before | after:
        return False
    if kind == "rearrange":
        return before == after
    return after <= before if kind == "reduce" else before <= after


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Pattern:
    """A `rearrange`/`repeat`/`reduce` pattern with the axis sizes its call or layer gives."""

    kind: str
    left: Side
    right: Side
    sizes: tuple[tuple[str, Dim], ...]

    def spelled(self) -> str:
        return " ".join(_spelled(group) for group in self.left)

    def apply(self, shape: Shape) -> Applied:
        sizes = dict(self.sizes)
        bound = _bind(self.left, shape, sizes)
        if isinstance(bound, Mismatch):
            return Applied(None, bound)
        if bound is None or not bound[1]:
            return UNKNOWN
        return Applied(_output(self.right, sizes, bound[0], shape, self.kind))


def pattern(kind: str, text: object, keywords: dict[str, Dim | None] | None) -> Pattern | None:
    """The pattern `text` of an einops `kind`, given sizes for the axes in `keywords`; None for a pattern einops
    rejects or this reading doesn't model, and under `**sizes` (`keywords` None: any axis may be among them)."""
    if not isinstance(text, Const) or not isinstance(text.value, str) or keywords is None:
        return None
    parsed = _parsed(text.value)
    if parsed is None or not _matches(kind, *parsed, set(keywords)):
        return None
    return Pattern(kind, *parsed, tuple((name, size) for name, size in keywords.items() if size is not None))


def rearranged(ev: ShapeEvaluator, node: cst.Call, kind: str, before: int) -> Rearranged | None:
    args = Args(node)
    tensor = args.get(0, "tensor")
    found = pattern(kind, ev.object(args.get(1, "pattern"), before), _keywords(node, lambda e: ev.size(e, before)))
    shape = ev.tensor(tensor, before) if tensor is not None else None
    if found is None or shape is None:
        return None
    applied = found.apply(shape)
    if applied.mismatch is not None:
        return Rearranged(None, f"`{ev.ctx.code(node)}`: {ev.ctx.code(tensor)} is {shape.render()}: "
                                f"{applied.mismatch.has}, but the pattern's left side ({found.spelled()}) expects "
                                f"{applied.mismatch.expects}")
    return Rearranged(applied.value)  # type: ignore[arg-type]


def _transfer(kind: str):
    def transfer(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        found = rearranged(ev, node, kind, before)
        return found.result if found is not None else None
    return transfer


FUNCTIONS = {f"einops.{kind}": _transfer(kind) for kind in ("rearrange", "repeat", "reduce")}


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(unsafe_hash=True)
class PatternLayer(Layer):
    """einops' `Rearrange`/`Reduce` layer: its pattern applied to the input."""

    pattern: Pattern
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        return self.pattern.apply(x) if x is not None else UNKNOWN


LAYERS = {"einops.layers.torch.Rearrange": "rearrange", "einops.layers.torch.Reduce": "reduce"}


def layer(qualname: str, call: cst.Call, value: ValueReader, size: SizeReader, spelled: str | Spelled) -> Layer | None:
    """The layer `call` (a constructor of one of `LAYERS`: `Rearrange("b c h w -> b (h w) c")`, `Reduce(pattern,
    "mean", h=2)`) builds, reading its pattern with `value` and its axis sizes with `size`."""
    text = Args(call).get(0, "pattern") if not any(arg.star == "*" for arg in call.args) else None
    if text is None:
        return None
    found = pattern(LAYERS[qualname], value(text), _keywords(call, size))
    return PatternLayer(found, spelled) if found is not None else None
