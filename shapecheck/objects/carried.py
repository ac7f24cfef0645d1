"""Which names of a function its bindings alone may not tell the value of, so that only a run of the function can:
the names a loop or a comprehension binds (a value carried from one iteration to the next, `x = layer(x)` over a
`ModuleList`), the lists and dicts the function fills in place (`layers.append(...)`), and every name computed
from those. A question about an expression that reads none of them has the same answer in a run of the function
on its own signature as it has from the bindings, so the run need not be made for it.

Syntactic and deliberately wide: any binding anywhere in the function counts, whatever its order or branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute
from shapecheck.engine.walker import children, walk
from shapecheck.objects.evaluator import CHANGERS, changed_names

_LOOPS = (cst.For, cst.While)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
# What builds a list or a dict the code may then fill: `[]`, `{}`, `[x] * n`, `list(...)`, `dict(...)`.
_CONTAINERS = (cst.List, cst.Dict, cst.ListComp, cst.DictComp)
_CONTAINER_CALLS = frozenset({"list", "dict", "sorted", "OrderedDict", "defaultdict", "copy", "deepcopy"})


@dataclass(frozen=True, slots=True)
class Carried:
    """The names (`x`, `self.h`) of one function whose value a run may know better than the bindings."""

    names: frozenset[str]

    def read_by(self, node: cst.CSTNode) -> bool:
        """Whether `node` reads one of them."""
        names = self.names
        return bool(names) and any(name in names for name in read_names(node))


def carried(function: cst.FunctionDef | cst.Lambda) -> Carried:
    """The names of `function` that a loop, a comprehension or an in-place change reaches, and those computed from
    them (nested functions and classes are their own)."""
    assigned: list[tuple[set[str], tuple[cst.CSTNode, ...]]] = []  # targets, and what they are computed from
    tainted: set[str] = set()
    containers: set[str] = set()  # built as a list or dict
    changed: set[str] = set()  # changed in place by the function's own code
    stack: list[tuple[cst.CSTNode, bool]] = [(function.body, False)]
    while stack:
        node, in_loop = stack.pop()
        kind = type(node)
        targets: list[cst.BaseExpression] = []
        sources: tuple[cst.CSTNode, ...] = ()
        if kind is cst.Assign:
            targets, sources = [t.target for t in node.targets], (node.value,)  # type: ignore[attr-defined]
        elif kind is cst.AugAssign:  # `h += x`: the new value reads the old one too
            targets, sources = [node.target], (node.target, node.value)  # type: ignore[attr-defined]
        elif kind in (cst.AnnAssign, cst.NamedExpr) and node.value is not None:  # type: ignore[attr-defined]
            targets, sources = [node.target], (node.value,)  # type: ignore[attr-defined]
        elif kind is cst.For or kind is cst.CompFor:
            tainted.update(_target_names(node.target))  # type: ignore[attr-defined]
        elif kind is cst.WithItem and node.asname is not None:  # type: ignore[attr-defined]
            targets, sources = [node.asname.name], (node.item,)  # type: ignore[attr-defined]
        elif kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in CHANGERS:  # type: ignore
            changed.update(_target_names(node.func.value))  # type: ignore[attr-defined]
        if kind in (cst.AssignTarget, cst.AugAssign, cst.Del):  # `x[i] = ...`, `x.a += ...`: x changed in place
            target = node.target  # type: ignore[attr-defined]
            while type(target) in (cst.Subscript, cst.Attribute) and not is_self_attribute(target):
                target = target.value  # type: ignore[attr-defined]
            if target is not node.target:  # type: ignore[attr-defined]
                changed.update(_target_names(target))
        if sources:
            names = {name for target in targets for name in _target_names(target)}
            if in_loop:
                tainted.update(names)
            assigned.append((names, sources))
            if _builds_container(sources[-1]):
                containers.update(names)
        for child in children(node):
            if type(child) in _SCOPES:
                name = getattr(child, "name", None)
                if in_loop and type(name) is cst.Name:
                    tainted.add(name.value)
                continue
            stack.append((child, in_loop or kind in _LOOPS and child is not getattr(node, "orelse", None)
                          or kind in _COMPREHENSIONS))
    # a list or dict handed to a call may be filled by it (`make_layers(layers)`)
    tainted.update(changed, containers.intersection(changed_names(function.body)))
    reads = [(names, {name for source in sources for name in read_names(source)}) for names, sources in assigned]
    grown = True
    while grown:
        grown = False
        for names, read in reads:
            if not names <= tainted and not read.isdisjoint(tainted):
                tainted.update(names)
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
    for node in walk(value):
        kind = type(node)
        if kind in _CONTAINERS:
            return True
        if kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            name = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else ""
            if name in _CONTAINER_CALLS:
                return True
    return False
