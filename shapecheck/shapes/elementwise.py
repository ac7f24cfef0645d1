"""Elementwise transfer functions: unary ops and activations keep the shape, binary ops, comparisons, `where` and
`masked_fill` broadcast, casts change the dtype family and keep the layout (`preserve_format`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute, param_annotation
from shapecheck.objects.command_line import number_option
from shapecheck.objects.dims import Dim
from shapecheck.objects.tensor_facts import is_int
from shapecheck.objects.values import Const, Opaque
from shapecheck.shapes.args import Args, as_function, declared_in_run, dtype_of
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.matmul import matmul
from shapecheck.shapes.shape import DtypeFamily, Shape
from shapecheck.shapes.values import Array

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def same_shape(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    return shape


def cast(dtype: DtypeFamily | None):
    def cast(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
        return shape.with_dtype(dtype)
    return cast


def _to(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    if args.keyword("memory_format") is not None:
        return memory_format(ev, shape, args.keyword("memory_format"))
    for expr in (*args.positional, args.keyword("dtype")):
        dtype = dtype_of(ev, expr)
        if dtype is not None:
            return shape.with_dtype(dtype)
        if type(expr) is cst.Attribute and expr.attr.value == "dtype":
            # `.to(edge_index.dtype)`: that tensor's dtype, unknown with it (edge indices are int64)
            other = ev.tensor(expr.value, before)
            return shape.with_dtype(other.dtype if other is not None else None)
    if args.keyword("dtype") is not None:
        return shape.with_dtype(None)  # a dtype the analysis does not know
    tensor = ev.tensor(args.get(0, "other"), before) if args.count() else None
    return shape.with_dtype(tensor.dtype) if tensor is not None else shape


def _type_as(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    """The other tensor's dtype, unknown with it: unlike `.to(x)`, whose `x` is most often a device, `type_as` always
    changes to a tensor's dtype (`torch.zeros(1, 1).type_as(src)` holds token ids when `src` does)."""
    other = ev.tensor(args.get(0, "other"), before)
    return shape.with_dtype(other.dtype if other is not None else None)


def memory_format(ev: ShapeEvaluator, shape: Shape, expr: cst.BaseExpression | None) -> Shape:
    if expr is None or ev.ctx.qualname(expr) == "torch.preserve_format":
        return shape
    if ev.ctx.qualname(expr) == "torch.contiguous_format":
        return shape.row_major()
    return shape.without_layout()


