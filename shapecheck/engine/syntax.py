"""Small questions about syntax that many rules ask, answered once: names as written, arguments by keyword; and
the keyword arguments that fixes add."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.walker import walk


def dotted_name(expr: cst.BaseExpression) -> str | None:
    """The source spelling of a dotted name (`torch.cuda.amp`, `self.model`), without resolving imports; None for
    anything else (calls, subscripts)."""
    parts = []
    while type(expr) is cst.Attribute:
        parts.append(expr.attr.value)
        expr = expr.value
    if type(expr) is not cst.Name:
        return None
    parts.append(expr.value)
    return ".".join(reversed(parts))


def last_name(func: cst.BaseExpression) -> str:
    """The last name of what is called: "cat" for `torch.cat`, `th.cat` and `cat`; "" for `f()()`."""
    if type(func) is cst.Attribute:
        return func.attr.value
    return func.value if type(func) is cst.Name else ""


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    """The argument passed as `name=...`, if any."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def new_keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """A new `name=value` argument for a fix, spelled the way PEP 8 spells keyword arguments (no spaces around
    `=`)."""
    no_space = cst.SimpleWhitespace("")
    return cst.Arg(value=value, keyword=cst.Name(name),
                   equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space))


def param_named(function: cst.FunctionDef, name: str) -> cst.Param | None:
    """The parameter `name` of `function`; `*args` and `**kwargs` are not looked at."""
    params = function.params
    return next((param for param in (*params.posonly_params, *params.params, *params.kwonly_params)
                 if param.name.value == name), None)


def param_annotation(function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """The annotation of the parameter `name` (`int` in `def f(n: int)`), if it has one."""
    param = param_named(function, name)
    return param.annotation.annotation if param is not None and param.annotation is not None else None


def is_false(expr: cst.BaseExpression) -> bool:
    """The literal `False`."""
    return type(expr) is cst.Name and expr.value == "False"


def is_true(expr: cst.BaseExpression) -> bool:
    """The literal `True`."""
    return type(expr) is cst.Name and expr.value == "True"


def is_self_attribute(expr: cst.BaseExpression) -> bool:
    """`self.x`."""
    return type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"


def assigned_attributes(statement: cst.CSTNode) -> frozenset[tuple[str | None, str, cst.CSTNode]]:
    """The attributes a top-level statement assigns anywhere inside it (`x.a = ...`, `x.a += ...`, `x.a: T = ...`):
    the receiver's name when it is a plain name (`Config` of `Config.device = ...`, `self`), the attribute, and the
    assignment. For `Context.module_fact`: whether a class's attribute is set again somewhere in the file."""
    found = set()
    for node in walk(statement):
        kind = type(node)
        if kind is cst.Assign:
            targets = [target.target for target in node.targets]  # type: ignore[attr-defined]
        elif kind is cst.AugAssign or kind is cst.AnnAssign:
            targets = [node.target]  # type: ignore[attr-defined]
        else:
            continue
        for target in targets:
            if type(target) is cst.Attribute:
                receiver = target.value.value if type(target.value) is cst.Name else None
                found.add((receiver, target.attr.value, node))
    return frozenset(found)


def runs_at_most_once(loop: cst.CSTNode) -> bool:
    """A `for` loop the code states runs at most one iteration: over `range(1)` or `range(0)` (`range(0, 1)`), or
    over a literal list or tuple of at most one element. Code split into stages often keeps `for i in range(1):`
    around each (AdvGAN's discriminator and generator steps)."""
    if type(loop) is not cst.For:
        return False
    over = loop.iter
    if type(over) in (cst.List, cst.Tuple):
        return len(over.elements) <= 1 and not any(type(e) is cst.StarredElement for e in over.elements)
    if type(over) is not cst.Call or type(over.func) is not cst.Name or over.func.value != "range" \
            or not 1 <= len(over.args) <= 2 or any(arg.keyword is not None or arg.star for arg in over.args):
        return False
    bounds = [arg.value for arg in over.args]
    if any(type(bound) is not cst.Integer for bound in bounds):
        return False
    start, end = (0, int(bounds[0].value)) if len(bounds) == 1 else (int(bounds[0].value), int(bounds[1].value))
    return end - start <= 1
