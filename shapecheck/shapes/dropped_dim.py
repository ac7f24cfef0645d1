"""A reduction that drops a dim, broadcast back against the tensor it reduced: `x / x.sum(1)`, `x - x.max(1)[0]`,
`x.mean(1).expand_as(x)`, `w / w.norm(dim=(-2, -1))` of a stack of matrices, none with `keepdim=True`.

Broadcasting aligns dims from the right, so each dim in front of the dropped one meets the dim after it in `x`: the
(B,) sums of a (B, C) tensor line up with C. That raises unless the two sizes happen to be equal, and is silently
wrong when they are. The code states this whatever the sizes are (the dim it reduced, the tensor it reduced), so the
shapes need not be known; they only clear a pair that is harmless (a dim of size 1, or two equal sizes). PyTorch
before 0.2 kept reduced dims by default, and much code written then reads this way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.walker import parent_map, walk
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.args import Args, Hidden, torch_name
from shapecheck.shapes.elementwise import SHAPE_KEEPING, SHAPE_KEEPING_FUNCTIONS, is_number
from shapecheck.shapes.positions import int_list

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# reductions that return a tensor, with the position of `dim` among the method's arguments (`norm(p, dim)`)
_REDUCTIONS = {"sum": 0, "mean": 0, "std": 0, "var": 0, "prod": 0, "nansum": 0, "nanmean": 0, "amax": 0, "amin": 0,
               "logsumexp": 0, "norm": 1, "vector_norm": 1, "matrix_norm": 1}
# reductions whose `dim` has a default: `torch.linalg.matrix_norm(A)` is over the last two dims
_DEFAULT_DIMS = {"matrix_norm": (-2, -1)}
# with a dim these return (values, indices): `x.max(1)[0]`, `x.max(dim=1).values`
_PAIRED = frozenset({"max", "min", "median"})
_ONE = Dim.of(1)


@record(slots=True, eq=False)
class DroppedDim:
    reduction: cst.Call  # `x.sum(1)`
    source: cst.Name  # `x`, the tensor it reduced, also the other operand
    dims: tuple[int, ...]  # the dims dropped, counted from the front, in order
    misaligned: int  # the result's first dims, those in front of the last dim dropped, each met by a later dim of x


def dropped_against(ev: ShapeEvaluator, reduced: cst.BaseExpression, source: cst.BaseExpression,
                    before: int) -> DroppedDim | None:
    """`reduced` is `source` reduced over one dim or a tuple of them without `keepdim`, so that broadcasting it
    against `source` misaligns their dims; None when it isn't, or when the shapes known prove the misalignment
    harmless."""
    if type(source) is not cst.Name:
        return None
    ctx = ev.ctx
    reduction = _reduction_in(ev, reduced, before, 0)
    if reduction is None:
        return None
    call, seq = reduction
    try:
        found = _reduced_dim(ev, call, seq if seq is not None else before)
    except Hidden:
        return None
    if found is None:
        return None
    receiver, dims = found
    receiver = _underlying(ev, receiver, seq if seq is not None else before)
    if type(receiver) is not cst.Name or receiver.value != source.value or ctx.is_foreign(source):
        return None
    if ctx.binding(receiver.value, seq if seq is not None else before) is not ctx.binding(source.value, before):
        return None  # `x` was bound again between the reduction and its use
    shape = ev.tensor(source, before)
    if shape is None and not _is_torch_function(ev, call):
        return None  # `d / d.sum(1)` on a value not known to be a tensor: a DataFrame aligns by labels
    rank = shape.rank if shape is not None else None
    if rank is None and min(dims) < 0:
        rank = _guarded_rank(ev, source, reduced, before)
    if rank is None and min(dims) < 0 or rank is not None and not all(-rank <= dim < rank for dim in dims):
        return None  # `x.sum(-1)` of a vector of unknown rank, a dim the tensor lacks: the shapes don't tell
    positions = sorted({dim % rank if rank is not None else dim for dim in dims})
    if len(positions) < len(dims):
        return None  # a dim named twice raises
    # broadcasting aligns the result's dim j with dim j + len(positions) of `source`: those in front of the last
    # dim dropped are misaligned; none when the dims dropped lead (`x - x.mean(0)`), or all of them are (a scalar)
    count = len(positions)
    misaligned = positions[-1] + 1 - count
    if misaligned <= 0:
        return None
    kept = [i for i in range(positions[-1]) if i not in positions]
    if shape is not None and shape.rank is not None and all(
            same(shape.dims[kept[j]], _ONE) or same(shape.dims[kept[j]], shape.dims[j + count])
            for j in range(misaligned)):
        return None
    return DroppedDim(call, source, tuple(positions), misaligned)


def _reduction_in(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int,
                  depth: int) -> tuple[cst.Call, int | None] | None:
    """The reduction `expr` is an elementwise function of, and the `seq` to read it at: `norms + eps` of `norms =
    g.norm(dim=(1, 2))`, `norms.clamp(min=eps)`, `(norms + group["eps"]).sqrt()`. Whatever the other operand of an
    arithmetic operator (a number, or a tensor broadcast with it), the reduction's dims keep their place from the
    right in the result, so they meet the same dims of the tensor it reduced."""
    if depth > _DEPTH:
        return None
    value, seq = ev.ctx.value_of(expr, before)
    at = seq if seq is not None else before
    value = _underlying(ev, value, at)
    call = _reduction(value)
    if call is not None:
        return call, seq
    kind = type(value)
    if kind is cst.Name and value is not expr:
        return _reduction_in(ev, value, at, depth + 1)
    if kind is cst.BinaryOperation and isinstance(value.operator, _ARITHMETIC):
        return _reduction_in(ev, value.left, at, depth + 1) or _reduction_in(ev, value.right, at, depth + 1)
    if kind is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in _ARITHMETIC_METHODS \
            and ev.ctx.qualname(value.func) is None:
        return _reduction_in(ev, value.func.value, at, depth + 1)
    return None


_DEPTH = 4
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
_ARITHMETIC_METHODS = frozenset({"add", "sub", "mul", "div", "true_divide"})


def _underlying(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> cst.BaseExpression:
    """The tensor `expr` is an elementwise function of, whose shape it keeps: `x` of `x.pow(2)`, `x ** 2`, `-x`,
    `x.exp()`, `2 * x.abs()`, `torch.pow(x, 2)`, `torch.sqrt(x)`."""
    for _ in range(8):
        kind = type(expr)
        if kind is cst.Call and expr.args and expr.args[0].keyword is None and not expr.args[0].star:
            qualname = ev.ctx.qualname(expr.func)
            if qualname in SHAPE_KEEPING_FUNCTIONS or qualname == "torch.pow" and len(expr.args) == 2 \
                    and is_number(ev, expr.args[1].value, before):
                expr = expr.args[0].value
                continue
        if kind is cst.UnaryOperation:
            expr = expr.expression
        elif kind is cst.BinaryOperation and is_number(ev, expr.right, before):
            expr = expr.left
        elif kind is cst.BinaryOperation and is_number(ev, expr.left, before):
            expr = expr.right
        elif kind is cst.Call and type(expr.func) is cst.Attribute and ev.ctx.qualname(expr.func) is None and (
                expr.func.attr.value in SHAPE_KEEPING or expr.func.attr.value == "pow" and len(expr.args) == 1
                and is_number(ev, expr.args[0].value, before)):
            expr = expr.func.value
        else:
            break
    return expr


def _reduction(expr: cst.BaseExpression) -> cst.Call | None:
    """The reduction call `expr` is: `x.sum(1)`, or the values of `x.max(1)` (`[0]`, `.values`)."""
    if type(expr) is cst.Call:
        name = _called(expr)
        return expr if name in _REDUCTIONS else None
    if type(expr) is cst.Subscript and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
        index = expr.slice[0].slice.value
        inner = expr.value if type(index) is cst.Integer and index.value == "0" else None
    elif type(expr) is cst.Attribute and expr.attr.value == "values":
        inner = expr.value
    else:
        return None
    return inner if type(inner) is cst.Call and _called(inner) in _PAIRED else None


def _called(call: cst.Call) -> str | None:
    func = call.func
    return func.attr.value if type(func) is cst.Attribute else None


def _is_torch_function(ev: ShapeEvaluator, call: cst.Call) -> bool:
    qualname = ev.ctx.qualname(call.func)
    return qualname is not None and torch_name(qualname).startswith("torch.")


def _reduced_dim(ev: ShapeEvaluator, call: cst.Call,
                 before: int) -> tuple[cst.BaseExpression, tuple[int, ...]] | None:
    """The tensor `call` reduces and the dims it drops: `x.sum(1)`, `torch.mean(x, dim=-1)`, `x.norm(2, 1)`,
    `torch.linalg.norm(w, dim=(-2, -1))`; None with `keepdim`, or no dim."""
    name = _called(call)
    assert name is not None
    function = _is_torch_function(ev, call)
    args = Args(call, 1) if function else Args(call)
    if function:
        receiver = Args(call).get(0, "input")
    elif ev.ctx.qualname(call.func) is None:
        receiver = call.func.value  # type: ignore[attr-defined]
    else:
        return None  # `np.sum(x, 1)`, a module's function
    index = _REDUCTIONS.get(name, 0)
    kept = args.keyword("keepdim") or args.keyword("keepdims")
    if receiver is None or kept is not None and not (type(kept) is cst.Name and kept.value == "False"):
        return None
    if any(arg.keyword is None and arg.star for arg in call.args) or args.count() > index + 1:
        return None  # `x.sum(1, True)`: a positional keepdim
    given = args.get(index, "dim", "axis")
    if given is None and name in _DEFAULT_DIMS and _is_torch_function(ev, call):
        return receiver, _DEFAULT_DIMS[name]
    dims = int_list(ev, given, before)  # `1`, `(-2, -1)`, a name holding them
    return (receiver, tuple(dims)) if dims else None


def _guarded_rank(ev: ShapeEvaluator, source: cst.Name, node: cst.CSTNode, before: int) -> int | None:
    """The rank an `if` around `node` states of `source`, of a shape the analysis does not know: `if g.dim() == 3:`,
    `if g.ndim == 3:`, `len(g.shape) == 3` (a custom optimizer's branch for stacked matrices); None where no test
    around it says, or `source` is bound again inside the branch."""
    memo = ev._memo
    key = ("parents", id(ev.ctx.module))
    parents = memo.get(key)
    if parents is None:
        parents = memo[key] = parent_map(ev.ctx.module)
    child, parent = node, parents.get(id(node))
    while parent is not None and type(parent) not in (cst.FunctionDef, cst.Lambda, cst.Module):
        if type(parent) is cst.If and parent.body is child:
            rank = _tested_rank(ev, parent.test, source)
            if rank is not None and not _bound_inside(ev, parent.body, source, before):
                return rank
        child, parent = parent, parents.get(id(parent))
    return None


def _tested_rank(ev: ShapeEvaluator, test: cst.BaseExpression, source: cst.Name) -> int | None:
    """`r` of a test `source.dim() == r` (`source.ndim`, `source.ndimension()`, `len(source.shape)`, either way
    round), the ints the code states."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) is not cst.Equal:
        return None
    for measured, stated in ((test.left, test.comparisons[0].comparator), (test.comparisons[0].comparator, test.left)):
        if type(stated) is cst.Integer and _measures_rank(measured, source):
            return int(stated.value)
    return None


def _measures_rank(expr: cst.BaseExpression, source: cst.Name) -> bool:
    if type(expr) is cst.Call and not expr.args and type(expr.func) is cst.Attribute \
            and expr.func.attr.value in ("dim", "ndimension"):
        return _is(expr.func.value, source)
    if type(expr) is cst.Attribute and expr.attr.value == "ndim":
        return _is(expr.value, source)
    if type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value == "len" and len(expr.args) == 1:
        shape = expr.args[0].value
        return type(shape) is cst.Attribute and shape.attr.value == "shape" and _is(shape.value, source)
    return False


def _is(expr: cst.BaseExpression, source: cst.Name) -> bool:
    return type(expr) is cst.Name and expr.value == source.value


def _bound_inside(ev: ShapeEvaluator, body: cst.CSTNode, source: cst.Name, before: int) -> bool:
    """Whether the binding of `source` read at `before` is made inside `body`, after the test (or is not known)."""
    binding = ev.ctx.binding(source.value, before)
    return binding is None or any(node is binding.statement for node in walk(body))
