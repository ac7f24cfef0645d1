"""Which names of a function its bindings alone may not tell the value of, so that only a run of the function can:
the names a loop or a comprehension binds (a value carried from one iteration to the next, `x = layer(x)` over a
`ModuleList`), those an `if` binds whose test the run may decide (a module flag: the run takes one branch where the
bindings join both), the lists and dicts the function fills in place (`layers.append(...)`), and every name computed
from those. A question about an expression that reads none of them has the same answer in a run of the function
on its own signature as it has from the bindings, so the run need not be made for it.

Syntactic and deliberately wide: any binding anywhere in the function counts, whatever its order or branch. One
pass over the function, since every function a shape rule asks about is read this way.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute
from shapecheck.engine.walker import children, walk
from shapecheck.objects.changes import CHANGERS

_LOOPS = (cst.For, cst.While)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
# What builds a list or a dict the code may then fill: `[]`, `{}`, `[x] * n`, `list(...)`, `dict(...)`.
_CONTAINERS = (cst.List, cst.Dict, cst.ListComp, cst.DictComp)
_CONTAINER_CALLS = frozenset({"list", "dict", "sorted", "OrderedDict", "defaultdict", "copy", "deepcopy"})
# The nodes that bind, loop or change something, each read by its kind below; the kind alone passes over the rest.
_STATED = frozenset({cst.Assign, cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.WithItem, cst.For, cst.CompFor,
                     cst.Call, cst.AssignTarget, cst.Del})


class Carried:
    """The names (`x`, `self.h`) of one function whose value a run may know better than the bindings."""

    __slots__ = ("names", "_read")

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names
        self._read: dict[int, bool] = {}  # id(node) -> whether it reads one of them: rules ask about a node again

    def read_by(self, node: cst.CSTNode) -> bool:
        """Whether `node` reads one of them."""
        names = self.names
        if not names:
            return False
        found = self._read.get(id(node))
        if found is None:
            found = self._read[id(node)] = not names.isdisjoint(read_names(node))
        return found


class _Assignment:
    """Names bound from an expression, and the names that expression reads."""

    __slots__ = ("targets", "reads")

    def __init__(self, targets: set[str]) -> None:
        self.targets = targets
        self.reads: set[str] = set()


def carried(function: cst.FunctionDef | cst.Lambda | cst.Module) -> Carried:
    """The names of `function` (or of a module's own code) that a loop, a comprehension or an in-place change
    reaches, and those computed from them (nested functions and classes are their own)."""
    assignments: list[_Assignment] = []
    params = frozenset() if type(function) is cst.Module else _parameters(function)
    tainted: set[str] = set()
    containers: set[str] = set()  # built as a list or dict
    changed: set[str] = set()  # changed in place by the function's own code
    passed: set[str] = set()  # handed to a call, which may change them
    # each node with whether a run may bind differently there (in a loop, under a test the run may decide), and the
    # assignments whose value it is part of
    body = function.body
    stack: list[tuple[cst.CSTNode, bool, tuple[_Assignment, ...]]] = \
        [(statement, False, ()) for statement in body] if type(function) is cst.Module else [(body, False, ())]
    push = stack.append
    while stack:
        node, in_loop, owners = stack.pop()
        kind = type(node)
        if kind is cst.Attribute:
            if is_self_attribute(node):
                for owner in owners:
                    owner.reads.add("self." + node.attr.value)  # type: ignore[attr-defined]
            elif type(node.value) is cst.Name:  # type: ignore[attr-defined]
                for owner in owners:
                    owner.reads.add(node.value.value)  # type: ignore[attr-defined]
            else:
                push((node.value, in_loop, owners))  # type: ignore[attr-defined]
            continue
        targets: list[cst.BaseExpression] | None = None
        if kind not in _STATED:  # most nodes: no binding, loop or change of their own
            pass
        elif kind is cst.Assign:
            targets = [t.target for t in node.targets]  # type: ignore[attr-defined]
            value = node.value  # type: ignore[attr-defined]
        elif kind is cst.AugAssign:  # `h += x`: the new value reads the old one too
            targets, value = [node.target], node.value  # type: ignore[attr-defined]
            _changed_root(node.target, changed)  # type: ignore[attr-defined]
        elif kind is cst.AnnAssign or kind is cst.NamedExpr:
            if node.value is not None:  # type: ignore[attr-defined]
                targets, value = [node.target], node.value  # type: ignore[attr-defined]
        elif kind is cst.WithItem:
            if node.asname is not None:  # type: ignore[attr-defined]
                targets, value = [node.asname.name], node.item  # type: ignore[attr-defined]
        elif kind is cst.For or kind is cst.CompFor:
            tainted.update(_target_names(node.target))  # type: ignore[attr-defined]
        elif kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute and func.attr.value in CHANGERS:
                changed.update(_target_names(func.value))
            for arg in node.args:  # type: ignore[attr-defined]
                if type(arg.value) is cst.Name and not arg.star:
                    passed.add(arg.value.value)
        elif kind is cst.AssignTarget or kind is cst.Del:  # `x[i] = ...`, `del x[k]`: x changed in place
            _changed_root(node.target, changed)  # type: ignore[attr-defined]
        if targets is not None:
            names = {name for target in targets for name in _target_names(target)}
            if in_loop:
                tainted.update(names)
            if _builds_container(value):
                containers.update(names)
            assignment = _Assignment(names)
            assignments.append(assignment)
            if kind is cst.AugAssign:
                assignment.reads.update(names)
            owners = (*owners, assignment)
        # A loop's body (not its `else`) may run any number of times; an `if` whose test reads no parameter (a
        # constant, a module flag, an attribute `__init__` set) may have a truth the run knows, and then it runs
        # one branch where the bindings join both.
        if kind in _LOOPS:
            varies, outside = True, node.orelse  # type: ignore[attr-defined]
        elif kind is cst.If:
            varies, outside = params.isdisjoint(read_names(node.test)), node.test  # type: ignore[attr-defined]
        else:
            varies, outside = kind in _COMPREHENSIONS, None
        for child in children(node):
            child_kind = type(child)
            if child_kind is cst.Name:  # a third of the nodes: read where they are, not pushed
                for owner in owners:
                    owner.reads.add(child.value)  # type: ignore[attr-defined]
                continue
            if child_kind in _SCOPES:
                name = getattr(child, "name", None)
                if in_loop and type(name) is cst.Name:
                    tainted.add(name.value)
                continue
            push((child, in_loop or varies and child is not outside, owners))
    # a list or dict handed to a call may be filled by it (`make_layers(layers)`)
    tainted.update(changed, containers & passed)
    grown = bool(tainted)
    while grown:
        grown = False
        for assignment in assignments:
            if not assignment.targets <= tainted and not assignment.reads.isdisjoint(tainted):
                tainted.update(assignment.targets)
                grown = True
    return Carried(frozenset(tainted))


def read_names(node: cst.CSTNode) -> Iterator[str]:
    """The names (`x`) and instance attributes (`self.h`) an expression mentions."""
    attributes = set()
    for child in walk(node):
        kind = type(child)
        if kind is cst.Attribute:
            attributes.add(id(child.attr))  # type: ignore[attr-defined]
            if is_self_attribute(child):
                yield "self." + child.attr.value  # type: ignore[attr-defined]
        elif kind is cst.Name and id(child) not in attributes:
            yield child.value  # type: ignore[attr-defined]


def _parameters(function: cst.FunctionDef | cst.Lambda) -> frozenset[str]:
    """The parameters whose value a run on the function's own signature does not know (all but `self`)."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    names = {param.name.value for param in (*positional, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    if positional and positional[0].name.value in ("self", "cls"):
        names.discard(positional[0].name.value)
    return frozenset(names)


def _changed_root(target: cst.BaseExpression, changed: set[str]) -> None:
    """`x[i]` or `x.a` as a target changes the object `x` holds (`self.cache[k]`: `self.cache`'s)."""
    root = target
    while type(root) in (cst.Subscript, cst.Attribute) and not is_self_attribute(root):
        root = root.value  # type: ignore[attr-defined]
    if root is not target:
        changed.update(_target_names(root))


def _target_names(target: cst.BaseExpression) -> list[str]:
    kind = type(target)
    if kind is cst.Name:
        return [target.value]  # type: ignore[attr-defined]
    if is_self_attribute(target):
        return ["self." + target.attr.value]  # type: ignore[attr-defined]
    if kind in (cst.Tuple, cst.List):
        return [name for element in target.elements for name in _target_names(element.value)]  # type: ignore
    if kind is cst.StarredElement:
        return _target_names(target.value)  # type: ignore[attr-defined]
    return []


def _builds_container(value: cst.CSTNode) -> bool:
    kind = type(value)
    if kind is cst.BinaryOperation:  # `[block] * n`, `[x] + rest`
        return _builds_container(value.left) or _builds_container(value.right)  # type: ignore[attr-defined]
    if kind is cst.Call:
        func = value.func  # type: ignore[attr-defined]
        name = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else ""
        return name in _CONTAINER_CALLS
    return kind in _CONTAINERS
