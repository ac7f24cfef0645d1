"""Registries a decorator fills: a module's `MODELS = {}` with a factory of decorators that store what they decorate
under the name they are given,

    def register_model(name):
        def wrap(cls):
            MODELS[name] = cls
            return cls
        return wrap

and classes of the project decorated `@register_model("gru_lm")`: `MODELS["gru_lm"]` is that class, when one class
of the registry's module or of a module importing it is registered under that name (two: not known which one the
run imports last). A class the code registers otherwise (a call of the factory, `MODELS.update`), or a registry the
code fills in any other way, leaves the entry unknown, as before.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.walker import walk
from shapecheck.objects.project import PROJECT, importer_files
from shapecheck.objects.values import UNKNOWN, ClassValue

if TYPE_CHECKING:
    from shapecheck.engine.context import Context


def registered(ctx: Context, registry: cst.BaseExpression, key: str) -> object:
    """The class registered under `key` in `registry`, a name of `ctx`'s module bound once to `{}` there and filled
    by the module's decorator factories (see the module's docstring); UNKNOWN where that is not known."""
    if type(registry) is not cst.Name:
        return UNKNOWN
    bindings = ctx._module_scope().bindings.get(registry.value)
    if not bindings or len(bindings) != 1 or bindings[0].kind != "assign":
        return UNKNOWN
    made = bindings[0].value
    if type(made) is not cst.Dict or made.elements:
        return UNKNOWN
    own = Path(ctx.filename)
    # a module another one imports is read in part (the definitions it asks for): its factories are read whole
    whole = PROJECT.context(own.resolve(), frozenset({"*"})) if own.is_file() else None
    if whole is None:
        return UNKNOWN
    ctx = whole
    factories = _factories(ctx.module, registry.value)
    if not factories or _fills(ctx.module, registry.value) != len(factories):
        return UNKNOWN  # filled otherwise too (`MODELS["mlp"] = MLP`, `MODELS.update(...)`)
    found: list[tuple[str, str]] = []
    modules = [(str(own), None), *(importer_files(str(own)) or ())]
    for path, text in modules:
        for name in _registered_classes(path, text, factories, key):
            found.append((path, name))
    if len(found) != 1:
        return UNKNOWN
    path, name = found[0]
    home = ctx if Path(path) == own else PROJECT.context(Path(path).resolve(), frozenset({name}))
    if home is None:
        return UNKNOWN
    node = next((statement for statement in home.module.body
                 if type(statement) is cst.ClassDef and statement.name.value == name), None)
    return ClassValue(node, home) if node is not None else UNKNOWN


def _factories(module: cst.Module, registry: str) -> frozenset[str]:
    """The module's functions `f(name)` whose one inner function `wrap(cls)` stores `registry[name] = cls` and
    returns `cls`, `f` returning `wrap`."""
    found = set()
    for statement in module.body:
        if type(statement) is not cst.FunctionDef or not statement.params.params:
            continue
        key = statement.params.params[0].name.value
        inner = [node for node in statement.body.body if type(node) is cst.FunctionDef and node.params.params]
        if len(inner) != 1 or not _returns_name(statement.body.body, inner[0].name.value):
            continue
        wrap = inner[0]
        value = wrap.params.params[0].name.value
        if _stores(wrap.body.body, registry, key, value) and _returns_name(wrap.body.body, value):
            found.add(statement.name.value)
    return frozenset(found)


def _fills(module: cst.Module, registry: str) -> int:
    """How many places of the module may fill `registry`: assignments to an entry and calls of its methods."""
    count = 0
    for node in walk(module):
        if type(node) is cst.AssignTarget and type(node.target) is cst.Subscript \
                and type(node.target.value) is cst.Name and node.target.value.value == registry:
            count += 1
        elif type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == registry \
                and node.attr.value not in ("get", "keys", "items", "values", "__contains__"):
            count += 1
    return count


def _returns_name(body, name: str) -> bool:
    last = body[-1] if body else None
    return type(last) is cst.SimpleStatementLine and len(last.body) == 1 and type(last.body[0]) is cst.Return \
        and type(last.body[0].value) is cst.Name and last.body[0].value.value == name


def _stores(body, registry: str, key: str, value: str) -> bool:
    for line in body:
        if type(line) is not cst.SimpleStatementLine:
            continue
        for small in line.body:
            if type(small) is not cst.Assign or len(small.targets) != 1:
                continue
            target = small.targets[0].target
            if type(target) is cst.Subscript and type(target.value) is cst.Name and target.value.value == registry \
                    and len(target.slice) == 1 and type(target.slice[0].slice) is cst.Index \
                    and type(target.slice[0].slice.value) is cst.Name and target.slice[0].slice.value.value == key \
                    and type(small.value) is cst.Name and small.value.value == value:
                return True
    return False


def _registered_classes(path: str, text: str | None, factories: frozenset[str], key: str) -> list[str]:
    """The top-level classes of the module decorated `@factory("key")` (or `@module.factory(name="key")`)."""
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
    if not any(factory in text for factory in factories):
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef)
            and any(_registers(decorator, factories, key) for decorator in node.decorator_list)]


def _registers(decorator: ast.expr, factories: frozenset[str], key: str) -> bool:
    if not isinstance(decorator, ast.Call):
        return False
    func = decorator.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name not in factories:
        return False
    given = decorator.args[0] if decorator.args else next(
        (keyword.value for keyword in decorator.keywords if keyword.arg == "name"), None)
    return isinstance(given, ast.Constant) and given.value == key
