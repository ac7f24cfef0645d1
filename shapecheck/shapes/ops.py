"""Transfer functions: the shape each torch function, tensor method, operator and subscript gives, from the shapes
of its inputs. Each returns None when the inputs or arguments aren't known well enough: never a guess.

Layout follows PyTorch's strides: transpose/permute/`.T`/`.mT`/movedim reorder it, `.contiguous()`, matmul and
fresh tensors are row-major, elementwise ops and dtype/device moves keep it (`preserve_format`), and a `view` of a
permuted tensor is left unknown (its strides depend on which dims it splits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes import functional, layers, losses
from shapecheck.shapes.args import Args, Hidden
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.dims import Atom, Dim, same
from shapecheck.shapes.reshape import WILDCARD, layout_verdict, product, reshaped
from shapecheck.shapes.shape import MAX_RANK, DtypeFamily, Shape
from shapecheck.shapes.values import Items, Sizes

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import Evaluator

TORCH_DTYPES: dict[str, DtypeFamily] = {
    **dict.fromkeys(("float", "float32", "float64", "double", "float16", "half", "bfloat16"), "float"),
    **dict.fromkeys(("long", "int64", "int", "int32", "int16", "short", "int8", "uint8"), "int"),
    "bool": "bool",
    **dict.fromkeys(("complex64", "complex128", "cfloat", "cdouble"), "complex"),
}


def opaque(key: object, name: str) -> Dim:
    """A size only known to be itself (a chunk of a symbolic size, a conv output of unknown kernel)."""
    return Dim((((Atom(key, name, compound=True),), 1),))


# -------------------------------------------------------------------------------------------------- entries


def call(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    result = _dispatch(ev, node, before, FUNCTIONS, METHODS)
    return result if isinstance(result, Shape) else None


def _dispatch(ev: Evaluator, node: cst.Call, before: int, functions: dict, methods: dict):
    """A torch function from `functions` by its qualname, a tensor method from `methods` (given the receiver's
    shape), else a module or a project function."""
    ctx = ev.ctx
    func = node.func
    try:
        qualname = ctx.qualname(func)
        if qualname is not None:
            name = _torch_name(qualname)
            handler = functions.get(name)
            result = handler(ev, node, before) if handler is not None else None
            if isinstance(result, Shape) and name in _LAYOUT_FUNCTIONS:
                result = replace(result, permuted_by=f"{ctx.code(func)}(...)")
            return result
        if type(func) is cst.Attribute and not _is_self_attribute(func):
            handler = methods.get(func.attr.value)
            shape = ev.tensor(func.value, before) if handler is not None else None
            if shape is None:
                return None
            result = handler(ev, shape, Args(node), before)
            if isinstance(result, Shape) and func.attr.value in _LAYOUT_METHODS:
                result = replace(result, permuted_by=f".{func.attr.value}({_arguments(ctx, node)})")
            return result
    except Hidden:
        return None
    return _module_call(ev, node, before)


def _module_call(ev: Evaluator, node: cst.Call, before: int):
    """A call of a module or a function of the project (`self.fc(x)`, `model(x)`, `block(x)`): what layers.py
    knows about it, else a fresh row-major tensor of unknown rank unless the callee is a class (a constructor), a
    foreign function or one of torch's modules that hand back transposed views."""
    ctx = ev.ctx
    inputs = tuple(ev.tensor(arg.value, before) if arg.keyword is None and not arg.star else None
                   for arg in node.args)
    known = losses.loss_result(ev, node, before)
    if known is None:
        known = layers.call_result(ev, node, inputs)
    if known is not None:
        return known
    func = node.func
    if type(func) is cst.Name or _is_self_attribute(func):
        binding = ev.binding(func, before)
        if binding is None and type(func) is cst.Name or binding is not None and binding.kind in ("class", "import"):
            return None  # a builtin, a constructor or a foreign function
        value, _ = ctx.value_of(func, before)
        if type(value) is cst.Call and layers.returns_views(ev, value):
            return None
    return Shape.unknown_rank()


def items(ev: Evaluator, node: cst.BaseExpression, before: int) -> Items | None:
    kind = type(node)
    if kind in (cst.Tuple, cst.List):
        if any(type(e) is cst.StarredElement for e in node.elements):
            return None
        return Items(tuple(ev.tensor(e.value, before) for e in node.elements))
    if kind is cst.Name:
        value = ev.follow(node, before, "items")
        return value if isinstance(value, Items) else None
    if kind is not cst.Call:
        return None
    result = _dispatch(ev, node, before, TUPLE_FUNCTIONS, TUPLE_METHODS)
    return result if isinstance(result, Items) else None


def _torch_name(qualname: str) -> str:
    """One spelling per function: `torch.nn.functional.x` -> "F.x", `torch.functional.x`/`torch.special.x` kept."""
    if qualname.startswith("torch.nn.functional."):
        return "F." + qualname[len("torch.nn.functional."):]
    return qualname


