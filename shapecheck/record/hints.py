"""Existing type hints, read for `annotate`: which are plain `Tensor` hints it may upgrade, which structure a hint has
(a tensor, Optional of one, a tuple or list of them), and how the file spells typing's containers."""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from shapecheck.record.infer import Spelling
from shapecheck.record.reading import walk

_EMPTY = cst.Module([])
_TENSORS = frozenset({"Tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "torch.BoolTensor"})
_JAXTYPING = frozenset({"Shaped", "Bool", "Key", "Num", "Inexact", "Float", "BFloat16", "Float16", "Float32", "Float64",
                        "Complex", "Complex64", "Complex128", "Integer", "UInt", "UInt4", "UInt8", "UInt16", "UInt32",
                        "UInt64", "Int", "Int4", "Int8", "Int16", "Int32", "Int64", "Real"})


def structure(hint: cst.BaseExpression) -> Any:
    """The shape of a hint: ("tensor",) for a tensor (plain or jaxtyping), ("optional", s), ("tuple", [s, ...]) with
    `...` as ("rest",), ("list", s), ("scalar", name) for int/float/bool/str/None, or None for anything else."""
    if isinstance(hint, cst.SimpleString):  # a quoted forward reference
        try:
            hint = cst.parse_expression(hint.evaluated_value)  # type: ignore[arg-type]
        except (cst.ParserSyntaxError, TypeError, ValueError):
            return None
    name = _name(hint)
    if name is not None:
        if name in _TENSORS:
            return ("tensor",)
        return ("scalar", name) if name in ("int", "float", "bool", "str", "None") else None
    if isinstance(hint, cst.BinaryOperation) and isinstance(hint.operator, cst.BitOr):
        left, right = structure(hint.left), structure(hint.right)
        if right == ("scalar", "None") and left is not None:
            return ("optional", left)
        if left == ("scalar", "None") and right is not None:
            return ("optional", right)
        return None
    if isinstance(hint, cst.Ellipsis):
        return ("rest",)
    if not isinstance(hint, cst.Subscript):
        return None
    outer = _name(hint.value)
    items = [element.slice.value for element in hint.slice if isinstance(element.slice, cst.Index)]
    if outer is None or len(items) != len(hint.slice):
        return None
    outer = outer.removeprefix("typing.")
    if outer in _JAXTYPING or outer.removeprefix("jaxtyping.") in _JAXTYPING:
        return ("tensor",)
    inner = [structure(item) for item in items]
    if any(item is None for item in inner):
        return None
    if outer == "Optional" and len(inner) == 1:
        return ("optional", inner[0])
    if outer == "Union" and len(inner) == 2 and ("scalar", "None") in inner:
        return ("optional", next(item for item in inner if item != ("scalar", "None")))
    if outer in ("tuple", "Tuple"):
        return ("tuple", inner)
    if outer in ("list", "List", "Sequence") and len(inner) == 1:
        return ("list", inner[0])
    return None


def is_jaxtyping(hint: cst.BaseExpression) -> bool:
    """Whether the hint has a jaxtyping array annotation anywhere in it: it already says a shape."""
    if isinstance(hint, cst.SimpleString):  # a quoted forward reference
        try:
            hint = cst.parse_expression(hint.evaluated_value)  # type: ignore[arg-type]
        except (cst.ParserSyntaxError, TypeError, ValueError):
            return False
    for node in walk(hint):
        if isinstance(node, cst.Subscript):
            outer = _name(node.value)
            if outer is not None and outer.removeprefix("jaxtyping.") in _JAXTYPING:
                return True
    return False


def is_plain(hint: cst.BaseExpression) -> bool:
    """A plain `Tensor` hint, bare or inside Optional, a tuple or a list: no shape said, so it may be upgraded."""
    found = structure(hint)
    return found is not None and not is_jaxtyping(hint) and _has_tensor(found)


def fits(existing: Any, inferred: Any) -> bool:
    """Whether an inferred structure can replace an existing hint's: the same containers around the tensors (Optional
    aside: the merged hint is Optional if either is)."""
    existing, inferred = _strip(existing), _strip(inferred)
    if existing is None or inferred is None:
        return False
    if existing[0] != inferred[0]:
        return False
    if existing[0] == "tuple":
        items, wanted = existing[1], inferred[1]
        if items and items[-1] == ("rest",):  # Tuple[Tensor, ...]: any number of that item
            return all(fits(items[0], item) for item in wanted)
        return len(items) == len(wanted) and all(fits(a, b) for a, b in zip(items, wanted))
    if existing[0] == "list":
        return fits(existing[1], inferred[1])
    return existing == inferred or existing[0] == "tensor"


def is_optional(found: Any) -> bool:
    return found is not None and found[0] == "optional"


def _strip(found: Any) -> Any:
    return found[1] if found is not None and found[0] == "optional" else found


def _has_tensor(found: Any) -> bool:
    kind = found[0]
    if kind == "tensor":
        return True
    if kind in ("optional", "list"):
        return _has_tensor(found[1])
    return kind == "tuple" and any(_has_tensor(item) for item in found[1])


_UNION_NONE = re.compile(r"\|\s*None\b|\bNone\s*\|")


def spelling(module: cst.Module, source: str) -> Spelling:
    """`Tuple`/`List` where the file imports them from typing (so they stay used), `X | None` where the file writes
    that and does not import Optional."""
    imported = set()
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and small.module is not None and \
                    _EMPTY.code_for_node(small.module) == "typing" and not isinstance(small.names, cst.ImportStar):
                imported |= {alias.name.value for alias in small.names if isinstance(alias.name, cst.Name)
                             and alias.asname is None}
    union = "Optional" not in imported and bool(_UNION_NONE.search(source))
    return Spelling(tuple="Tuple" if "Tuple" in imported else "tuple", list="List" if "List" in imported else "list",
                    union=union)


def _name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr.value}" if base is not None else None
    return None
