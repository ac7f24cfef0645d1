"""What `annotate` reads from a function's own source: the names it gives its parameters' sizes, the calls that pass
its parameters on to other functions of the file, and whether it only passes its arguments through (`exists`,
`default`), so that a tensor annotation would be a lie about a generic helper."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

Slot = tuple[str, int]


def code_names(function: cst.FunctionDef) -> dict[Slot, str]:
    """The names a function's own body gives its parameters' sizes: `B, T, C = x.size()` / `x.shape`,
    `n = x.size(0)`, `d = x.shape[-1]`. Nested functions and classes are not looked into."""
    params = {param.name.value for param in (*function.params.params, *function.params.kwonly_params,
                                             *function.params.posonly_params)}
    names: dict[Slot, str] = {}
    for statement in _own_statements(function.body):
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target, value = small.targets[0].target, small.value
            if isinstance(target, (cst.Tuple, cst.List)):
                tensor = _whole_shape_of(value)
                if tensor in params:
                    for axis, element in enumerate(target.elements):
                        if isinstance(element, cst.StarredElement):
                            break
                        if isinstance(element.value, cst.Name) and element.value.value != "_":
                            names.setdefault((tensor, axis), element.value.value)
            elif isinstance(target, cst.Name):
                found = _one_size_of(value)
                if found is not None and found[0] in params:
                    names.setdefault(found, target.value)
    return names


def _own_statements(block: cst.BaseSuite) -> Iterable[cst.BaseStatement]:
    for statement in getattr(block, "body", ()):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        yield statement
        for attribute in ("body", "orelse", "finalbody"):
            inner = getattr(statement, attribute, None)
            if isinstance(inner, cst.BaseSuite):
                yield from _own_statements(inner)
            elif inner is not None and hasattr(inner, "body"):  # else/finally clauses wrap their block
                yield from _own_statements(inner.body)
        for handler in getattr(statement, "handlers", ()):
            yield from _own_statements(handler.body)


def _whole_shape_of(value: cst.BaseExpression) -> str | None:
    """`x.shape` / `x.size()` -> "x"."""
    if isinstance(value, cst.Call) and not value.args:
        value = value.func
        if isinstance(value, cst.Attribute) and value.attr.value == "size" and isinstance(value.value, cst.Name):
            return value.value.value
        return None
    if isinstance(value, cst.Attribute) and value.attr.value == "shape" and isinstance(value.value, cst.Name):
        return value.value.value
    return None


def _one_size_of(value: cst.BaseExpression) -> Slot | None:
    """`x.size(1)` / `x.shape[1]` / `x.shape[-1]` -> ("x", 1) / ("x", -1)."""
    index: cst.BaseExpression | None = None
    tensor: cst.BaseExpression | None = None
    if isinstance(value, cst.Call) and len(value.args) == 1 and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "size":
        tensor, index = value.func.value, value.args[0].value
    elif isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.value, cst.Attribute) and value.value.attr.value == "shape":
        tensor, index = value.value.value, value.slice[0].slice.value
    if not isinstance(tensor, cst.Name) or index is None:
        return None
    sign = 1
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
        sign, index = -1, index.expression
    if not isinstance(index, cst.Integer):
        return None
    return tensor.value, sign * index.evaluated_value




def parameters(function: cst.FunctionDef) -> list[str]:
    params = function.params
    return [param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)]


# Builtins that look at a value without caring what it is.
_GENERIC_CALLS = frozenset({"isinstance", "callable", "type", "id", "hasattr", "repr", "str"})


def passes_through(function: cst.FunctionDef, names: Iterable[str], generic_calls: Iterable[str] = ()) -> bool:
    """Whether each of `names` (parameters) is only tested for None, returned as it is, or handed to a generic
    check (`isinstance`, or a function of `generic_calls`), as `exists(val)` and `default(val, d)` do: the function
    works on any value, and a tensor annotation would make it a tensor-only helper."""
    names = set(names)
    if not names:
        return False
    calls = _GENERIC_CALLS | set(generic_calls)
    allowed: set[int] = set()
    uses: list[cst.Name] = []
    for node in walk(function.body):
        if isinstance(node, cst.Name) and node.value in names:
            uses.append(node)
        elif isinstance(node, cst.Return) and node.value is not None:
            _allow(node.value, allowed)
        elif isinstance(node, cst.Comparison) and all(
                isinstance(target.operator, (cst.Is, cst.IsNot)) for target in node.comparisons):
            for operand in (node.left, *(target.comparator for target in node.comparisons)):
                _allow(operand, allowed)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in calls:
            for argument in node.args:
                _allow(argument.value, allowed)
    return bool(uses) and all(id(use) in allowed for use in uses)


def _allow(expression: cst.BaseExpression, allowed: set[int]) -> None:
    if isinstance(expression, cst.Name):
        allowed.add(id(expression))
    elif isinstance(expression, cst.IfExp):
        _allow(expression.body, allowed)
        _allow(expression.orelse, allowed)
    elif isinstance(expression, cst.BooleanOperation):
        _allow(expression.left, allowed)
        _allow(expression.right, allowed)
    elif isinstance(expression, (cst.Tuple, cst.List)):
        for element in expression.elements:
            _allow(element.value, allowed)


def walk(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    """Every node under `node`, itself included, in source order. Reads the nodes' fields directly: libcst's
    `children` runs a visitor per node, which made annotating a large file take seconds."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        found = []
        for name in _fields(type(current)):
            value = getattr(current, name)
            if _is_node(type(value)):
                found.append(value)
            elif type(value) is tuple or type(value) is list:
                found.extend(item for item in value if _is_node(type(item)))
        stack.extend(reversed(found))


