"""jaxtyping annotations read statically: `Float[Tensor, "B T D"]` -> Shape((B, T, D), dtype "float").

The linter never imports jaxtyping: the annotation is recognised by what its subscripted name resolves to through the
file's imports (`from jaxtyping import Float`, `import jaxtyping as jt`). Names in the shape string are rigid
symbols of the function they annotate (the same name in two parameters is the same size); `_` and `#name` are sizes
the annotation leaves open (any size, or broadcastable); literals are exact; `*name` and `...` are an unknown run of
dims; `""` is a scalar.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import DtypeFamily, Shape

_DTYPES: dict[str, DtypeFamily | None] = {
    **dict.fromkeys(("Float", "Inexact", "Float16", "Float32", "Float64", "BFloat16"), "float"),
    **dict.fromkeys(("Int", "Integer", "UInt", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
                     "UInt64"), "int"),
    "Bool": "bool",
    **dict.fromkeys(("Complex", "Complex64", "Complex128"), "complex"),
    **dict.fromkeys(("Shaped", "Num", "Real", "Key"), None),
}


def annotation_dtype(qualname: str | None) -> tuple[bool, DtypeFamily | None]:
    """(is a jaxtyping array annotation, its dtype family) for the qualname of the subscripted name."""
    if qualname is None or not qualname.startswith("jaxtyping."):
        return False, None
    name = qualname.rsplit(".", 1)[1]
    return (name in _DTYPES), _DTYPES.get(name)


def parse_dims(spec: str, owner: Hashable) -> tuple[tuple[Dim, ...], int | None, str] | None:
    """The dims of a jaxtyping shape string, with the position and name of its variadic run; None when it can't be
    read (two variadic runs, an expression we don't parse)."""
    dims: list[Dim] = []
    variadic: int | None = None
    variadic_name = "..."
    for position, token in enumerate(spec.split()):
        if token in ("...", "*..."):
            if variadic is not None:
                return None
            variadic = len(dims)
            continue
        broadcastable = False
        while token[:1] in ("*", "#", "?"):
            if token[0] == "*":
                if variadic is not None:
                    return None
                variadic, variadic_name = len(dims), token.lstrip("*#?")
                token = ""
                break
            broadcastable = broadcastable or token[0] == "#"
            token = token[1:]
        if not token:
            continue
        if "=" in token:  # `channels=3`: a documented literal
            token = token.split("=", 1)[1]
        dim = _dim(token, owner, broadcastable, position)
        if dim is None:
            return None
        dims.append(dim)
    return tuple(dims), variadic, variadic_name


def _dim(token: str, owner: Hashable, broadcastable: bool, position: int) -> Dim | None:
    if token.isdigit():
        return Dim.of(int(token))
    if token == "_" or token.startswith("_") or broadcastable:
        # any size (or one that may be 1): a fresh size that only equals itself
        return Dim.symbol(("annotation-open", owner, position), token.lstrip("_") or "_")
    if token.isidentifier():
        return Dim.symbol(("annotation", owner, token), token, rigid=True)
    try:
        tree = ast.parse(token, mode="eval").body
    except SyntaxError:
        return None
    return _expression(tree, owner)


def _expression(node: ast.AST, owner: Hashable) -> Dim | None:
    """`n+1`, `2*d`, `h//2` in a shape string: arithmetic over the function's symbols."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Dim.of(node.value)
    if isinstance(node, ast.Name):
        return Dim.symbol(("annotation", owner, node.id), node.id, rigid=True)
    if isinstance(node, ast.BinOp):
        left, right = _expression(node.left, owner), _expression(node.right, owner)
        if left is None or right is None:
            return None
        operator = type(node.op)
        if operator is ast.Add:
            return left + right
        if operator is ast.Sub:
            return left - right
        if operator is ast.Mult:
            return left * right
        if operator is ast.FloorDiv:
            return left // right
    return None


def annotation_shape(annotation: cst.BaseExpression, qualname_of, owner: Hashable) -> Shape | None:
    """The Shape a parameter or return annotation states; None when it is not a jaxtyping array annotation.

    `qualname_of` resolves a name through the file's imports (`ctx.qualname`); `owner` keys the rigid symbols (the
    function the annotation belongs to)."""
    if type(annotation) is cst.SimpleString:  # a quoted forward reference
        try:
            annotation = cst.parse_expression(annotation.evaluated_value)
        except (cst.ParserSyntaxError, ValueError, TypeError):
            return None
    annotation = _optional_of(annotation, qualname_of)
    if type(annotation) is not cst.Subscript or len(annotation.slice) != 2:
        return None
    is_array, dtype = annotation_dtype(qualname_of(annotation.value))
    if not is_array:
        return None
    spec = annotation.slice[1].slice
    if type(spec) is not cst.Index or type(spec.value) not in (cst.SimpleString, cst.ConcatenatedString):
        return None
    text = spec.value.evaluated_value
    if not isinstance(text, str):
        return None
    parsed = parse_dims(text, owner)
    if parsed is None:
        return None
    dims, variadic, name = parsed
    return Shape(dims, variadic, name, tuple(range(len(dims))), dtype)


def stated_shape(ctx: Context, annotation: cst.BaseExpression, function: cst.CSTNode) -> Shape | None:
    """The shape a jaxtyping annotation in `function` states, through a type alias of the module (`Image =
    Float[Tensor, "3 224 224"]`). Its names are the symbols of the function, or of the class for a method: a
    size named `N` in `__init__` and in `forward` is one size of the object."""
    if type(annotation) in (cst.Name, cst.Attribute):
        aliased, _ = ctx.value_of(annotation)
        if type(aliased) is cst.Subscript:
            annotation = aliased
    return annotation_shape(annotation, ctx.qualname, symbol_owner(ctx, function))


def symbol_owner(ctx: Context, function: cst.CSTNode) -> int:
    """What an annotation's names belong to: the class a method is defined in, else the function."""
    class_def = ctx.class_of_method(function) if type(function) is cst.FunctionDef else None
    return id(class_def if class_def is not None else function)


def _optional_of(annotation: cst.BaseExpression, qualname_of) -> cst.BaseExpression:
    """What an optional annotation states when it is not None: `Bool[Tensor, "B S"] | None`, `Optional[...]`,
    `Union[..., None]` (a mask a caller may leave out); the annotation itself otherwise. A None passed is no
    tensor, so nothing is checked of it."""
    if type(annotation) is cst.BinaryOperation and type(annotation.operator) is cst.BitOr:
        sides = [annotation.left, annotation.right]
    elif type(annotation) is cst.Subscript and qualname_of(annotation.value) in ("typing.Optional", "typing.Union") \
            and all(type(element.slice) is cst.Index for element in annotation.slice):
        sides = [element.slice.value for element in annotation.slice]  # type: ignore[attr-defined]
        if qualname_of(annotation.value) == "typing.Optional":
            sides.append(cst.Name("None"))
    else:
        return annotation
    kept = [side for side in sides if not (type(side) is cst.Name and side.value == "None")]
    return kept[0] if len(kept) == 1 and len(sides) == 2 else annotation