def _is_self_attribute(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"


# ------------------------------------------------------------------------------------------------- helpers


def _position(ev: Evaluator, shape: Shape, expr: cst.BaseExpression | None, before: int) -> int | None:
    """The position in `shape.dims` of the dim a `dim` argument names; None when it can't be told."""
    dim = ev.integer(expr, before)
    return None if dim is None else shape.index(dim)


def _insert_position(shape: Shape, dim: int) -> int | None:
    """Where `unsqueeze(dim)` puts the new dim, as a position in the result's dims."""
    if shape.variadic is None:
        rank = len(shape.dims)
        position = dim if dim >= 0 else dim + rank + 1
        return position if 0 <= position <= rank else None
    if dim >= 0:
        return dim if dim <= shape.variadic else None
    position = len(shape.dims) + dim + 1
    return position if position >= shape.variadic else None


def _drop(shape: Shape, positions: set[int]) -> Shape:
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


def _insert(shape: Shape, position: int, dim: Dim) -> Shape:
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


def _permuted(shape: Shape, order: list[int]) -> Shape:
    dims = tuple(shape.dims[i] for i in order)
    layout = tuple(shape.layout[i] for i in order) if shape.layout is not None else None
    return Shape(dims, shape.variadic, shape.variadic_name, layout, shape.dtype)


def _with_rank(ev: Evaluator, shape: Shape, rank: int, owner: object) -> Shape | None:
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


def _expanded(ev: Evaluator, shape: Shape, positions: list[int], args: Args) -> Shape | None:
    """`shape` with the dims that dim arguments name (from the front or, negative, from the back) named."""
    leading = max((p + 1 for p in positions if p >= 0), default=0)
    trailing = max((-p for p in positions if p < 0), default=0)
    return ev.materialized(shape, leading, id(args.call), trailing)


def _dtype_of(ev: Evaluator, expr: cst.BaseExpression | None) -> DtypeFamily | None:
    if expr is None:
        return None
    qualname = ev.ctx.qualname(expr)
    if qualname is None or not qualname.startswith("torch."):
        return None
    return TORCH_DTYPES.get(qualname[len("torch."):])


def _shape_arguments(ev: Evaluator, args: Args, index: int, keyword: str, before: int) -> Shape | None:
    """The sizes a call takes as varargs or as one sequence: `view(B, -1)`, `view((B, -1))`, `zeros(x.shape)`,
    `view(x.size()[:-1] + (n, d))`, `zeros(size=(3, 4))`."""
    named = args.keyword(keyword)
    if named is not None:
        return ev.sizes(named, before)
    rest = args.rest(index)
    if not rest:
        return None
    if len(rest) == 1:
        whole = ev.sizes(rest[0], before)
        if whole is not None:
            return whole
        if _unexplained(ev.size(rest[0], before)):
            return None  # `torch.ones(input_shape)`: a name the code never explains may hold a whole shape
    dims = []
    for expr in rest:
        dim = ev.size(expr, before)
        if dim is None:
            return None
        dims.append(dim)
    return Shape(tuple(dims), layout=())


def _unexplained(dim: Dim | None) -> bool:
    """A bare name the analysis knows nothing about (a parameter, an attribute): maybe an int, maybe a tuple."""
    if dim is None or len(dim.terms) != 1:
        return False
    monomial, coef = dim.terms[0]
    return coef == 1 and len(monomial) == 1 and monomial[0].placeholder


# ----------------------------------------------------------------------------------------- elementwise


def _same(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape:
    return shape


def _cast(dtype: DtypeFamily | None):
    def cast(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape:
        return shape.with_dtype(dtype)
    return cast


def _to(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape:
    if args.keyword("memory_format") is not None:
        return _memory_format(ev, shape, args.keyword("memory_format"))
    for expr in (*args.positional, args.keyword("dtype")):
        dtype = _dtype_of(ev, expr)
        if dtype is not None:
            return shape.with_dtype(dtype)
    tensor = ev.tensor(args.get(0, "other"), before) if args.count() else None
    return shape.with_dtype(tensor.dtype) if tensor is not None else shape


def _memory_format(ev: Evaluator, shape: Shape, expr: cst.BaseExpression | None) -> Shape:
    if expr is None or ev.ctx.qualname(expr) == "torch.preserve_format":
        return shape
    if ev.ctx.qualname(expr) == "torch.contiguous_format":
        return shape.row_major()
    return shape.without_layout()


def _clone(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape:
    return _memory_format(ev, shape, args.keyword("memory_format"))


def _contiguous(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape:
    if args.get(0, "memory_format") is not None:
        return _memory_format(ev, shape, args.get(0, "memory_format"))
    return shape.row_major()


def _with_other(dtype: DtypeFamily | None = None):
    """`x.add(y)`, `x.mul(y)`, `x.eq(y)`, `x.masked_fill(mask, v)`-style: broadcast with the other operand, which
    may be a number."""
    def method(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        other = args.get(0, "other")
        if other is None:
            return None
        result = _broadcast_with(ev, shape, other, before)
        if result is None:
            return None
        return result.with_dtype(dtype) if dtype is not None else result
    return method


def _broadcast_with(ev: Evaluator, shape: Shape, other: cst.BaseExpression, before: int) -> Shape | None:
    if is_number(ev, other, before):
        return shape
    other_shape = ev.tensor(other, before)
    if other_shape is None:
        return None
    return broadcast(shape, other_shape).shape


def _masked_fill(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    return shape


_NUMBER_FUNCTIONS = frozenset({"float", "int", "abs", "round", "min", "max", "len", "sum"})


def is_number(ev: Evaluator, expr: cst.BaseExpression, before: int) -> bool:
    """A Python number, certainly: a literal, `math.*(...)`, a size, arithmetic on those."""
    kind = type(expr)
    if kind in (cst.Integer, cst.Float, cst.Imaginary):
        return True
    if kind is cst.UnaryOperation:
        return is_number(ev, expr.expression, before)
    if kind is cst.BinaryOperation and type(expr.operator) is not cst.MatrixMultiply:
        return is_number(ev, expr.left, before) and is_number(ev, expr.right, before)
    if kind is cst.Call:
        qualname = ev.ctx.qualname(expr.func)
        if qualname is not None and qualname.startswith("math."):
            return True
        if type(expr.func) is cst.Name and expr.func.value in _NUMBER_FUNCTIONS and ev.binding(expr.func, before) \
                is None:
            return expr.func.value not in ("min", "max", "abs", "sum") or all(
                is_number(ev, arg.value, before) for arg in expr.args)
        if type(expr.func) is cst.Attribute and expr.func.attr.value in ("item", "size", "dim", "numel") and \
                (expr.func.attr.value != "size" or expr.args):
            return True
        return False
    if kind is cst.Name:
        binding = ev.binding(expr, before)
        if binding is None:
            return False
        if binding.kind in ("assign", "walrus") and binding.value is not None:
            return is_number(ev, binding.value, binding.seq)
        if binding.kind == "unpack":
            return ev.size(expr, before) is not None and _unpacked_from_sizes(binding)
        return False
    if kind is cst.Subscript:
        return type(expr.value) is cst.Attribute and expr.value.attr.value == "shape" and \
            type(expr.slice[0].slice) is cst.Index
    return False


def _unpacked_from_sizes(binding) -> bool:
    value = binding.value
    return type(value) is cst.Attribute and value.attr.value == "shape" or type(value) is cst.Call and \
        type(value.func) is cst.Attribute and value.func.attr.value == "size"


def binary(ev: Evaluator, node: cst.BinaryOperation, before: int) -> Shape | None:
    operator = type(node.operator)
    if operator is cst.MatrixMultiply:
        left, right = ev.tensor(node.left, before), ev.tensor(node.right, before)
        if left is None or right is None:
            return Shape.unknown_rank()  # whatever the operands, a product is a fresh row-major tensor
        return matmul(left, right)[0]
    if operator in (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
                    cst.BitAnd, cst.BitOr, cst.BitXor):
        left_number = is_number(ev, node.left, before)
        right_number = is_number(ev, node.right, before)
        if left_number and right_number:
            return None
        if right_number:
            return _arithmetic_dtype(ev.tensor(node.left, before), node)
        if left_number:
            return _arithmetic_dtype(ev.tensor(node.right, before), node)
        left, right = ev.tensor(node.left, before), ev.tensor(node.right, before)
        if left is None or right is None:
            return None
        result = broadcast(left, right).shape
        return _arithmetic_dtype(result, node) if result is not None else None
    return None


def _arithmetic_dtype(shape: Shape | None, node: cst.BinaryOperation) -> Shape | None:
    if shape is None:
        return None
    if type(node.operator) is cst.Divide and shape.dtype in ("int", "bool"):
        return shape.with_dtype("float")
    if shape.dtype == "int" and any(type(side) is cst.Float for side in (node.left, node.right)):
        return shape.with_dtype("float")
    return shape


def comparison(ev: Evaluator, node: cst.Comparison, before: int) -> Shape | None:
    if len(node.comparisons) != 1:
        return None
    target = node.comparisons[0]
    if type(target.operator) not in (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual,
                                     cst.Equal, cst.NotEqual):
        return None
    left_number, right_number = is_number(ev, node.left, before), is_number(ev, target.comparator, before)
    if left_number and right_number:
        return None
    if right_number:
        shape = ev.tensor(node.left, before)
    elif left_number:
        shape = ev.tensor(target.comparator, before)
    else:
        left, right = ev.tensor(node.left, before), ev.tensor(target.comparator, before)
        shape = broadcast(left, right).shape if left is not None and right is not None else None
    return shape.with_dtype("bool") if shape is not None else None


# ---------------------------------------------------------------------------------------------------- matmul


def matmul(left: Shape, right: Shape) -> tuple[Shape | None, tuple[Dim, Dim] | None]:
    """The shape of `left @ right`, and the inner dims when they certainly differ. The result is a fresh
    row-major tensor even when its sizes can't be told."""
    shape, inner = _matmul_shape(left, right)
    if shape is None and inner is None:
        return Shape.unknown_rank(dtype=left.dtype if left.dtype == right.dtype else None), None
    return shape, inner


def _matmul_shape(left: Shape, right: Shape) -> tuple[Shape | None, tuple[Dim, Dim] | None]:
    inner_left = left.size(-1)
    inner_right = right.size(-2) if right.rank != 1 else right.size(-1)
    if inner_left is not None and inner_right is not None and same(inner_left, inner_right) is False:
        return None, (inner_left, inner_right)
    dtype = left.dtype if left.dtype == right.dtype else None
    if left.rank == 1 and right.rank == 1:
        return Shape((), dtype=dtype, layout=()), None
    if left.rank == 1:
        out = right.size(-1)
        if out is None:
            return None, None
        batch = _drop(right, {len(right.dims) - 2, len(right.dims) - 1})
        return Shape(batch.dims + (out,), batch.variadic, batch.variadic_name, tuple(range(len(batch.dims) + 1)),
                     dtype), None
    if right.rank == 1:
        if len(left.dims) < 1 or (left.variadic is not None and left.variadic > len(left.dims) - 1):
            return None, None
        result = _drop(left, {len(left.dims) - 1})
        return result.row_major().with_dtype(dtype), None
    rows, cols = left.size(-2), right.size(-1)
    if rows is None or cols is None:
        return None, None
    left_batch = Shape(left.dims[:-2], left.variadic if left.variadic is None or left.variadic <= len(left.dims) - 2
                       else None, left.variadic_name)
    right_batch = Shape(right.dims[:-2], right.variadic if right.variadic is None
                        or right.variadic <= len(right.dims) - 2 else None, right.variadic_name)
    if left.variadic is not None and left.variadic > len(left.dims) - 2 or \
            right.variadic is not None and right.variadic > len(right.dims) - 2:
        return None, None
    batch = broadcast(left_batch, right_batch)
    if batch.shape is None:
        return None, None
    dims = batch.shape.dims + (rows, cols)
    return Shape(dims, batch.shape.variadic, "...", tuple(range(len(dims))), dtype), None


def _matmul_function(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    left, right = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "other", "mat2"), before)
    if left is None or right is None:
        return Shape.unknown_rank()
    return matmul(left, right)[0]


def _matmul_method(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = ev.tensor(args.get(0, "other", "mat2"), before)
    return matmul(shape, other)[0] if other is not None else None


def einsum(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.einsum("bhqd,bhkd->bhqk", q, k)`: each letter's size from the operands that have it. Layout unknown
    (einsum may hand back a permuted view)."""
    args = Args(node, 0)
    spec = args.get(0, "equation")
    if type(spec) is not cst.SimpleString or not isinstance(spec.evaluated_value, str):
        return None
    equation = spec.evaluated_value.replace(" ", "")
    if "->" not in equation or "." in equation:
        return None
    inputs_text, output = equation.split("->")
    operands = args.rest(1)
    if len(operands) == 1 and type(operands[0]) in (cst.List, cst.Tuple):
        operands = [e.value for e in operands[0].elements]
    inputs = inputs_text.split(",")
    if len(inputs) != len(operands):
        return None
    letters: dict[str, Dim] = {}
    for letters_of, operand in zip(inputs, operands):
        shape = ev.tensor(operand, before)
        if shape is None or shape.rank != len(letters_of):
            return None
        for letter, dim in zip(letters_of, shape.dims):
            if letter not in letters or letters[letter].literal == 1:
                letters[letter] = dim
    if any(letter not in letters for letter in output):
        return None
    return Shape(tuple(letters[letter] for letter in output), layout=None)


def linear(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    x, weight = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "weight"), before)
    if x is None or weight is None or weight.rank != 2 or x.size(-1) is None:
        return None
    if same(x.size(-1), weight.dims[1]) is False:
        return None
    return _last_replaced(x, weight.dims[0])


def _last_replaced(shape: Shape, dim: Dim) -> Shape:
    return Shape(shape.dims[:-1] + (dim,), shape.variadic, shape.variadic_name, tuple(range(len(shape.dims))),
                 shape.dtype)


# ------------------------------------------------------------------------------------------------- layout


def _transpose(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    first = ev.integer(args.get(0, "dim0", "axis0"), before)
    second = ev.integer(args.get(1, "dim1", "axis1"), before)
    if first is None or second is None:
        return None
    shape = _expanded(ev, shape, [first, second], args)
    if shape is None:
        return None
    a, b = shape.index(first), shape.index(second)
    if a is None or b is None:
        return None
    order = list(range(len(shape.dims)))
    order[a], order[b] = b, a
    return _permuted(shape, order)


def _t(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    if shape.rank is not None and shape.rank < 2:
        return shape
    shape = ev.materialized(shape, 2, id(args.call))
    if shape is None or shape.variadic is not None and len(shape.dims) > 2:
        return None
    shape = _with_rank(ev, shape, 2, id(args.call))
    return _permuted(shape, [1, 0]) if shape is not None else None


def _permute(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    listed = args.rest(0)
    if len(listed) == 1 and type(listed[0]) in (cst.Tuple, cst.List):
        listed = [e.value for e in listed[0].elements]
    elif not listed and args.keyword("dims") is not None and type(args.keyword("dims")) in (cst.Tuple, cst.List):
        listed = [e.value for e in args.keyword("dims").elements]
    dims = [ev.integer(expr, before) for expr in listed]
    if not dims or None in dims:
        return None
    shape = _with_rank(ev, shape, len(dims), id(args.call))
    if shape is None:
        return None
    rank = len(dims)
    order = [d + rank if d < 0 else d for d in dims]
    if sorted(order) != list(range(rank)):
        return None
    return _permuted(shape, order)


def _movedim(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sources = _int_list(ev, args.get(0, "source"), before)
    targets = _int_list(ev, args.get(1, "destination"), before)
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
    return _permuted(shape, [placed[i] if i in placed else next(rest) for i in range(rank)])


def _int_list(ev: Evaluator, expr: cst.BaseExpression | None, before: int) -> list[int] | None:
    if expr is None:
        return None
    if type(expr) in (cst.Tuple, cst.List):
        values = [ev.integer(e.value, before) for e in expr.elements]
        return None if None in values else values  # type: ignore[return-value]
    single = ev.integer(expr, before)
    return None if single is None else [single]


def attribute(ev: Evaluator, node: cst.Attribute, before: int) -> Shape | None:
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
        return replace(_permuted(shape, list(reversed(range(shape.rank)))), permuted_by="." + name)
    if name in ("mT", "mH"):
        shape = ev.materialized(shape, 0, id(node), trailing=2)
        if shape is None or len(shape.dims) < 2 or shape.variadic is not None and \
                shape.variadic > len(shape.dims) - 2:
            return None
        order = list(range(len(shape.dims)))
        order[-1], order[-2] = order[-2], order[-1]
        return replace(_permuted(shape, order), permuted_by="." + name)
    return None


def _arguments(ctx, call: cst.Call) -> str:
    return ", ".join((f"{arg.keyword.value}=" if arg.keyword else "") + arg.star + ctx.code(arg.value)
                     for arg in call.args)


# ---------------------------------------------------------------------------------------------- reshaping


def _view(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    if args.count() == 1 and _dtype_of(ev, args.get(0)) is not None:
        return None  # `.view(torch.int16)` reinterprets the bytes
    sizes = _shape_arguments(ev, args, 0, "size", before)
    return reshaped(shape, sizes, copies=False, owner=id(args.call)) if sizes is not None else None


def _reshape(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sizes = _shape_arguments(ev, args, 0, "shape", before)
    if sizes is None:
        return None
    copies = not shape.contiguous and layout_verdict(shape, sizes.dims) is not None if sizes.variadic is None \
        else False
    return reshaped(shape, sizes, copies=copies, owner=id(args.call))


def _view_as(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = ev.tensor(args.get(0, "other"), before)
    if other is None:
        return None
    return reshaped(shape, Shape(other.dims, other.variadic, other.variadic_name), copies=False,
                    owner=id(args.call))


def _flatten(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
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


def _unflatten(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = _position(ev, shape, args.get(0, "dim"), before)
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


def _squeeze(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    target = args.get(0, "dim")
    if target is None:
        if shape.variadic is not None or any(d.literal is None for d in shape.dims):
            return None  # which dims are 1 can't be told
        return _drop(shape, {i for i, d in enumerate(shape.dims) if d.literal == 1})
    listed = _int_list(ev, target, before)
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
    return _drop(shape, positions)


def _unsqueeze(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    dim = ev.integer(args.get(0, "dim"), before)
    if dim is None:
        return None
    position = _insert_position(shape, dim)
    return _insert(shape, position, Dim.of(1)) if position is not None else None


def _aligned(ev: Evaluator, shape: Shape, args: Args, keyword: str, before: int) -> tuple[Shape, int] | None:
    """The sizes `expand`/`repeat` take, and how many leading dims they add in front of the tensor's."""
    sizes = _shape_arguments(ev, args, 0, keyword, before)
    if sizes is None or sizes.variadic is not None or shape.variadic is not None:
        return None
    offset = len(sizes.dims) - len(shape.dims)
    return (sizes, offset) if offset >= 0 else None


def _expand(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
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


def _expand_as(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = ev.tensor(args.get(0, "other"), before)
    return Shape(other.dims, other.variadic, other.variadic_name, None, shape.dtype) if other is not None else None


def _repeat(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    aligned = _aligned(ev, shape, args, "repeats", before)
    if aligned is None:
        return None
    sizes, offset = aligned
    dims = tuple(size * (shape.dims[i - offset] if i >= offset else Dim.of(1)) for i, size in enumerate(sizes.dims))
    return Shape(dims, layout=tuple(range(len(dims))), dtype=shape.dtype)


def _narrow(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = _position(ev, shape, args.get(0, "dim"), before)
    length = ev.size(args.get(2, "length"), before)
    if position is None or length is None:
        return None
    return _replaced(shape, position, length)


def _replaced(shape: Shape, position: int, dim: Dim) -> Shape:
    dims = shape.dims[:position] + (dim,) + shape.dims[position + 1:]
    return Shape(dims, shape.variadic, shape.variadic_name, shape.layout, shape.dtype)


def _index_select(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = _position(ev, shape, args.get(0, "dim"), before)
    index = ev.tensor(args.get(1, "index"), before)
    if position is None or index is None or index.rank != 1:
        return None
    return _replaced(shape, position, index.dims[0]).row_major()


def _gather(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    index = ev.tensor(args.get(1, "index"), before)
    return index.with_dtype(shape.dtype).row_major() if index is not None else None


# ----------------------------------------------------------------------------------------------- reductions


def _reduce(dtype: DtypeFamily | None = None, dim_index: int = 0, dim_names: tuple[str, ...] = ("dim", "axis")):
    """`x.sum(dim, keepdim)`, `x.mean()`, `x.argmax(-1)`: the dims named are removed (kept as 1 with keepdim);
    no dim reduces everything to a scalar."""
    def reduce(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
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
        listed = _int_list(ev, target, before)
        if listed is None:
            return None
        expanded = _expanded(ev, shape, listed, args)
        if expanded is None:
            return None
        positions = {expanded.index(d) for d in listed}
        if None in positions:
            return None
        if keepdim:
            dims = tuple(Dim.of(1) if i in positions else d for i, d in enumerate(expanded.dims))
            result = Shape(dims, expanded.variadic, expanded.variadic_name, None, result_dtype)
        else:
            result = _drop(expanded, positions).with_dtype(result_dtype)  # type: ignore[arg-type]
        return result.row_major()
    return reduce


def _pair(dtype: DtypeFamily | None = None):
    """`x.max(dim)` -> (values, indices); `x.max()` -> a scalar, as a tuple of one for `items`."""
    reduce = _reduce(dtype)

    def pair(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
        if args.get(0, "dim") is None:
            return None
        values = reduce(ev, shape, args, before)
        if values is None:
            return None
        return Items((values, values.with_dtype("int")))
    return pair


def _max_min(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`x.max()` (a scalar) or `x.max(other)` (elementwise); `x.max(dim)` is a pair, see `items`."""
    target = args.get(0, "dim", "other")
    if target is None:
        return Shape((), layout=(), dtype=shape.dtype)
    if ev.integer(target, before) is None:
        other = ev.tensor(target, before)
        return broadcast(shape, other).shape if other is not None else None
    return None


def _topk(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
    k = ev.size(args.get(0, "k"), before)
    dim = args.get(1, "dim")
    position = shape.index(ev.integer(dim, before) if dim is not None else -1) if dim is None or \
        ev.integer(dim, before) is not None else None
    if k is None or position is None:
        return None
    values = _replaced(shape, position, k).row_major()
    return Items((values, values.with_dtype("int")))


def _sort(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
    return Items((shape.row_major(), shape.row_major().with_dtype("int")))


def _split_dim(ev: Evaluator, shape: Shape, args: Args, before: int) -> tuple[Shape, int] | None:
    """The tensor (with the dim named) and the position of the dim a chunk/split/unbind cuts (`dim`, default 0)."""
    dim = ev.integer(args.get(1, "dim"), before) if args.get(1, "dim") is not None else 0
    if dim is None:
        return None
    expanded = _expanded(ev, shape, [dim], args)
    position = expanded.index(dim) if expanded is not None else None
    return (expanded, position) if expanded is not None and position is not None else None


def _chunk(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
    count = ev.integer(args.get(0, "chunks"), before)
    cut = _split_dim(ev, shape, args, before)
    if count is None or count <= 0 or cut is None:
        return None
    shape, position = cut
    size = shape.dims[position]
    if size.literal is not None:
        step = -(-size.literal // count)
        pieces = [min(step, size.literal - i * step) for i in range(count) if i * step < size.literal]
        return Items(tuple(_replaced(shape, position, Dim.of(p)) for p in pieces))
    part = size._divided(Dim.of(count))
    if part is not None:
        return Items(tuple(_replaced(shape, position, part) for _ in range(count)))
    return Items(None, _replaced(shape, position, opaque(("chunk", id(args.call)), f"{size} / {count}")))


def _split(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
    target = args.get(0, "split_size_or_sections", "split_size")
    cut = _split_dim(ev, shape, args, before)
    if target is None or cut is None:
        return None
    shape, position = cut
    size = shape.dims[position]
    if type(target) in (cst.List, cst.Tuple):
        parts = [ev.size(e.value, before) for e in target.elements]
        if None in parts:
            return None
        return Items(tuple(_replaced(shape, position, p) for p in parts))  # type: ignore[arg-type]
    step = ev.size(target, before)
    if step is None:
        return None
    if size.literal is not None and step.literal:
        pieces = [min(step.literal, size.literal - start) for start in range(0, size.literal, step.literal)]
        return Items(tuple(_replaced(shape, position, Dim.of(p)) for p in pieces))
    count = size._divided(step)
    if count is not None and count.literal is not None and 0 < count.literal <= 64:
        return Items(tuple(_replaced(shape, position, step) for _ in range(count.literal)))
    return Items(None, _replaced(shape, position, opaque(("split", id(args.call)), f"{step}?")))


def _unbind(ev: Evaluator, shape: Shape, args: Args, before: int) -> Items | None:
    dim = ev.integer(args.get(0, "dim"), before) if args.get(0, "dim") is not None else 0
    if dim is None:
        return None
    shape = _expanded(ev, shape, [dim], args)
    position = shape.index(dim) if shape is not None else None
    if position is None:
        return None
    piece = _drop(shape, {position})
    count = shape.dims[position].literal
    if count is not None and 0 <= count <= 64:
        return Items(tuple(piece for _ in range(count)))
    return Items(None, piece)


# ----------------------------------------------------------------------------------------------- cat / stack


def joined(ev: Evaluator, node: cst.Call, before: int, stack: bool) -> tuple[list[Shape] | None, int | None]:
    """The shapes of the tensors a `cat`/`stack` joins, and the `dim`; None when the list isn't literal."""
    args = Args(node, 0)
    listed = args.get(0, "tensors")
    if type(listed) not in (cst.List, cst.Tuple):
        return None, None
    if any(type(e) is cst.StarredElement for e in listed.elements):
        return None, None
    shapes = [ev.tensor(e.value, before) for e in listed.elements]
    dim_expr = args.get(1, "dim", "axis")
    dim = ev.integer(dim_expr, before) if dim_expr is not None else 0
    if None in shapes or not shapes:
        return None, dim
    return shapes, dim  # type: ignore[return-value]


def _cat(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    shapes, dim = joined(ev, node, before, stack=False)
    if shapes is None or dim is None:
        return None
    first = shapes[0]
    if any(s.rank is None for s in shapes) or len({s.rank for s in shapes}) != 1:
        return None
    position = first.index(dim)
    if position is None:
        return None
    for other in shapes[1:]:
        for i, (a, b) in enumerate(zip(first.dims, other.dims)):
            if i != position and same(a, b) is False:
                return None
    total = Dim.of(0)
    for shape in shapes:
        total = total + shape.dims[position]
    dtype = first.dtype if all(s.dtype == first.dtype for s in shapes) else None
    return Shape(first.dims[:position] + (total,) + first.dims[position + 1:], layout=(), dtype=dtype).row_major()


def _stack(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    shapes, dim = joined(ev, node, before, stack=True)
    if shapes is None or dim is None:
        return None
    first = shapes[0]
    for other in shapes[1:]:
        if other.rank != first.rank or any(same(a, b) is False for a, b in zip(first.dims, other.dims)):
            return None
    position = _insert_position(first, dim)
    if position is None:
        return None
    dtype = first.dtype if all(s.dtype == first.dtype for s in shapes) else None
    return _insert(first, position, Dim.of(len(shapes))).row_major().with_dtype(dtype)


# --------------------------------------------------------------------------------------------- constructors


def _creation(dtype: DtypeFamily | None = "float"):
    """`torch.zeros(2, 3)`, `torch.randn((B, T), dtype=...)`, `torch.ones(x.shape)`, `torch.empty(size=(...))`."""
    def create(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        sizes = _shape_arguments(ev, args, 0, "size", before)
        if sizes is None:
            return None
        return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                     _dtype_of(ev, args.keyword("dtype")) or dtype)
    return create


def _full(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    sizes = ev.sizes(args.get(0, "size"), before)
    if sizes is None:
        return None
    fill = args.get(1, "fill_value")
    dtype = _dtype_of(ev, args.keyword("dtype")) or _literal_dtype(fill)
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))), dtype)


def _literal_dtype(expr: cst.BaseExpression | None) -> DtypeFamily | None:
    while type(expr) is cst.UnaryOperation:
        expr = expr.expression
    if type(expr) is cst.Integer:
        return "int"
    if type(expr) is cst.Float:
        return "float"
    if type(expr) is cst.Name and expr.value in ("True", "False"):
        return "bool"
    return None


def _randint(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    sizes_expr = args.keyword("size")
    if sizes_expr is None:
        sequences = [e for e in args.positional if type(e) in (cst.Tuple, cst.List)]
        sizes_expr = sequences[0] if len(sequences) == 1 else None
    sizes = ev.sizes(sizes_expr, before)
    if sizes is None:
        return None
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                 _dtype_of(ev, args.keyword("dtype")) or "int")


def _arange(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    bounds = args.rest(0)
    if not 1 <= len(bounds) <= 3:
        return None
    values = [ev.size(e, before) for e in bounds]
    if None in values:
        return None
    start, end = (Dim.of(0), values[0]) if len(values) == 1 else (values[0], values[1])
    step = values[2] if len(values) == 3 else Dim.of(1)
    span = end - start  # type: ignore[operator]
    length = span if step.literal == 1 else span._divided(step)  # type: ignore[union-attr]
    if length is None:
        length = opaque(("arange", id(node)), f"({span}) / {step}")
    dtype = _dtype_of(ev, args.keyword("dtype")) or (
        "int" if all(_literal_dtype(e) in ("int", None) and type(e) is not cst.Float for e in bounds) else None)
    return Shape((length,), layout=(0,), dtype=dtype)


def _linspace(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    steps = ev.size(Args(node, 0).get(2, "steps"), before)
    return Shape((steps,), layout=(0,), dtype="float") if steps is not None else None


def _eye(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    n = ev.size(args.get(0, "n"), before)
    m = ev.size(args.get(1, "m"), before) if args.get(1, "m") is not None else n
    if n is None or m is None:
        return None
    return Shape((n, m), layout=(0, 1), dtype=_dtype_of(ev, args.keyword("dtype")) or "float")


def _like(dtype: DtypeFamily | None = None):
    def like(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        shape = ev.tensor(args.get(0, "input"), before)
        if shape is None:
            return None
        result = _memory_format(ev, shape, args.keyword("memory_format"))
        return result.with_dtype(_dtype_of(ev, args.keyword("dtype")) or dtype or shape.dtype)
    return like


def _tensor_literal(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.tensor([[1, 2], [3, 4]])`: the nesting of a literal list."""
    data = Args(node, 0).get(0, "data")
    dims: list[Dim] = []
    kinds: set[str] = set()
    if not _nested(data, dims, kinds, 0):
        return None
    dtype = _dtype_of(ev, Args(node, 0).keyword("dtype"))
    if dtype is None and len(kinds) == 1:
        dtype = next(iter(kinds))  # type: ignore[assignment]
    elif dtype is None and kinds <= {"int", "float"}:
        dtype = "float"
    return Shape(tuple(dims), layout=tuple(range(len(dims))), dtype=dtype)


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
    kind = _literal_dtype(expr)
    if kind is None or depth != len(dims):
        return False
    kinds.add(kind)
    return True


def _new(dtype: DtypeFamily | None = None):
    """`x.new_zeros(sizes)`: a fresh tensor of the receiver's dtype."""
    def new(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        sizes = _shape_arguments(ev, args, 0, "size", before)
        if sizes is None:
            return None
        return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                     _dtype_of(ev, args.keyword("dtype")) or dtype or shape.dtype)
    return new


def _new_full(ev: Evaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sizes = ev.sizes(args.get(0, "size"), before)
    if sizes is None:
        return None
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                 _dtype_of(ev, args.keyword("dtype")) or shape.dtype)


def _parameter(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    return ev.tensor(Args(node, 0).get(0, "data"), before)


# ------------------------------------------------------------------------------ functions of one tensor


def _function(method, offset: int = 1, keyword: str = "input"):
    """`torch.f(x, ...)` as `x.f(...)`: the same transfer function with the arguments shifted by one."""
    def function(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, offset)
        tensor = args.keyword(keyword)
        if tensor is None:
            args.offset = 0
            tensor = args.get(0)
            args.offset = offset
        shape = ev.tensor(tensor, before)
        return method(ev, shape, args, before) if shape is not None else None
    return function


def _where(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    parts = [args.get(0, "condition"), args.get(1, "input"), args.get(2, "other")]
    if None in parts:
        return None
    shapes = [ev.tensor(p, before) for p in parts]
    known = [s for s, p in zip(shapes, parts) if s is not None]
    if any(s is None and not is_number(ev, p, before) for s, p in zip(shapes, parts)):
        return None
    result = known[0]
    for other in known[1:]:
        result = broadcast(result, other).shape
        if result is None:
            return None
    dtypes = {s.dtype for s in shapes[1:] if s is not None}
    return result.with_dtype(next(iter(dtypes)) if len(dtypes) == 1 else None)


def _binary_function(dtype: DtypeFamily | None = None):
    """`torch.add(a, b)`, `torch.maximum(a, b)`, `torch.eq(a, b)`: broadcast."""
    def function(ev: Evaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        a, b = args.get(0, "input"), args.get(1, "other")
        if a is None or b is None:
            return None
        shape = ev.tensor(a, before)
        if shape is None:
            if not is_number(ev, a, before):
                return None
            shape = ev.tensor(b, before)
            return shape.with_dtype(dtype) if shape is not None and dtype else shape
        result = _broadcast_with(ev, shape, b, before)
        return result.with_dtype(dtype) if result is not None and dtype else result
    return function


# ----------------------------------------------------------------------------------------------- subscripts


def subscript(ev: Evaluator, node: cst.Subscript, before: int) -> Shape | None:
    """Basic indexing: ints drop a dim, slices keep it (a literal slice of a literal size is exact), `None` adds a
    1, `...` stands for the dims not named. A tensor or list index (advanced indexing) is left unknown."""
    shape = ev.tensor(node.value, before)
    if shape is None:
        found = ev.items(node.value, before)
        if found is None or len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
            return None
        index = ev.integer(node.slice[0].slice.value, before)
        value = found.at(index) if index is not None else None
        return value if isinstance(value, Shape) else None
    elements = [element.slice for element in node.slice]
    ellipses = [i for i, e in enumerate(elements) if type(e) is cst.Index and type(e.value) is cst.Ellipsis]
    if len(ellipses) > 1:
        return None
    if not ellipses and shape.variadic is not None:
        shape = ev.materialized(shape, sum(1 for e in elements if not _is_none(e)), id(node))
        if shape is None:
            return None
        if shape.variadic is not None and shape.variadic < sum(1 for e in elements if not _is_none(e)):
            return None
    split = ellipses[0] if ellipses else len(elements)
    front, back = elements[:split], elements[split + 1:]
    consumed_front = sum(1 for e in front if not _is_none(e))
    consumed_back = sum(1 for e in back if not _is_none(e))
    if shape.variadic is not None and (consumed_front > shape.variadic or
                                       consumed_back > len(shape.dims) - shape.variadic):
        return None
    if shape.variadic is None and consumed_front + consumed_back > len(shape.dims):
        return None
    result = shape
    # back first, so front positions stay valid
    position = len(shape.dims)
    for element in reversed(back):
        if _is_none(element):
            result = _insert(result, position, Dim.of(1))
            continue
        position -= 1
        result = _indexed(ev, result, position, element, before)
        if result is None:
            return None
    position = 0
    for element in front:
        if _is_none(element):
            result = _insert(result, position, Dim.of(1))
            position += 1
            continue
        before_rank = len(result.dims)
        result = _indexed(ev, result, position, element, before)
        if result is None:
            return None
        if len(result.dims) == before_rank:
            position += 1
    return result


def _is_none(element: cst.BaseSlice) -> bool:
    return type(element) is cst.Index and type(element.value) is cst.Name and element.value.value == "None"


def _indexed(ev: Evaluator, shape: Shape, position: int, element: cst.BaseSlice, before: int) -> Shape | None:
    if type(element) is cst.Slice:
        if element.lower is None and element.upper is None and element.step is None:
            return shape
        size = _slice_length(ev, shape.dims[position], element, before)
        dim = size if size is not None else opaque(("slice", id(element), shape.dims[position]),
                                                    f"{shape.dims[position]}[{ev.ctx.code(element)}]")
        return _replaced(shape, position, dim)
    if type(element) is cst.Index and ev.integer(element.value, before) is not None:
        return _drop(shape, {position})
    return None


def _slice_length(ev: Evaluator, size: Dim, element: cst.Slice, before: int) -> Dim | None:
    """The length of `a:b` over a dim of `size`, when exact: literal bounds within a literal size, or `:n` / `n:`
    style bounds given as sizes known not to exceed it (only when both are literal)."""
    if element.step is not None:
        return None
    lower = ev.integer(element.lower, before) if element.lower is not None else 0
    upper = ev.integer(element.upper, before) if element.upper is not None else None
    if lower is None or element.upper is not None and upper is None:
        return None
    total = size.literal
    if total is None:
        if upper is None and lower >= 0:
            return size - lower if lower == 0 else None
        return None
    start = max(0, lower + total if lower < 0 else lower)
    stop = total if upper is None else max(0, upper + total if upper < 0 else upper)
    return Dim.of(max(0, min(stop, total) - min(start, total)))


# ------------------------------------------------------------------------------------------------- sizes


def sizes(ev: Evaluator, node: cst.BaseExpression, before: int) -> Shape | None:
    """A sequence of sizes: `x.shape`, `x.size()`, `(B, T, C)`, `x.shape[:-1]`, `a + (n,)`, `torch.Size([...])`."""
    kind = type(node)
    if kind is cst.Attribute and node.attr.value == "shape" or kind is cst.Call and type(node.func) is cst.Attribute \
            and node.func.attr.value == "size" and not node.args:
        tensor = node.value if kind is cst.Attribute else node.func.value
        return ev.tensor(tensor, before)
    if kind in (cst.Tuple, cst.List):
        dims: list[Dim] = []
        variadic = None
        for element in node.elements:
            if type(element) is cst.StarredElement:
                inner = ev.sizes(element.value, before)
                if inner is None or inner.variadic is not None and variadic is not None:
                    return None
                if inner.variadic is not None:
                    variadic = len(dims) + inner.variadic
                dims.extend(inner.dims)
                continue
            dim = ev.size(element.value, before)
            if dim is None:
                return None
            dims.append(dim)
        return Shape(tuple(dims), variadic)
    if kind is cst.Subscript:
        whole = ev.sizes(node.value, before)
        if whole is None or len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Slice:
            return None
        return _sliced_sizes(ev, whole, node.slice[0].slice, before)
    if kind is cst.BinaryOperation and type(node.operator) is cst.Add:
        left, right = ev.sizes(node.left, before), ev.sizes(node.right, before)
        if left is None or right is None or left.variadic is not None and right.variadic is not None:
            return None
        variadic = left.variadic if left.variadic is not None else (
            None if right.variadic is None else len(left.dims) + right.variadic)
        return Shape(left.dims + right.dims, variadic)
    if kind is cst.Name:
        value = ev.follow(node, before, "sizes")
        return value.shape if isinstance(value, Sizes) else None
    if kind is cst.Call and ev.ctx.qualname(node.func) == "torch.Size" and len(node.args) == 1:
        return ev.sizes(node.args[0].value, before)
    return None


def _sliced_sizes(ev: Evaluator, whole: Shape, piece: cst.Slice, before: int) -> Shape | None:
    if piece.step is not None:
        return None
    lower = ev.integer(piece.lower, before) if piece.lower is not None else None
    upper = ev.integer(piece.upper, before) if piece.upper is not None else None
    if piece.lower is not None and lower is None or piece.upper is not None and upper is None:
        return None
    if whole.variadic is None:
        return Shape(whole.dims[lower:upper])
    # an unknown run: `[:k]` and `[-k:]` are fine when they stay on one side of it; `[:-k]` keeps the run
    v = whole.variadic
    if lower is None and upper is not None and upper < 0:
        if -upper <= len(whole.dims) - v:
            return Shape(whole.dims[:upper], v, whole.variadic_name)
        return Shape(whole.dims[:v], v, whole.variadic_name)  # what the unknown run leaves is unknown too
    if upper is None and lower is not None and lower < 0 and -lower <= len(whole.dims) - v:
        return Shape(whole.dims[lower:])
    if lower is None and upper is not None and 0 <= upper <= v:
        return Shape(whole.dims[:upper])
    if upper is None and lower is not None and 0 <= lower <= v:
        return Shape(whole.dims[lower:], v - lower, whole.variadic_name)
    return None


def size_attribute(ev: Evaluator, node: cst.Attribute, before: int) -> Dim | None:
    if node.attr.value == "ndim":
        shape = ev.tensor(node.value, before)
        return Dim.of(shape.rank) if shape is not None and shape.rank is not None else None
    if ev.ctx.qualname(node) is not None:
        return None
    if _is_self_attribute(node):
        return ev.size_of_name(node, before)
    root = node.value
    while type(root) is cst.Attribute:
        root = root.value
    if type(root) is not cst.Name:
        return None
    binding = ev.binding(root, before)
    return Dim.symbol(("attribute", ev.ctx.code(node), id(binding)), ev.ctx.code(node), placeholder=True)


def size_call(ev: Evaluator, node: cst.Call, before: int) -> Dim | None:
    func = node.func
    if type(func) is cst.Attribute and ev.ctx.qualname(func) is None:
        name = func.attr.value
        if name == "size" and len(node.args) == 1:
            index = ev.integer(node.args[0].value, before)
            return ev.dim_of_tensor(func.value, index, before) if index is not None else None
        if name in ("dim", "ndimension") and not node.args:
            shape = ev.tensor(func.value, before)
            return Dim.of(shape.rank) if shape is not None and shape.rank is not None else None
        if name in ("numel", "nelement") and not node.args:
            shape = ev.tensor(func.value, before)
            return product(shape.dims) if shape is not None and shape.rank is not None else None
        return None
    if type(func) is cst.Name and func.value == "int" and len(node.args) == 1 and ev.binding(func, before) is None:
        return ev.size(node.args[0].value, before)
    return None


def size_subscript(ev: Evaluator, node: cst.Subscript, before: int) -> Dim | None:
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return None
    index = ev.integer(node.slice[0].slice.value, before)
    if index is None:
        return None
    container = node.value
    measured_tensor = measured(container)
    if measured_tensor is not None:
        return ev.dim_of_tensor(measured_tensor, index, before)
    whole = ev.sizes(container, before)
    if whole is not None:
        return whole.size(index)
    if type(container) is cst.Name or _is_self_attribute(container):
        binding = ev.binding(container, before)
        owner = id(binding) if binding is not None else ev.ctx.code(container)
        return Dim.symbol(("item", owner, index), ev.ctx.code(node))
    return None


def measured(expr: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`x` for `x.shape` and `x.size()`."""
    if type(expr) is cst.Attribute and expr.attr.value == "shape":
        return expr.value
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "size" \
            and not expr.args:
        return expr.func.value
    return None


# ------------------------------------------------------------------------------------------------ tables

_SAME = ("abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
         "tanh", "sigmoid", "relu", "relu_", "sign", "round", "floor", "ceil", "trunc", "frac", "reciprocal", "square",
         "clamp", "clamp_", "clamp_min", "clamp_max", "clip", "pow", "softmax", "log_softmax", "cumsum", "cumprod",
         "logcumsumexp", "flip", "roll", "detach", "detach_", "requires_grad_", "cpu", "cuda", "pin_memory",
         "zero_", "fill_", "normal_", "uniform_", "bernoulli_", "exponential_", "abs_", "neg_", "exp_", "sqrt_",
         "sigmoid_", "tanh_", "add_", "sub_", "mul_", "div_", "pow_", "copy_", "nan_to_num", "erf", "erfinv",
         "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "lerp", "masked_fill_", "scatter",
         "scatter_", "scatter_add", "scatter_add_", "index_fill", "index_fill_", "index_add", "index_add_",
         "index_copy", "tril", "triu", "tril_", "triu_", "masked_scatter", "float_power", "conj", "angle",
         "nan_to_num_", "logit", "sgn", "retain_grad", "share_memory_")

METHODS = {
    **dict.fromkeys(_SAME, _same),
    "float": _cast("float"), "half": _cast("float"), "double": _cast("float"), "bfloat16": _cast("float"),
    "long": _cast("int"), "int": _cast("int"), "short": _cast("int"), "byte": _cast("int"), "bool": _cast("bool"),
    "to": _to, "type_as": _to, "type": lambda ev, shape, args, before: shape if args.count() else None,
    "clone": _clone, "contiguous": _contiguous,
    **dict.fromkeys(("add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "maximum",
                     "minimum", "atan2", "hypot", "logaddexp"), _with_other()),
    **dict.fromkeys(("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"),
                    _with_other("bool")),
    "logical_not": _cast("bool"), "isnan": _cast("bool"), "isinf": _cast("bool"), "isfinite": _cast("bool"),
    "masked_fill": _masked_fill,
    "matmul": _matmul_method, "mm": _matmul_method, "bmm": _matmul_method,
    "transpose": _transpose, "swapaxes": _transpose, "swapdims": _transpose, "t": _t, "permute": _permute,
    "movedim": _movedim, "moveaxis": _movedim,
    "view": _view, "reshape": _reshape, "view_as": _view_as, "reshape_as": _view_as, "flatten": _flatten,
    "unflatten": _unflatten, "squeeze": _squeeze, "unsqueeze": _unsqueeze, "expand": _expand,
    "expand_as": _expand_as, "repeat": _repeat, "narrow": _narrow, "index_select": _index_select, "gather": _gather,
    "take_along_dim": _gather,
    **dict.fromkeys(("sum", "mean", "prod", "nansum", "nanmean", "logsumexp", "amax", "amin", "count_nonzero"),
                    _reduce()),
    **dict.fromkeys(("std", "var"), _reduce()),
    "norm": _reduce(dim_index=1), "argmax": _reduce("int"), "argmin": _reduce("int"),
    "all": _reduce("bool"), "any": _reduce("bool"),
    "max": _max_min, "min": _max_min,
    "new_zeros": _new(), "new_ones": _new(), "new_empty": _new(), "new_full": _new_full,
}

_LAYOUT_METHODS = frozenset({"transpose", "swapaxes", "swapdims", "t", "permute", "movedim", "moveaxis"})
_LAYOUT_FUNCTIONS = frozenset(f"torch.{name}" for name in _LAYOUT_METHODS)

TUPLE_METHODS = {
    "max": _pair(), "min": _pair(), "median": _pair(), "mode": _pair(), "kthvalue": None, "topk": _topk,
    "sort": _sort, "chunk": _chunk, "split": _split, "unbind": _unbind, "tensor_split": None,
}
TUPLE_METHODS = {name: handler for name, handler in TUPLE_METHODS.items() if handler is not None}
TUPLE_FUNCTIONS = {f"torch.{name}": _function(handler) for name, handler in TUPLE_METHODS.items()}

_TORCH_SAME = ("abs", "neg", "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "relu",
               "sign", "round", "floor", "ceil", "reciprocal", "square", "clamp", "clip", "pow", "softmax",
               "log_softmax", "cumsum", "cumprod", "flip", "roll", "erf", "tril", "triu", "nan_to_num", "logit",
               "special.expit", "special.softmax", "special.log_softmax", "atan", "sinh", "cosh")
_F_SAME = ("relu", "relu6", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "mish", "softplus", "softsign",
           "hardtanh", "hardswish", "hardsigmoid", "sigmoid", "tanh", "logsigmoid", "softmax", "log_softmax",
           "softmin", "gumbel_softmax", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "normalize", "layer_norm", "group_norm", "batch_norm", "instance_norm", "local_response_norm",
           "rms_norm", "tanhshrink", "hardshrink", "softshrink", "threshold", "prelu", "rrelu")

FUNCTIONS = {
    **{f"torch.{name}": _function(_same) for name in _TORCH_SAME},
    **{f"F.{name}": _function(_same) for name in _F_SAME},
    **{f"torch.{name}": _creation() for name in ("zeros", "ones", "empty", "rand", "randn")},
    "torch.full": _full, "torch.randint": _randint, "torch.arange": _arange, "torch.linspace": _linspace,
    "torch.logspace": _linspace, "torch.eye": _eye, "torch.tensor": _tensor_literal,
    **{f"torch.{name}_like": _like() for name in ("zeros", "ones", "empty", "rand", "randn", "full")},
    "torch.randint_like": _like("int"),
    "torch.nn.Parameter": _parameter, "torch.nn.parameter.Parameter": _parameter,
    "torch.matmul": _matmul_function, "torch.mm": _matmul_function, "torch.bmm": _matmul_function,
    "torch.einsum": einsum, "F.linear": linear,
    "torch.transpose": _function(_transpose), "torch.swapaxes": _function(_transpose),
    "torch.swapdims": _function(_transpose), "torch.t": _function(_t), "torch.permute": _function(_permute),
    "torch.movedim": _function(_movedim), "torch.moveaxis": _function(_movedim),
    "torch.reshape": _function(_reshape), "torch.flatten": _function(_flatten),
    "torch.unflatten": _function(_unflatten), "torch.squeeze": _function(_squeeze),
    "torch.unsqueeze": _function(_unsqueeze), "torch.narrow": _function(_narrow),
    "torch.index_select": _function(_index_select), "torch.gather": _function(_gather),
    "torch.take_along_dim": _function(_gather),
    **{f"torch.{name}": _function(_reduce()) for name in ("sum", "mean", "prod", "nansum", "nanmean", "logsumexp",
                                                            "amax", "amin", "std", "var", "count_nonzero")},
    "torch.norm": _function(_reduce(dim_index=1)), "torch.linalg.norm": _function(_reduce(dim_index=1)),
    "torch.linalg.vector_norm": _function(_reduce(dim_index=1)),
    "torch.argmax": _function(_reduce("int")), "torch.argmin": _function(_reduce("int")),
    "torch.all": _function(_reduce("bool")), "torch.any": _function(_reduce("bool")),
    "torch.max": _function(_max_min), "torch.min": _function(_max_min),
    "torch.cat": _cat, "torch.concat": _cat, "torch.concatenate": _cat, "torch.stack": _stack,
    "torch.where": _where,
    **{f"torch.{name}": _binary_function() for name in ("add", "sub", "mul", "div", "maximum", "minimum", "atan2",
                                                         "remainder", "fmod", "true_divide", "floor_divide")},
    **{f"torch.{name}": _binary_function("bool") for name in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and",
                                                               "logical_or", "logical_xor")},
    "torch.masked_fill": _function(_masked_fill),
    "torch.clone": _function(_clone), "torch.detach": _function(_same),
    **functional.FUNCTIONS,
}
