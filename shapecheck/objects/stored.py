"""What a `self.` attribute holds when the constructor stored one of its parameters there.

A trainer or agent keeps what it is given: `self.model, self.criterion = model, criterion`. Read on its own, a
method sees an unknown object there; the constructions of the class say what it is. `stored_parameter` finds the
parameter behind an attribute, and `constructor_arguments` what every construction of the class, at module level or
in a plain function, passes for it (where `finish()` reads the names they use as they end up), so that a rule can
decide on all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.objects.builtins import key_of
from shapecheck.objects.callers import argument_of, project_callers
from shapecheck.objects.modules import returned_self
from shapecheck.objects.values import Instance, Mapping, Namespace, constant_of

if TYPE_CHECKING:
    from shapecheck.engine.context import Context, Point

def stored_parameter(ctx: Context, attribute: cst.BaseExpression, class_def: cst.ClassDef | None = None,
                     copied: bool = False) -> tuple[cst.ClassDef, cst.FunctionDef, str] | None:
    """For `self.teacher` inside a method of `class_def` (the class being visited unless given): the class, its
    `__init__` and the parameter `__init__` stores there (`self.teacher = teacher`, `self.teacher, self.student =
    teacher.eval(), student`); None otherwise. With `copied`, the parameter `__init__` stores a deep copy of
    instead (an EMA or target model: `self.ema_model = copy.deepcopy(model)`), a new object with the same layers."""
    class_def = class_def or ctx.class_def
    if type(attribute) is not cst.Attribute or type(attribute.value) is not cst.Name \
            or attribute.value.value != "self" or class_def is None:
        return None
    init = next((node for node in class_def.body.body
                 if type(node) is cst.FunctionDef and node.name.value == "__init__"), None)
    if init is None:
        return None
    spelled = f"self.{attribute.attr.value}"
    parameter = next((parameter for stored, parameter in stored_parameters(ctx, init, copied) if stored == spelled),
                     None)
    if parameter is None:
        parameter = None if copied else _stored_through(ctx, class_def, init, spelled)
        return None if parameter is None else (class_def, init, parameter)
    if _rebound_elsewhere(ctx, class_def, init, spelled):
        return None
    return class_def, init, parameter


def _stored_through(ctx: Context, class_def: cst.ClassDef, init: cst.FunctionDef, spelled: str) -> str | None:
    """The constructor's parameter an attribute holds through another attribute: `self.net = model` in `__init__`,
    then `self.model = self.net.to(self.device)` in a `load_model` method (and perhaps `self.model = None` in
    `__init__`), every binding of it in the class so; None otherwise."""
    stored = dict(stored_parameters(ctx, init))
    through: set[str] = set()
    for method in class_def.body.body:
        if type(method) is not cst.FunctionDef:
            continue
        for target, source in assigned_pairs(ctx, method.body):
            if dotted_name(target) != spelled:
                continue
            if method is init and type(source) is cst.Name and source.value == "None":
                continue
            other = dotted_name(returned_self(source))
            if other is None or other not in stored or method is init or _rebound_elsewhere(ctx, class_def, init,
                                                                                           other):
                return None
            through.add(stored[other])
    return next(iter(through)) if len(through) == 1 else None


def _rebound_elsewhere(ctx: Context, class_def: cst.ClassDef, init: cst.FunctionDef, spelled: str) -> bool:
    """A method other than `__init__` binds the attribute to another object (`self.net = model_eval` in a
    callback's `on_epoch_end`): what the constructions hand is then only one of the objects it holds, so they alone
    do not say what a method reads there. A move or a mode switch of the object itself (`self.model =
    self.model.to(device)`) keeps it."""
    for method in class_def.body.body:
        if type(method) is not cst.FunctionDef or method is init:
            continue
        for stored, source in assigned_pairs(ctx, method.body):
            if dotted_name(stored) == spelled and dotted_name(returned_self(source)) != spelled:
                return True
    return False


def stored_root(ctx: Context, attribute: cst.BaseExpression, class_def: cst.ClassDef | None = None
                ) -> tuple[tuple[cst.ClassDef, cst.FunctionDef, str], tuple[str, ...]] | None:
    """For `self.egs.train_loader` (or `self.model.fc`): what `stored_parameter` finds for `self.egs`, with the
    attributes read from the parameter's object (`("train_loader",)`); the path is empty for `self.egs` itself."""
    path: list[str] = []
    while type(attribute) is cst.Attribute and not (type(attribute.value) is cst.Name
                                                    and attribute.value.value == "self"):
        path.insert(0, attribute.attr.value)
        attribute = attribute.value
    found = stored_parameter(ctx, attribute, class_def) if type(attribute) is cst.Attribute else None
    return None if found is None else (found, tuple(path))


@record(slots=True, unsafe_hash=True)
class Key:
    """A step of a path that reads an entry (`cfg["model"]`); a plain string step reads an attribute."""

    key: Hashable


def read_path(expr: cst.BaseExpression) -> tuple[cst.BaseExpression, tuple[str | Key, ...]]:
    """The expression `expr` reads from and the steps it takes, attributes and entries of a stated key:
    (`cfg`, `("model", Key("numerator"))`) for `cfg.model["numerator"]`; a read of an unstated key ends the path."""
    path: list[str | Key] = []
    while True:
        if type(expr) is cst.Attribute:
            path.insert(0, expr.attr.value)
        elif type(expr) is cst.Subscript and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
            key = key_of(constant_of(expr.slice[0].slice.value))
            if key is None:
                break
            path.insert(0, Key(key))
        else:
            break
        expr = expr.value  # type: ignore[attr-defined]  # an Attribute or a Subscript here
    return expr, tuple(path)


def attribute_path(value: object, path: tuple[str | Key, ...]) -> object:
    """What the steps `path` of an object the objects floor built hold: the attributes of a project instance
    (`egs.train_loader` of an `Egs` whose `__init__` set it) or of a parsed command line, the entries of a dict the
    code states whole; None where an object on the way is none of these. A dict the code may change in place
    (`settings["head"]["init"] = ...` through another name) may have any entry replaced: it holds nothing known."""
    for step in path:
        if isinstance(step, Key):
            value = value.get(step.key) if isinstance(value, Mapping) and value.complete else None
        elif isinstance(value, Instance) and not value.tainted:
            value = value.attrs.get(step)
        else:
            value = value.get(step) if isinstance(value, Namespace) else None
    return value


def stored_parameters(ctx: Context, init: cst.FunctionDef, copied: bool = False) -> list[tuple[str, str]]:
    """The `self.` attributes (spelled) a constructor stores its parameters in, each with the parameter:
    [("self.G", "generator")] for `self.G = generator`; with `copied`, those it stores a deep copy of a parameter
    in (`self.ema = copy.deepcopy(model)`)."""
    params = {param.name.value for param in init.params.params[1:]}
    found = []
    for stored, source in assigned_pairs(ctx, init.body):
        source = returned_self(source)
        if copied:
            if type(source) is not cst.Call or ctx.qualname(source.func) != "copy.deepcopy" or len(source.args) != 1:
                continue
            source = returned_self(source.args[0].value)
        spelled = dotted_name(stored)
        if spelled is not None and spelled.startswith("self.") and type(source) is cst.Name \
                and source.value in params:
            found.append((spelled, source.value))
    return found


def assigned_pairs(ctx: Context, body: cst.CSTNode) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """Each target of a one-target assignment in `body` with what it is given; a parallel assignment
    (`self.actor, self.critic = actor, critic`) gives one pair per element, and a module registered by name
    (`self.add_module("discriminator", discriminator)`, EdgeConnect's models) the attribute it sets."""
    for node in ctx.walk(body):
        if type(node) is cst.Call:
            registered = _registered(node)
            if registered is not None:
                yield registered
            continue
        if type(node) is not cst.Assign or len(node.targets) != 1:
            continue
        target, value = node.targets[0].target, node.value
        if type(target) is cst.Tuple and type(value) is cst.Tuple and len(target.elements) == len(value.elements):
            yield from ((t.value, v.value) for t, v in zip(target.elements, value.elements))
        else:
            yield target, value


def constructor_arguments(ctx: Context, class_def: cst.ClassDef, init: cst.FunctionDef, parameter: str
                          ) -> list[tuple[cst.BaseExpression, Point, Context]] | None:
    """What each construction of the class, in this file or in a module of the project that imports it, passes for
    `parameter`, with the point to read its names at and the context that point is in, when there are some, all
    made by the class's name where their names can be read (see `objects.callers`) and all passing it; None
    otherwise."""
    passed = []
    for caller in project_callers(ctx, class_def) or ():
        argument = argument_of(ctx, init, caller, parameter, constructor=True)
        if argument is None:
            return None
        passed.append(argument)
    return passed or None


def every_construction_passes(ctx: Context, class_def: cst.ClassDef, init: cst.FunctionDef, parameter: str,
                              holds: Callable[[Context, cst.BaseExpression], bool]) -> bool:
    """There are constructions of the class (see `constructor_arguments`) and every one passes a `parameter` that
    `holds` accepts, given the context to read it in and read with the names where the construction is."""
    passed = constructor_arguments(ctx, class_def, init, parameter)
    for argument, point, reader in passed or ():
        with reader.at(point):
            if not holds(reader, argument):
                return False
    return bool(passed)


def _registered(call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """`self.name` and the module for `self.add_module("name", module)`: `nn.Module` sets the attribute."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value not in ("add_module", "register_module") \
            or dotted_name(func.value) != "self" or len(call.args) != 2 or any(arg.keyword or arg.star
                                                                                for arg in call.args):
        return None
    name = call.args[0].value
    attribute = name.evaluated_value if type(name) is cst.SimpleString else None
    if type(attribute) is not str or not attribute.isidentifier():
        return None
    return cst.Attribute(value=cst.Name("self"), attr=cst.Name(attribute)), call.args[1].value
