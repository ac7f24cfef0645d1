"""Symbolic tensor sizes as the code writes them, read by SC103 (stack-cat-roundtrip).

A size is what the code says about one dimension: a literal (`4`), a name whose binding tells what it measures
(`B` from `B, T, C = x.shape`, `n = x.size(0)`), `self.n_head`, or a product of those (`h * w`). Two sizes are the
same dimension only when the code proves it (same binding, same literal), never because two names look alike.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import libcst as cst

from shapecheck.engine.context import Binding, Context
from shapecheck.engine.records import record
from shapecheck.objects.tensor_facts import argument_of, positional

Key = Hashable

# Maps "dimension `index` of the tensor bound by `binding`" (with the tensor's rank when the code shows it) to a key
# the caller can compare; None when the caller knows nothing about that tensor.
DimRef = Callable[[Binding, int, "int | None"], "Key | None"]

WILDCARD = "-1"  # a `-1` in a view: the size inferred from the others

CREATION = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Size:
    """A product of a literal and symbolic factors: `2 * h * w` is Size(2, (key(h), key(w)))."""

    coef: int
    factors: tuple[Key, ...] = ()

    def times(self, other: Size) -> Size:
        return Size(self.coef * other.coef, self.factors + other.factors)


def literal_int(expr: cst.BaseExpression | None) -> int | None:
    """`3` -> 3, `-1` -> -1; None for anything else."""
    if type(expr) is cst.Integer:
        return int(expr.value.replace("_", ""), 0)
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus and type(expr.expression) is cst.Integer:
        value = literal_int(expr.expression)
        return None if value is None else -value
    return None


def argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    """The value `argument_of` finds: passed as `keyword=`, else positional `index`."""
    found = argument_of(call, keyword, index)
    return found.value if found is not None else None


def int_argument(call: cst.Call, index: int, keyword: str, default: int | None = None) -> int | None:
    """A literal int argument; `default` when the argument is absent, None when it is there but not a literal."""
    value = argument(call, index, keyword)
    if value is None:
        return default if positional(call) is not None else None
    return literal_int(value)


def shape_arguments(call: cst.Call, keyword: str = "size") -> Sequence[cst.BaseExpression] | None:
    """The sizes of `x.view(a, b)`, `x.view((a, b))`, `torch.zeros(a, b, dtype=...)`, `torch.zeros(size=(a, b))`;
    None when they are hidden (`*shape`, a shape variable)."""
    if any(arg.star for arg in call.args):
        return None
    positional = [arg.value for arg in call.args if arg.keyword is None]
    named = [arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword]
    if named:
        return None if positional else _elements(named[0])
    if len(positional) == 1:
        value = positional[0]
        if type(value) in (cst.Tuple, cst.List):
            return _elements(value)
        # `x.view(shape)`, `torch.zeros(x.shape)`, `x.view((b, -1) + x.shape[2:])`: one argument may be a whole shape.
        if not _is_one_size(value):
            return None
    return positional or None


def shape_of(expr: cst.BaseExpression) -> tuple[cst.BaseExpression, int | None, bool] | None:
    """(tensor, index, is_whole) for `t.shape` / `t.size()` (whole shape, index None) and `t.shape[k]` / `t.size(k)`
    (one dimension); None otherwise."""
    kind = type(expr)
    if kind is cst.Attribute and expr.attr.value == "shape":
        return expr.value, None, True
    if kind is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "size":
        if not expr.args:
            return expr.func.value, None, True
        index = int_argument(expr, 0, "dim")
        return (expr.func.value, index, False) if index is not None and len(expr.args) == 1 else None
    if kind is cst.Subscript and type(expr.value) is cst.Attribute and expr.value.attr.value == "shape":
        if len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
            index = literal_int(expr.slice[0].slice.value)
            if index is not None:
                return expr.value.value, index, False
    return None


def size_of(ctx: Context, expr: cst.BaseExpression, before: int | None, dim_ref: DimRef) -> Size | str | None:
    """What a size expression measures, resolved as of `before`: a Size, WILDCARD for `-1`, None when unknown."""
    value = literal_int(expr)
    if value is not None:
        return WILDCARD if value == -1 else Size(value) if value > 0 else None
    kind = type(expr)
    if kind is cst.BinaryOperation and type(expr.operator) is cst.Multiply:
        left = size_of(ctx, expr.left, before, dim_ref)
        right = size_of(ctx, expr.right, before, dim_ref)
        return left.times(right) if type(left) is Size and type(right) is Size else None
    if kind is cst.Name:
        return _name_size(ctx, expr, before, dim_ref)
    if kind is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
        return Size(1, (("attr", expr.attr.value),))
    measured = shape_of(expr)
    if measured is not None and not measured[2]:
        return _dimension(ctx, measured[0], measured[1], None, before, dim_ref)
    if kind is cst.Subscript:
        return _item_size(ctx, expr, before)
    return None


def _item_size(ctx: Context, expr: cst.Subscript, before: int | None) -> Size | None:
    """`window_size[0]`, `self.patch[1]`: an item of a sequence of sizes, the same wherever the same binding is
    read with the same literal index."""
    if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
        return None
    index = literal_int(expr.slice[0].slice.value)
    container = expr.value
    if index is None or type(container) is not cst.Name and not (
            type(container) is cst.Attribute and type(container.value) is cst.Name and container.value.value == "self"):
        return None
    binding = ctx.binding(container, before)
    owner = ("binding", id(binding)) if binding is not None else ("global", ctx.code(container))
    return Size(1, (("item", owner, index),))


def _name_size(ctx: Context, name: cst.Name, before: int | None, dim_ref: DimRef) -> Size | None:
    binding = ctx.binding(name, before)
    if binding is None:
        return Size(1, (("global", name.value),))
    if binding.value is not None and not binding.starred:
        measured = shape_of(binding.value)
        if measured is not None:
            tensor, index, whole = measured
            if whole and binding.kind == "unpack":
                size = _dimension(ctx, tensor, binding.index, _unpack_rank(binding), binding.seq, dim_ref)
            elif not whole and binding.kind == "assign":
                size = _dimension(ctx, tensor, index, None, binding.seq, dim_ref)
            else:
                size = None
            if size is not None:
                return size
    return Size(1, (("binding", id(binding)),))


def _dimension(ctx: Context, tensor: cst.BaseExpression, index: int | None, rank: int | None, before: int | None,
               dim_ref: DimRef) -> Size | None:
    if index is None:
        return None
    binding = ctx.binding(tensor, before)
    if binding is None:
        return None
    key = dim_ref(binding, index, rank)
    if key is None and (index >= 0 or rank is not None):
        key = ("dim", id(binding), index if index >= 0 or rank is None else index + rank)
    return None if key is None else Size(1, (key,))


def _unpack_rank(binding: Binding) -> int | None:
    """The length of the unpacking target that bound `binding` (`B, T, C = x.shape` -> 3); None with a `*rest`."""
    elements = binding.unpacking_elements()
    if elements is None or any(type(element) is cst.StarredElement for element in elements):
        return None
    return len(elements)


def no_dim_ref(binding: Binding, index: int, rank: int | None) -> Key | None:
    return None


def declared_shape(ctx: Context, call: cst.Call, before: int | None, dim_ref: DimRef = no_dim_ref,
                   ) -> list[Size | None] | None:
    """The sizes `x.view(...)`, `x.reshape(...)`, `torch.reshape(x, ...)` or a creation call (`torch.zeros(...)`)
    gives its result, one per dimension (None where unknown, e.g. the `-1`); None when the call declares none."""
    func = call.func
    args: Sequence[cst.BaseExpression] | None = None
    if type(func) is cst.Attribute and func.attr.value in ("view", "reshape") and ctx.qualname(func) is None:
        args = shape_arguments(call, "shape" if func.attr.value == "reshape" else "size")
    else:
        qualname = ctx.qualname(func)
        if qualname == "torch.reshape":
            shape = argument(call, 1, "shape")
            args = _elements(shape) if shape is not None else None
        elif qualname in CREATION:
            args = shape_arguments(call)
    if args is None:
        return None
    sizes: list[Size | None] = []
    for arg in args:
        size = size_of(ctx, arg, before, dim_ref)
        sizes.append(size if type(size) is Size else None)
    return sizes


def unsqueezed(ctx: Context, expr: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(tensor, dim) for `t.unsqueeze(d)`, `torch.unsqueeze(t, d)`, and (tensor, literal) for `t[None]` (dim 0),
    `t[:, None]` (dim 1), `t[..., None]` (dim -1); None otherwise."""
    kind = type(expr)
    if kind is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute and func.attr.value == "unsqueeze" and ctx.qualname(func) is None:
            dim = argument(expr, 0, "dim")
            return (func.value, dim) if dim is not None and len(expr.args) == 1 else None
        if ctx.qualname(func) == "torch.unsqueeze" and len(expr.args) == 2:
            tensor, dim = argument(expr, 0, "input"), argument(expr, 1, "dim")
            return (tensor, dim) if tensor is not None and dim is not None else None
        return None
    if kind is cst.Subscript and type(expr.slice[-1].slice) is cst.Index:
        last = expr.slice[-1].slice.value
        if type(last) is not cst.Name or last.value != "None":
            return None
        leading = [element.slice for element in expr.slice[:-1]]
        if all(type(s) is cst.Slice and s.lower is None and s.upper is None and s.step is None for s in leading):
            return expr.value, cst.Integer(str(len(leading)))
        if len(leading) == 1 and type(leading[0]) is cst.Index and type(leading[0].value) is cst.Ellipsis:
            return expr.value, cst.parse_expression("-1")
    return None


def same_dim(ctx: Context, a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    """Two `dim` arguments read at the same place are provably equal: the same literal, or the same bound name."""
    if literal_int(a) is not None:
        return literal_int(a) == literal_int(b)
    return type(a) is cst.Name and type(b) is cst.Name and a.value == b.value and ctx.binding(a) is not None


def _elements(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    if type(value) not in (cst.Tuple, cst.List):
        return None
    if any(type(element) is cst.StarredElement for element in value.elements):
        return None
    return [element.value for element in value.elements]


def _is_one_size(expr: cst.BaseExpression, factor: bool = False) -> bool:
    """A literal, `t.size(k)` / `t.shape[k]`, or a product of those and names: certainly one int, not a shape (a
    lone name may hold a whole shape)."""
    if type(expr) is cst.BinaryOperation:
        return type(expr.operator) is cst.Multiply and _is_one_size(expr.left, True) and _is_one_size(expr.right, True)
    if factor and (type(expr) is cst.Name or type(expr) is cst.Attribute and expr.attr.value != "shape"):
        return True
    measured = shape_of(expr)
    return literal_int(expr) is not None or measured is not None and not measured[2]
