"""Whether an `nn.Sequential(...)` bound to a name is only ever used as a container of modules.

A Sequential whose layers cannot follow each other raises only when it is run as one chain. Code that keeps
detection heads in a Sequential and only indexes or iterates it (`for head, x in zip(self.head, feats)`) never
runs that chain, so a conflict between its layers is no bug. `only_held(ctx, call)` says so only when the code
where the name lives (the class for `self.head`, the function for a local) states every use of it, and each is
one that takes its modules out (subscript, iteration, `zip`/`enumerate`/`len`, `.children()`): a call, a return,
an argument to anything else, or a name other code may reach keeps the chain possibly run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute

if TYPE_CHECKING:
    from shapecheck.engine.context import Context

# builtins that take the modules out of a container without running it
_TAKING_APART = frozenset({"zip", "enumerate", "len", "reversed", "list", "tuple", "iter", "isinstance"})
# `nn.Module` / `nn.Sequential` methods that neither run the chain nor give it back to be run
_CONTAINER_METHODS = frozenset({
    "children", "named_children", "modules", "named_modules", "parameters", "named_parameters", "buffers",
    "named_buffers", "append", "extend", "insert", "add_module", "__len__", "__iter__", "__getitem__",
})


def only_held(ctx: Context, call: cst.Call) -> bool:
    """Whether `call`, the node being visited and bound by `self.x = nn.Sequential(...)` in a method or by
    `x = nn.Sequential(...)` in a function, is used in that class or function only as a container."""
    assign = ctx.parent
    if type(assign) is not cst.Assign or assign.value is not call or len(assign.targets) != 1:
        return False
    target = assign.targets[0].target
    function = ctx.function
    if is_self_attribute(target) and ctx.class_def is not None and function is not None:
        scope: cst.CSTNode = ctx.class_def
        is_use: Callable[[cst.CSTNode], bool] = is_self_attribute  # type: ignore[assignment]
    elif type(target) is cst.Name and function is not None:
        scope = function
        is_use = _is_name
    else:  # a module-level name: other statements may run it
        return False
    name = target.attr.value if type(target) is cst.Attribute else target.value  # type: ignore[union-attr]
    finder = _Uses(name, is_use)
    scope.visit(finder)
    return finder.held and finder.seen


def _is_name(node: cst.CSTNode) -> bool:
    return type(node) is cst.Name


class _Uses(cst.CSTVisitor):
    """Every use of one name in a class or function, and whether each only takes modules out of it."""

    def __init__(self, name: str, is_use: Callable[[cst.CSTNode], bool]) -> None:
        self.name = name
        self.is_use = is_use
        self.held = True
        self.seen = False
        self._parents: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._is_ours(node) and not self._names_another(node):
            if not self._bound_here(node):
                self.seen = True
                self.held = self.held and self._takes_apart(node)
            return False
        self._parents.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self._parents and self._parents[-1] is original_node:
            self._parents.pop()

    def _is_ours(self, node: cst.CSTNode) -> bool:
        if not self.is_use(node):
            return False
        if type(node) is cst.Attribute:
            return node.attr.value == self.name
        return node.value == self.name  # type: ignore[attr-defined]

    def _names_another(self, node: cst.CSTNode) -> bool:
        """Whether a bare name is an attribute's (`cfg.head`) or a keyword's (`head=...`), not the variable."""
        parent = self._parents[-1] if self._parents else None
        return (type(parent) is cst.Attribute and parent.attr is node) \
            or (type(parent) is cst.Arg and parent.keyword is node)

    def _bound_here(self, node: cst.CSTNode) -> bool:
        parent = self._parents[-1] if self._parents else None
        return type(parent) is cst.AssignTarget and parent.target is node

    def _takes_apart(self, node: cst.CSTNode) -> bool:
        parent = self._parents[-1]
        grand = self._parents[-2] if len(self._parents) > 1 else None
        if type(parent) is cst.Subscript and parent.value is node:
            return True
        if type(parent) in (cst.For, cst.CompFor) and parent.iter is node:  # type: ignore[union-attr]
            return True
        if type(parent) is cst.Arg and type(grand) is cst.Call and type(grand.func) is cst.Name \
                and grand.func.value in _TAKING_APART:
            return True
        return type(parent) is cst.Attribute and parent.value is node and parent.attr.value in _CONTAINER_METHODS \
            and type(grand) is cst.Call and grand.func is parent
