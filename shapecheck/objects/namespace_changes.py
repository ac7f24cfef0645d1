"""Whether code may change the attributes of the namespace a name holds: `args.hidden = 64`, `del args.hidden`,
`setattr(args, ...)`, `vars(args).update(...)`, `args.__dict__[...] = ...`, or a call it hands the name to that may
do so. A call may, unless its callee is a function or class of the project that the analysis reads (transitively,
no deeper than the calls it runs) and that changes none of that parameter's attributes, nor lets it escape (stores
it, returns it, hands it to what it can't read). A config handed to `Net(args)` that only reads `args.hidden` keeps
its fields. One store is followed: a constructor's `self.args = args`, into its class's methods; a write through the
instance from outside them (`model.args.hidden = 1`) is not seen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.walker import walk
from shapecheck.objects import calls
from shapecheck.objects.arguments import receiving_parameter
from shapecheck.objects.changes import CHANGERS
from shapecheck.objects.classes import class_facts
from shapecheck.objects.values import ClassValue, FunctionValue

if TYPE_CHECKING:
    from shapecheck.objects.evaluator import Evaluator

# builtins that read a namespace they are given; `vars` is not one: the dict it returns is the namespace's own
_READERS = frozenset({"print", "str", "repr", "isinstance", "getattr", "hasattr", "id", "type", "hash", "bool"})


# what a namespace is reached through: a plain name (`args`), or an attribute of `self` (`("self", "args")`)
Holder = str | tuple[str, str]


def namespace_writes(ev: Evaluator, scope: cst.CSTNode, holder: Holder, depth: int = 0,
                     seen: frozenset[int] = frozenset(), constructor: bool = False) -> frozenset[str] | None:
    """The attributes of the namespace `holder` holds that `scope`'s code (`ev`'s module's) may set, delete or
    change in place; None when it may change any. Functions inside `scope` whose own parameter is the holder's name
    read another object and are left out. Stored as `self.<attribute>` (`self.args = args`), it may be changed by
    the methods of the class whose `__init__` `scope` is (a `constructor`'s), which the caller reads."""
    key = ("namespace writes", id(scope), holder, constructor)
    if key not in ev._memo:
        ev._memo[key] = _writes(ev, scope, holder, depth, seen, constructor)
    return ev._memo[key]  # type: ignore[return-value]


def call_writes(ev: Evaluator, call: cst.Call, argument: cst.Name, depth: int = 0,
                seen: frozenset[int] = frozenset()) -> frozenset[str] | None:
    """The attributes of the namespace `call` is handed as `argument` (one of its arguments) that the call may
    change; None when it may change any."""
    func = call.func
    if type(func) is cst.Name and func.value in _READERS:
        return frozenset()
    callee = _callee(ev, func)
    if callee is None or depth >= calls.MAX_DEPTH:
        return None
    function, home, instantiated = callee
    params = function.params
    if id(function) in seen or params.star_kwarg is not None or isinstance(params.star_arg, cst.Param):
        return None
    parameter = receiving_parameter(function, call, argument, instantiated is not None)
    named = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
    if parameter is None or parameter not in named:
        return None
    inner = seen | {id(function)}
    found = namespace_writes(home, function.body, parameter, depth + 1, inner, instantiated is not None)
    if found is None or instantiated is None:
        return found
    stored = _stored(function.body, parameter)
    if stored is None:
        return found
    # `self.args = args`: the instance's methods may change it later
    written = set(found)
    for owner in ev.calls.mro(instantiated):
        methods = class_facts(owner.ctx, owner.node).methods
        for method in methods.values():
            if id(method) in inner:
                continue
            more = namespace_writes(ev.calls.evaluator_for(owner.ctx), method.body, ("self", stored), depth + 1,
                                    inner)
            if more is None:
                return None
            written |= more
    return frozenset(written)


def _writes(ev: Evaluator, scope: cst.CSTNode, holder: Holder, depth: int, seen: frozenset[int],
            constructor: bool) -> frozenset[str] | None:
    root = holder if isinstance(holder, str) else holder[0]
    shadowed = {id(inner) for node in walk(scope) if node is not scope and type(node) in (cst.FunctionDef, cst.Lambda)
                and root in _parameters(node) for inner in walk(node)}  # type: ignore[arg-type]
    reads: set[int] = set()  # the uses of the holder that neither change the namespace nor let it escape
    written: set[str] = set()
    spread: set[int] = set()  # `vars(args)` calls spread into keywords at once (`Net(**vars(args))`)
    stored = _stored(scope, holder) if constructor else None
    for node in walk(scope):
        if id(node) in shadowed:
            continue
        kind = type(node)
        if kind is cst.Assign and stored is not None and _holds(node.value, holder):  # type: ignore[attr-defined]
            reads.add(id(node.value))  # type: ignore[attr-defined]  # `self.args = args`: the caller looks on
        elif kind in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del):
            target = node.target  # type: ignore[attr-defined]
            if _holds(target, holder) or type(target) is cst.Name:  # binding a name again changes no object
                reads.add(id(target))
            else:
                field = _field(target, holder)
                if field is not None:
                    written.add(field)
        elif kind is cst.Attribute:
            reads.add(id(node.attr))  # type: ignore[attr-defined]  # `self.args`: another object's attribute
            if _holds(node.value, holder):  # type: ignore[attr-defined]
                if node.attr.value == "__dict__":  # type: ignore[attr-defined]
                    return None
                reads.add(id(node.value))  # type: ignore[attr-defined]
        elif kind is cst.Arg and node.star == "**" \
                and (namespace := calls.spread_namespace(node.value)) is not None \
                and _holds(namespace, holder):  # type: ignore[attr-defined]
            spread.add(id(node.value))  # type: ignore[attr-defined]
            reads.add(id(namespace))
        elif kind is cst.Arg and node.keyword is not None:  # type: ignore[attr-defined]
            reads.add(id(node.keyword))  # type: ignore[attr-defined]  # `Net(args=cfg)`: a parameter's name
        elif kind is cst.Call and id(node) not in spread:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute and func.attr.value in CHANGERS:
                field = _field(func.value, holder)
                if field is not None:
                    written.add(field)  # `args.layers.append(4)`
            for arg in node.args:  # type: ignore[attr-defined]
                if type(arg.value) is cst.Name and _holds(arg.value, holder):
                    passed = None if arg.star else call_writes(ev, node, arg.value, depth, seen)  # type: ignore
                    if passed is None:
                        return None
                    written |= passed
                    reads.add(id(arg.value))
        if _holds(node, holder) and id(node) not in reads:
            return None  # stored, returned, captured: changed where this code can't see
    return frozenset(written)