_FIELDS: dict[type, tuple[str, ...]] = {}
_NODES: dict[type, bool] = {}  # isinstance against libcst's abstract classes is slow: asked once per type


def _fields(kind: type) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(field.name for field in dataclasses.fields(kind))
    return names


def _is_node(kind: type) -> bool:
    known = _NODES.get(kind)
    if known is None:
        known = _NODES[kind] = issubclass(kind, cst.CSTNode)
    return known


@dataclass
class PassedOn:
    """A call in a function's body that hands some of its parameters, unchanged, to another function of the file:
    `callee` is its qualname; `positional` and `keywords` map the callee's argument positions (counted without
    `self`) and keyword names to the caller's parameter."""

    callee: str
    positional: dict[int, str]
    keywords: dict[str, str]


def passed_on(function: cst.FunctionDef, class_name: str | None, functions: set[str]) -> list[PassedOn]:
    """The calls of `functions` (qualnames of the file: `f`, `Class.method`) in `function`'s own body that pass
    parameters never reassigned there: `f(x)`, and `self.method(x)` in a method of `class_name`."""
    own = set(parameters(function))
    own -= _assigned(function.body)
    found = []
    for node in walk(function.body):
        if not isinstance(node, cst.Call):
            continue
        callee = None
        if isinstance(node.func, cst.Name) and node.func.value in functions:
            callee = node.func.value
        elif class_name is not None and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                and node.func.value.value == "self" and f"{class_name}.{node.func.attr.value}" in functions:
            callee = f"{class_name}.{node.func.attr.value}"
        if callee is None:
            continue
        positional: dict[int, str] = {}
        keywords: dict[str, str] = {}
        for index, argument in enumerate(node.args):
            if argument.star or not isinstance(argument.value, cst.Name) or argument.value.value not in own:
                continue
            if argument.keyword is not None:
                keywords[argument.keyword.value] = argument.value.value
            else:
                positional[index] = argument.value.value
        if positional or keywords:
            found.append(PassedOn(callee, positional, keywords))
    return found


def _assigned(body: cst.CSTNode) -> set[str]:
    names: set[str] = set()
    for node in walk(body):
        targets: list[cst.CSTNode] = []
        if isinstance(node, cst.AssignTarget):
            targets.append(node.target)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets.append(node.target)
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets.append(node.asname.name)
        for target in targets:
            names |= {name.value for name in walk(target) if isinstance(name, cst.Name)}
    return names
