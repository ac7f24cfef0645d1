"""The engine's single pass over a module: for each node, the bookkeeping of the floor above (the bindings and flow
of `shapecheck.engine.bindings`), then every visitor's `visit_<Node>`, then the children in source order, then every
visitor's `leave_<Node>`, then the leaving bookkeeping (so a rule looking at `x = x.transpose(0, 1)` still sees the
old binding of `x`). A visitor that raises is dropped for the rest of the file and reported once as an internal error;
the others go on.

Visitors are any objects whose classes define libcst-style `visit_<Node>` / `leave_<Node>` methods (which of them a
class has is looked up once per set of visitor classes) and, optionally, `finish()`: this floor knows nothing of
bindings, rules or analyses. `shapecheck.engine.bindings.traverse` runs it with the bindings'
bookkeeping, the recording analyses first and the rules after them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from shapecheck.engine.walker import NODE_TYPES, child_fields

Handler = Callable[[cst.CSTNode], object]
Bookkeeping = Callable[[object, cst.CSTNode], None]
# A node type's visitor handlers (visit, leave), the fields holding its children, the engine's own enter and leave.
_Entry = tuple[tuple[tuple[object, Handler], ...], tuple[tuple[object, Handler], ...], tuple[str, ...],
               Bookkeeping | None, Bookkeeping | None]
# (the visitors' types, a node type) -> the places of those with a visit and of those with a leave handler for it:
# the same for every traversal with the same visitors (the editor server's, on every keystroke), where asking each
# visitor about each node type met cost a millisecond a lint
_HANDLED: dict[tuple[tuple[type, ...], type], tuple[tuple[int, ...], tuple[int, ...]]] = {}


class VisitorCrash(Exception):
    """A visitor (a rule or an analysis) raised: it is dropped for the rest of the file."""

    def __init__(self, visitor: object, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.visitor = visitor
        self.error = error


class Traversal:
    def __init__(self, module: cst.Module, visitors: Sequence[object], state: object,
                 enter: dict[type, Bookkeeping], leave: dict[type, Bookkeeping], ancestors: list[cst.CSTNode]) -> None:
        """`enter` and `leave` map node types to bookkeeping called with `state` and the node; `ancestors` is kept
        as the path from the module down to the node being visited."""
        self.module = module
        self.state = state
        self.enter = enter
        self.leave = leave
        self.ancestors = ancestors
        self.rules = list(visitors)
        self.crashes: list[VisitorCrash] = []
        self._dispatch: dict[type, _Entry] = {}
        # Node types worth a visit: those with children, engine bookkeeping or a rule handler. The rest (strings,
        # numbers, `pass`, and names when no rule looks at them) are skipped by their parent.
        self._visited: set[type] = set(NODE_TYPES)
        # The visitors whose handlers `_dispatch` holds: all of them, unless a subclass leaves some out for a while
        # (with a `_dispatch` and `_visited` of its own for that while).
        self._dispatching: list[object] = self.rules

    def run(self) -> None:
        self._visit(self.module)
        for rule in list(self.rules):
            finish = getattr(rule, "finish", None)
            if finish is None:
                continue
            try:
                finish()
            except Exception as error:  # noqa: BLE001 - a crashing rule must not stop the others
                self._crashed(rule, error)

    # ------------------------------------------------------------------------------------------------ dispatch

    def _entry(self, cls: type) -> _Entry:
        name = cls.__name__
        rules = self._dispatching
        key = (tuple(map(type, rules)), cls)
        handled = _HANDLED.get(key)
        if handled is None:
            handled = _HANDLED[key] = (
                tuple(k for k, rule in enumerate(rules) if hasattr(rule, "visit_" + name)),
                tuple(k for k, rule in enumerate(rules) if hasattr(rule, "leave_" + name)))
        visits = tuple((rules[k], getattr(rules[k], "visit_" + name)) for k in handled[0])
        leaves = tuple((rules[k], getattr(rules[k], "leave_" + name)) for k in handled[1])
        entry = (visits, leaves, child_fields(cls), self.enter.get(cls), self.leave.get(cls))
        if not any(entry):
            self._visited.discard(cls)
        self._dispatch[cls] = entry
        return entry

    def _crashed(self, rule: object, error: BaseException) -> None:
        self.crashes.append(VisitorCrash(rule, error))
        self.rules.remove(rule)
        if rule in self._dispatching:
            self._dispatching.remove(rule)
        self._dispatch.clear()  # fewer handlers from now on, so fewer types are worth a visit

    def _visit(self, node: cst.CSTNode) -> None:
        cls = type(node)
        visits, _, fields, enter, leave = self._dispatch.get(cls) or self._entry(cls)
        ancestors = self.ancestors
        ancestors.append(node)
        if enter is not None:
            enter(self.state, node)
        for rule, handler in visits:
            try:
                handler(node)
            except Exception as error:  # noqa: BLE001
                if rule in self.rules:
                    self._crashed(rule, error)
        # `walker.children` inlined: this loop runs for every node of every file, where a generator per node
        # would cost a few percent of the parse.
        visited = self._visited
        visit = self._visit_statement if cls is cst.Module else self._visit
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for item in value:
                    if type(item) in visited:
                        visit(item)
            elif kind in visited:
                visit(value)
        leaves = (self._dispatch.get(cls) or self._entry(cls))[1]  # a crash above may have dropped a rule
        for rule, handler in leaves:
            try:
                handler(node)
            except Exception as error:  # noqa: BLE001
                if rule in self.rules:
                    self._crashed(rule, error)
        if leave is not None:
            leave(self.state, node)
        ancestors.pop()

    def _visit_statement(self, node: cst.CSTNode) -> None:
        """Visit a child of the module: a top-level statement, or a comment line before or after them all. The
        editor server's incremental analysis visits some top-level statements with fewer visitors."""
        self._visit(node)
