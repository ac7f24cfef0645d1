"""Which bindings of a name may reach a read, within one function: the facts that keep the evaluator from trusting
a binding made in one branch of an `if` when the read is in the other, or after a loop that may not run.

The engine binds names in source order (`ctx.binding` gives the latest binding before a point). That is the value
read only when the binding certainly ran and nothing rebinds the name in between: a binding in the `else` branch
never reaches a read in the `if` branch; a binding under a condition, a loop or a `try` may or may not; a read
inside a loop may see a binding made later in the loop body, on the previous iteration. The index is built the first
time the evaluator asks about a function: one walk of that function, never of the whole file.
"""

from __future__ import annotations

from typing import Literal

import libcst as cst

from shapecheck.engine.walker import children

Reach = Literal["always", "maybe", "never"]

_CONDITIONAL = (cst.If, cst.Else, cst.For, cst.While, cst.Try, cst.TryStar, cst.ExceptHandler, cst.ExceptStarHandler,
                cst.Match, cst.MatchCase, cst.IfExp, cst.BooleanOperation, cst.Finally)
_LOOPS = (cst.For, cst.While)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
LAYOUT_TESTS = ("is_contiguous", "stride", "memory_format")


class FlowIndex:
    """Parents and source order of the nodes of one function (or of the module's own statements), and where each
    name is assigned."""

    def __init__(self, root: cst.CSTNode) -> None:
        self.root = root
        self.parent: dict[int, cst.CSTNode] = {}
        self.order: dict[int, int] = {}
        self.assigned: dict[str, list[tuple[int, cst.CSTNode]]] = {}  # name -> statements that bind it
        stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(root, None)]
        count = 0
        while stack:
            node, parent = stack.pop()
            key = id(node)
            self.order[key] = count
            count += 1
            if parent is not None:
                self.parent[key] = parent
            self._note_binding(node)
            if node is not root and isinstance(node, _SCOPES):
                continue  # its body is another function's
            stack.extend((child, node) for child in reversed(list(children(node))))

    def _note_binding(self, node: cst.CSTNode) -> None:
        kind = type(node)
        targets: list[cst.BaseExpression] = []
        if kind is cst.Assign:
            targets = [target.target for target in node.targets]
        elif kind in (cst.AnnAssign, cst.AugAssign) or kind is cst.NamedExpr:
            targets = [node.target]
        elif kind is cst.For:
            targets = [node.target]
        elif kind is cst.WithItem and node.asname is not None:
            targets = [node.asname.name]
        for target in targets:
            for name in _names(target):
                self.assigned.setdefault(name, []).append((self.order[id(node)], node))

    def contains(self, node: cst.CSTNode) -> bool:
        return id(node) in self.order

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """From the node's parent up to the root."""
        found = []
        current = self.parent.get(id(node))
        while current is not None:
            found.append(current)
            current = self.parent.get(id(current))
        return found

    def reach(self, statement: cst.CSTNode, read: cst.CSTNode) -> Reach:
        """Whether a binding made by `statement` is certainly, maybe or never the value seen at `read`."""
        if not self.contains(statement) or not self.contains(read):
            return "always"
        read_line = [read, *self.ancestors(read)]
        read_set = {id(node) for node in read_line}
        below: list[cst.CSTNode] = [statement]
        for ancestor in self.ancestors(statement):
            if id(ancestor) in read_set:
                common = ancestor
                break
            below.append(ancestor)
        else:
            return "always"
        statement_side = below[-1]
        read_side = read_line[read_line.index(common) - 1] if read_line.index(common) > 0 else None
        if read_side is not None and statement_side is not read_side:
            verdict = _sides(common, statement_side, read_side)
            if verdict != "always":
                return verdict
        if any(isinstance(node, _CONDITIONAL) for node in below[1:]):
            return "maybe"
        return "always"

    def rebound_in_loop(self, name: str, read: cst.CSTNode) -> bool:
        """A loop around `read` assigns `name` after it: on the next iteration the read sees that value."""
        orders = self.assigned.get(name)
        if not orders or not self.contains(read):
            return False
        here = self.order[id(read)]
        around = self.ancestors(read)
        containing = {id(node) for node in around}
        for ancestor in around:
            if isinstance(ancestor, _LOOPS):
                start, end = self.order[id(ancestor)], self._last_order(ancestor)
                # a statement after the read, or the one the read is part of (`x = x.unsqueeze(0)`)
                if any(start < order <= end and (order > here or id(node) in containing or node is read)
                       for order, node in orders):
                    return True
        return False

    def _last_order(self, node: cst.CSTNode) -> int:
        last = node
        while True:
            kids = list(children(last))
            if not kids:
                return self.order.get(id(last), self.order[id(node)])
            last = kids[-1]

    def under_layout_test(self, statement: cst.CSTNode, code) -> bool:
        """The statement runs under `if t.is_contiguous(memory_format=...)` (or another test of strides): the code
        knows the layout better than the analysis does."""
        for ancestor in self.ancestors(statement):
            if type(ancestor) is cst.If and any(word in code(ancestor.test) for word in LAYOUT_TESTS):
                return True
        return False


def _sides(common: cst.CSTNode, statement_side: cst.CSTNode, read_side: cst.CSTNode) -> Reach:
    """The binding and the read are in different children of `common`."""
    kind = type(common)
    if kind is cst.If or kind is cst.IfExp:
        if statement_side is common.test:
            return "always"
        return "never" if read_side is not common.test else "always"
    if kind is cst.Match:
        return "never" if isinstance(statement_side, cst.MatchCase) else "always"
    if kind in (cst.Try, cst.TryStar):
        if statement_side is common.body:
            return "maybe"
        if isinstance(statement_side, cst.Finally):
            return "always"
        return "maybe" if isinstance(read_side, cst.Finally) else "never"
    if kind in _LOOPS and read_side is getattr(common, "orelse", None):
        return "maybe"
    return "always"


def _names(target: cst.BaseExpression) -> list[str]:
    kind = type(target)
    if kind is cst.Name:
        return [target.value]
    if kind is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        return ["self." + target.attr.value]
    if kind in (cst.Tuple, cst.List):
        return [name for element in target.elements for name in _names(element.value)]
    if kind is cst.StarredElement:
        return _names(target.value)
    return []
