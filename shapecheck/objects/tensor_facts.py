"""Small, certain facts about expressions that rules and the floors above share: literal kinds, Python ints, dtypes,
devices.

Every helper answers "certainly" or "don't know": a rule built on them reports only what the source proves.
Names are followed through plain assignments with `ctx.value_of`; `before` is the `seq` to resolve names with
(None: as of now), as `value_of` returns it.
"""

from __future__ import annotations

from typing import Literal

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import keyword_arg, param_annotation

DtypeKind = Literal["float64", "float", "int", "bool", "complex"]

_DTYPES: dict[str, DtypeKind] = {
    **dict.fromkeys(("float64", "double"), "float64"),
    **dict.fromkeys(("float32", "float", "float16", "half", "bfloat16", "float8_e4m3fn", "float8_e5m2"), "float"),
    **dict.fromkeys(("int64", "long", "int32", "int", "int16", "short", "int8", "uint8", "uint16", "uint32",
                     "uint64"), "int"),
    "bool": "bool",
    **dict.fromkeys(("complex64", "cfloat", "complex128", "cdouble", "complex32", "chalf"), "complex"),
}

# Tensor methods whose result has the receiver's dtype whatever their arguments (`.to(...)` is not one: a tensor or a
# dtype argument changes it).
DTYPE_KEEPING = frozenset({"view", "reshape", "flatten", "unflatten", "squeeze", "unsqueeze", "transpose", "permute",
                           "t", "contiguous", "clone", "detach", "expand", "expand_as", "repeat", "view_as",
                           "reshape_as", "movedim", "flip", "roll", "cuda", "cpu"})


def dtype_source(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The tensor whose dtype `expr` has: `torch.tensor(kernel)` of `torch.tensor(kernel).view(1, 1, -1)`."""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value in DTYPE_KEEPING:
        expr = expr.func.value
    return expr


# Methods that give a Python int whatever tensor they are called on.
_INT_METHODS = frozenset({"dim", "numel", "ndimension", "nelement", "element_size", "get_device"})
# What PyTorch raises for the errors rules report, and the handlers broad enough to catch them.
_INT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo, cst.Power)


def positional(call: cst.Call) -> list[cst.Arg] | None:
    """The positional arguments, or None when a `*args` / `**kwargs` makes them unknowable."""
    found = []
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            found.append(arg)
    return found


def argument_of(call: cst.Call, name: str, index: int) -> cst.Arg | None:
    """The argument passed as `name=...`, else the positional one at `index`; None when there is neither or when a
    `*args` / `**kwargs` makes the positions unknowable."""
    found = keyword_arg(call, name)
    if found is not None:
        return found
    args = positional(call)
    return args[index] if args is not None and len(args) > index else None


def is_literal_true(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "True"


def number_kind(expr: cst.BaseExpression) -> Literal["int", "float", "bool", "complex"] | None:
    """The kind of a numeric literal (`3`, `-1`, `2.5`, `1e-3`, `True`), else None."""
    while type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
        expr = expr.expression
    kind = type(expr)
    if kind is cst.Integer:
        return "int"
    if kind is cst.Float:
        return "float"
    if kind is cst.Imaginary:
        return "complex"
    if kind is cst.Name and expr.value in ("True", "False"):
        return "bool"
    return None


def string_value(expr: cst.BaseExpression) -> str | None:
    if type(expr) is cst.SimpleString:
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def is_builtin_call(ctx: Context, expr: cst.BaseExpression, *names: str, before: int | None = None) -> bool:
    """A call of an unshadowed builtin such as `len(...)` / `int(...)`."""
    if type(expr) is not cst.Call or type(expr.func) is not cst.Name or expr.func.value not in names:
        return False
    return ctx.binding(expr.func.value, before) is None


def is_int(ctx: Context, expr: cst.BaseExpression, before: int | None = None, depth: int = 0) -> bool:
    """`expr` is certainly a Python int: a literal, `len(...)`, `int(...)`, `x.size(i)`, `x.shape[i]`, `x.dim()`,
    integer arithmetic of those, a loop index over `range`, a name unpacked from `x.shape`, a parameter
    annotated `int` or defaulting to an int, or a name bound to any of these."""
    if depth > 8:
        return False
    if number_kind(expr) == "int":
        return True
    kind = type(expr)
    if kind is cst.Call:
        if is_builtin_call(ctx, expr, "len", "int", before=before):
            return True
        func = expr.func
        if type(func) is cst.Attribute and ctx.qualname(func) is None and not ctx.is_foreign(func.value):
            name = func.attr.value
            if name == "size":
                return len(expr.args) == 1 and not expr.args[0].star
            return name in _INT_METHODS and not expr.args
        return False
    if kind is cst.Subscript:
        return _is_shape(ctx, expr.value) and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index
    if kind is cst.BinaryOperation:
        return (type(expr.operator) in _INT_OPERATORS and is_int(ctx, expr.left, before, depth + 1)
                and is_int(ctx, expr.right, before, depth + 1))
    if kind is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        return is_int(ctx, expr.expression, before, depth + 1)
    if kind is cst.Name:
        return _name_is_int(ctx, expr, before, depth)
    return False


def _name_is_int(ctx: Context, name: cst.Name, before: int | None, depth: int) -> bool:
    binding = ctx.binding(name, before)
    if binding is None:
        return False
    if binding.kind == "assign" and binding.value is not None:
        return is_int(ctx, binding.value, binding.seq, depth + 1)
    if binding.kind == "unpack" and not binding.starred and binding.value is not None:
        return _is_shape(ctx, binding.value)  # `B, T, C = x.shape`
    if binding.kind == "for" and binding.index is None and binding.value is not None:
        return is_builtin_call(ctx, binding.value, "range", before=binding.seq)
    if binding.kind == "param":
        if binding.value is not None:
            return number_kind(binding.value) == "int"
        return _annotated_int(binding.statement, name.value)
    return False


def _annotated_int(owner: cst.CSTNode, name: str) -> bool:
    if type(owner) is not cst.FunctionDef:
        return False
    annotation = param_annotation(owner, name)
    return type(annotation) is cst.Name and annotation.value == "int"


def _is_shape(ctx: Context, expr: cst.BaseExpression) -> bool:
    """`x.shape` or `x.size()`: a tuple of ints (numpy's `.shape` is one too)."""
    if type(expr) is cst.Attribute:
        return expr.attr.value == "shape" and ctx.qualname(expr) is None
    if type(expr) is cst.Call and not expr.args and type(expr.func) is cst.Attribute:
        return expr.func.attr.value == "size" and ctx.qualname(expr.func) is None and not ctx.is_foreign(expr.func)
    return False


def dtype_kind(ctx: Context, expr: cst.BaseExpression, before: int | None = None) -> DtypeKind | None:
    """What a dtype expression names (`torch.float64`, `torch.long`, a name bound to one), else None."""
    expr, before = ctx.value_of(expr, before)
    qualname = ctx.qualname(expr)
    if qualname is None or not qualname.startswith("torch."):
        return None
    return _DTYPES.get(qualname[len("torch."):])


def explicit_dtype(call: cst.Call) -> cst.BaseExpression | None:
    """The `dtype=` argument of a call, unless absent or `dtype=None` (which means "infer")."""
    arg = keyword_arg(call, "dtype")
    if arg is None or (type(arg.value) is cst.Name and arg.value.value == "None"):
        return None
    return arg.value