def _clone(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    return memory_format(ev, shape, args.keyword("memory_format"))


def _contiguous(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    if args.get(0, "memory_format") is not None:
        return memory_format(ev, shape, args.get(0, "memory_format"))
    return shape.row_major()


def _with_other(dtype: DtypeFamily | None = None, keyword: str = "other"):
    """`x.add(y)`, `x.mul(y)`, `x.eq(y)`, `x.pow(p)`: broadcast with the other operand, which may be a number."""
    def method(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        other = args.get(0, keyword)
        if other is None:
            return None
        result = broadcast_with(ev, shape, other, before)
        if result is None:
            return None
        return result.with_dtype(dtype) if dtype is not None else result
    return method


def broadcast_with(ev: ShapeEvaluator, shape: Shape, other: cst.BaseExpression, before: int) -> Shape | None:
    if is_number(ev, other, before):
        return shape
    other_shape = ev.tensor(other, before)
    if other_shape is None:
        return None
    return broadcast(shape, other_shape).shape


def _masked_fill(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    return shape


_NUMBER_FUNCTIONS = frozenset({"float", "int", "abs", "round", "min", "max", "len", "sum"})
# the constants of math and torch: Python floats, never tensors
NUMBER_CONSTANTS = frozenset(f"{module}.{name}" for module in ("math", "torch", "numpy")
                             for name in ("pi", "e", "tau", "inf", "nan"))


def is_number(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int, depth: int = 0) -> bool:
    """A Python number, certainly: a literal, `math.*(...)`, a size, arithmetic on those, a parameter annotated
    `int` or `float`, an element of a container that holds a number, an attribute of `self` each assignment makes one of those (`self.scaling = self.head_dim **
    -0.5`)."""
    kind = type(expr)
    if kind in (cst.Integer, cst.Float, cst.Imaginary):
        return True
    if kind is cst.UnaryOperation:
        return is_number(ev, expr.expression, before, depth)
    if kind is cst.BinaryOperation and type(expr.operator) is not cst.MatrixMultiply:
        return is_number(ev, expr.left, before, depth) and is_number(ev, expr.right, before, depth)
    if kind is cst.Attribute and before >= 0 and depth < _ATTRIBUTE_DEPTH and is_self_attribute(expr) \
            and _assigned_numbers(ev, expr, depth):
        return True
    if kind is cst.Call:
        qualname = ev.ctx.qualname(expr.func)
        if qualname is not None and qualname.startswith("math."):
            return True
        if type(expr.func) is cst.Name and expr.func.value in _NUMBER_FUNCTIONS and ev.binding(expr.func, before) \
                is None:
            return expr.func.value not in ("min", "max", "abs", "sum") or all(
                is_number(ev, arg.value, before, depth) for arg in expr.args)
        if type(expr.func) is cst.Attribute and expr.func.attr.value in ("item", "size", "dim", "numel") and \
                (expr.func.attr.value != "size" or expr.args):
            return True
        return _holds_number(ev.object(expr, before))  # `float(t)`, `random.random()`: see objects.builtins
    if kind is cst.Attribute and (ev.ctx.qualname(expr) in NUMBER_CONSTANTS or number_option(ev, expr, before)):
        return True
    if kind is cst.Name:
        # No binding: a name imported from math (`from math import pi`), or a parameter of a run (the run binds
        # it, below)
        binding = ev.binding(expr, before)
        if binding is None and ev.ctx.qualname(expr) in NUMBER_CONSTANTS:
            return True
        if binding is not None and binding.kind in ("assign", "walrus") and binding.value is not None \
                and is_number(ev, binding.value, binding.seq, depth):
            return True
        if binding is not None and binding.kind == "param" and type(binding.statement) is cst.FunctionDef:
            annotation = param_annotation(binding.statement, binding.name)
            if type(annotation) is cst.Name and annotation.value in ("int", "float"):
                return True
        if binding is not None and binding.kind == "unpack" and ev.size(expr, before) is not None \
                and _unpacked_from_sizes(binding):
            return True
        if binding is None and before < 0 and declared_in_run(ev, expr, before, ("int", "float")):
            return True
        if binding is not None and binding.kind == "assign" and is_int(ev.ctx, expr, before):
            return True  # `label = i % n_keywords` of a loop over `range(n_clips)`: an int, spelled so
    if kind in (cst.Name, cst.Attribute):
        return _holds_number(ev.object(expr, before))  # a parameter or attribute the run binds to a float or int
    if kind is cst.Subscript:
        if type(expr.value) is cst.Attribute and expr.value.attr.value == "shape" and \
                type(expr.slice[0].slice) is cst.Index:
            return True
        return _holds_number(ev.object(expr, before))  # a config dict's or a list's stated number: `cfg["lr"]`
    return False


_ATTRIBUTE_DEPTH = 4  # `self.a` assigned from `self.b`...: how many attributes deep, so `self.a = self.a * 2` ends


def _assigned_numbers(ev: ShapeEvaluator, attribute: cst.Attribute, depth: int) -> bool:
    """Every assignment the class makes to `self.<attr>` assigns a number, read where it is made (the method that
    reads the attribute may run after any of them). Only where the class is the one being visited: in a call being
    run, the instance's own value answers."""
    bindings = ev.ctx.attribute_bindings(attribute)
    return bool(bindings) and all(
        binding.kind == "assign" and binding.value is not None
        and ev.in_home(binding, lambda binding=binding: is_number(ev, binding.value, binding.seq, depth + 1))
        for binding in bindings)


def _holds_number(value: object) -> bool:
    """A float, an int the code states: a literal, or one made of sizes it names (`i % n_keywords` of a loop index
    and an option, a count drawn at random: `frames = int(torch.randint(50, 70, (1,)))`), not a size the analysis
    named after what it measures (`batch["obs"]` read where a size goes may be an array), or a number the code
    does not state."""
    return isinstance(value, Const) and type(value.value) is float or isinstance(value, Dim) and (
        value.literal is not None or not any(atom.placeholder for atom in value.atoms)) \
        or isinstance(value, Opaque) and value.number


def _unpacked_from_sizes(binding) -> bool:
    value = binding.value
    return type(value) is cst.Attribute and value.attr.value == "shape" or type(value) is cst.Call and \
        type(value.func) is cst.Attribute and value.func.attr.value == "size"


def binary(ev: ShapeEvaluator, node: cst.BinaryOperation, before: int) -> Shape | None:
    operator = type(node.operator)
    if operator is cst.MatrixMultiply:
        left, right = ev.tensor(node.left, before), ev.tensor(node.right, before)
        if left is None or right is None:
            if any(isinstance(ev.object(side, before), Array) for side in (node.left, node.right)):
                return None  # numpy's product (`X @ proj` of a synthetic dataset) is an array: read there
            return Shape.unknown_rank()  # whatever the operands, a product is a fresh row-major tensor
        return matmul(left, right)[0]
    if operator in (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
                    cst.BitAnd, cst.BitOr, cst.BitXor):
        left_number = is_number(ev, node.left, before)
        right_number = is_number(ev, node.right, before)
        if left_number and right_number:
            return None
        if right_number:
            return _arithmetic_dtype(ev, ev.tensor(node.left, before), node, node.right, before)
        if left_number:
            return _arithmetic_dtype(ev, ev.tensor(node.right, before), node, node.left, before)
        left, right = ev.tensor(node.left, before), ev.tensor(node.right, before)
        if left is None or right is None:
            return None
        result = broadcast(left, right).shape
        return _arithmetic_dtype(ev, result, node, None, before) if result is not None else None
    return None


def _arithmetic_dtype(ev: ShapeEvaluator, shape: Shape | None, node: cst.BinaryOperation,
                      number: cst.BaseExpression | None, before: int) -> Shape | None:
    """The dtype family of `shape` combined by `node` with another tensor or with the Python `number`."""
    if shape is None:
        return None
    if type(node.operator) is cst.Divide and shape.dtype in ("int", "bool"):
        return shape.with_dtype("float")
    if number is None or shape.dtype not in ("int", "bool"):
        return shape
    if type(number) is cst.Float:
        return shape.with_dtype("float")
    if isinstance(ev.object(number, before), Dim):  # an int: `flat_idx % w`; a bool one is promoted (`mask * 2`)
        return shape.with_dtype("int")
    return shape.with_dtype(None)  # `idx * stride`: a float number makes it float, and the code does not say


# The comparisons that give a tensor (elementwise); `is`, `in` and their negations give a bool whatever they compare.
ELEMENTWISE_COMPARISONS = frozenset({cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal,
                                     cst.NotEqual})


def may_be_tensor_comparison(node: cst.Comparison) -> bool:
    """Whether `comparison` may give `node` a shape: one elementwise operator (a chain is asked link by link)."""
    return len(node.comparisons) == 1 and type(node.comparisons[0].operator) in ELEMENTWISE_COMPARISONS


def comparison(ev: ShapeEvaluator, node: cst.Comparison, before: int) -> Shape | None:
    if not may_be_tensor_comparison(node):
        return None
    target = node.comparisons[0]
    left_number, right_number = is_number(ev, node.left, before), is_number(ev, target.comparator, before)
    if left_number and right_number:
        return None
    if right_number:
        shape = ev.tensor(node.left, before)
    elif left_number:
        shape = ev.tensor(target.comparator, before)
    else:
        left, right = ev.tensor(node.left, before), ev.tensor(target.comparator, before)
        if (left is None) != (right is None) and type(target.operator) not in (cst.Equal, cst.NotEqual):
            # a tensor ordered against anything but a number or a tensor raises, so the unknown side broadcasts
            # with it (`val_loss < self.best` is at least val_loss's shape); `t == None` is only False
            left, right = left or Shape.unknown_rank(False), right or Shape.unknown_rank(False)
        shape = broadcast(left, right).shape if left is not None and right is not None else None
    return shape.with_dtype("bool") if shape is not None else None


def _where(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
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


def _binary_function(dtype: DtypeFamily | None = None, first: str = "input", second: str = "other"):
    """`torch.add(a, b)`, `torch.maximum(a, b)`, `torch.eq(a, b)`, `torch.pow(x, p)`: broadcast."""
    def function(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        a, b = args.get(0, first, "self"), args.get(1, second)
        if a is None or b is None:
            return None
        shape = ev.tensor(a, before)
        if shape is None:
            if not is_number(ev, a, before):
                return None
            shape = ev.tensor(b, before)
            return shape.with_dtype(dtype) if shape is not None and dtype else shape
        result = broadcast_with(ev, shape, b, before)
        return result.with_dtype(dtype) if result is not None and dtype else result
    return function


# ------------------------------------------------------------------------------------------------ tables

_SAME = ("abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
         "tanh", "sigmoid", "relu", "relu_", "sign", "round", "floor", "ceil", "trunc", "frac", "reciprocal", "square",
         "clamp", "clamp_", "clamp_min", "clamp_max", "clip", "softmax", "log_softmax", "cumsum", "cumprod",
         "logcumsumexp", "flip", "roll", "detach", "detach_", "requires_grad_", "cpu", "cuda", "pin_memory",
         "zero_", "fill_", "normal_", "uniform_", "bernoulli_", "exponential_", "random_", "geometric_", "cauchy_",
         "log_normal_", "abs_", "neg_", "exp_", "sqrt_", "to_dense", "coalesce",
         "sigmoid_", "tanh_", "add_", "sub_", "mul_", "div_", "pow_", "copy_", "nan_to_num", "erf", "erfinv",
         "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "lerp", "masked_fill_", "scatter",
         "scatter_", "scatter_add", "scatter_add_", "index_fill", "index_fill_", "index_add", "index_add_",
         "index_copy", "tril", "triu", "tril_", "triu_", "masked_scatter", "conj", "angle",
         "nan_to_num_", "logit", "sgn", "retain_grad", "share_memory_")
_TORCH_SAME = ("abs", "neg", "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "relu",
               "sign", "round", "floor", "ceil", "reciprocal", "square", "clamp", "clip", "softmax",
               "log_softmax", "cumsum", "cumprod", "flip", "roll", "erf", "tril", "triu", "nan_to_num", "logit",
               "special.expit", "special.softmax", "special.log_softmax", "atan", "sinh", "cosh")
_F_SAME = ("relu", "relu6", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "mish", "softplus", "softsign",
           "hardtanh", "hardswish", "hardsigmoid", "sigmoid", "tanh", "logsigmoid", "softmax", "log_softmax",
           "softmin", "gumbel_softmax", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "normalize", "layer_norm", "group_norm", "batch_norm", "instance_norm", "local_response_norm",
           "rms_norm", "tanhshrink", "hardshrink", "softshrink", "threshold", "prelu", "rrelu")
_ARITHMETIC = ("add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "maximum", "minimum",
               "atan2", "hypot", "logaddexp")
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor")
# elementwise tests: a bool tensor of the input's shape (`if torch.isnan(loss):` on a per-sample loss raises)
_PREDICATES = ("logical_not", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit")
# lookups of each element in a second tensor: a result of the first one's shape (`torch.bucketize(depth, bins)` gives
# each depth's bin; `torch.isin(labels, ignored)` tests each label)
_LOOKUPS = {"bucketize": "int", "isin": "bool"}

# tensor methods and torch functions that keep the tensor's shape and take no tensor to broadcast
SHAPE_KEEPING = frozenset(_SAME) | {"float", "double", "half", "clone", "contiguous"}
SHAPE_KEEPING_FUNCTIONS = frozenset(f"torch.{name}" for name in _TORCH_SAME)

# tensor methods whose argument broadcasts against the tensor, and that argument's keyword
BROADCASTING = {**dict.fromkeys(_ARITHMETIC + _COMPARISONS, "other"), "pow": "exponent", "float_power": "exponent"}

METHODS = {
    **dict.fromkeys(_SAME, same_shape),
    "float": cast("float"), "half": cast("float"), "double": cast("float"), "bfloat16": cast("float"),
    "long": cast("int"), "int": cast("int"), "short": cast("int"), "byte": cast("int"), "bool": cast("bool"),
    "to": _to, "type_as": _type_as, "type": lambda ev, shape, args, before: shape if args.count() else None,
    "clone": _clone, "contiguous": _contiguous,
    **dict.fromkeys(_ARITHMETIC, _with_other()),
    # an exponent tensor broadcasts like any other operand: (2000, 1) ** (3,) is (2000, 3)
    "pow": _with_other(keyword="exponent"), "float_power": _with_other(keyword="exponent"),
    **dict.fromkeys(_COMPARISONS, _with_other("bool")),
    **dict.fromkeys(_PREDICATES, cast("bool")),
    "masked_fill": _masked_fill,
}

FUNCTIONS = {
    **{f"torch.{name}": as_function(same_shape) for name in _TORCH_SAME},
    **{f"F.{name}": as_function(same_shape) for name in _F_SAME},
    "torch.where": _where,
    **{f"torch.{name}": _binary_function() for name in _ARITHMETIC if name not in ("hypot", "logaddexp")},
    **{f"torch.{name}": _binary_function("bool") for name in _COMPARISONS},
    **{f"torch.{name}": as_function(cast("bool")) for name in _PREDICATES},
    **{f"torch.{name}": as_function(cast(dtype), keyword="elements" if name == "isin" else "input")
       for name, dtype in _LOOKUPS.items()},
    "torch.pow": _binary_function(second="exponent"), "torch.float_power": _binary_function(second="exponent"),
    "torch.complex": _binary_function("complex", "real", "imag"),
    "torch.polar": _binary_function("complex", "abs", "angle"),
    "torch.masked_fill": as_function(_masked_fill),
    "torch.clone": as_function(_clone), "torch.detach": as_function(same_shape),
}