def _stored(body: cst.CSTNode, name: Holder) -> str | None:
    """The attribute of `self` a constructor stores its parameter `name` in, as its only statement that does
    (`self.args = args`); None when it stores none, or more."""
    if not isinstance(name, str):
        return None
    found = [statement.targets[0].target for statement in walk(body) if type(statement) is cst.Assign
             and len(statement.targets) == 1 and _holds(statement.value, name)]
    if len(found) != 1 or type(found[0]) is not cst.Attribute or not _holds(found[0].value, "self"):
        return None
    return found[0].attr.value


def _holds(node: cst.CSTNode, holder: Holder) -> bool:
    if isinstance(holder, str):
        return type(node) is cst.Name and node.value == holder
    return type(node) is cst.Attribute and node.attr.value == holder[1] and _holds(node.value, holder[0])


def _field(target: cst.BaseExpression, holder: Holder) -> str | None:
    """The attribute of the holder's namespace that `target` sets or changes in place: `args.hidden`,
    `args.dims[0]`, `args.opt.lr` -> the first attribute after the holder."""
    field = None
    while not _holds(target, holder):
        if type(target) is cst.Attribute:
            field = target.attr.value
        elif type(target) is not cst.Subscript:
            return None
        target = target.value  # type: ignore[attr-defined]
    return field


def _callee(ev: Evaluator, func: cst.BaseExpression) -> tuple[cst.FunctionDef, Evaluator, ClassValue | None] | None:
    """The project function a call of `func` runs, the evaluator of its module, and the class it makes when it
    is that class's `__init__`; None when the analysis can't tell (a method, a local, another package's)."""
    if type(func) is not cst.Name:
        return None
    value = ev.module_value(func.value)
    if isinstance(value, FunctionValue) and value.bound is None and value.closure is None:
        return value.node, ev.calls.evaluator_for(value.ctx), None
    if isinstance(value, ClassValue):
        found = ev.calls.method(value, "__init__")
        if found is not None:
            return found[0], ev.calls.evaluator_for(found[1].ctx), value
    return None


def _parameters(function: cst.FunctionDef | cst.Lambda) -> set[str]:
    params = function.params
    every = (*params.posonly_params, *params.params, *params.kwonly_params, params.star_arg, params.star_kwarg)
    return {param.name.value for param in every if isinstance(param, cst.Param)}
