"""Which bindings of a name may reach a read: the facts that keep an analysis from trusting a binding made in one
branch of an `if` when the read is in the other, or after a loop that may not run.

The engine binds names in source order (`ctx.binding` gives the latest binding before a point). That is the value
read only when the binding certainly ran and nothing rebinds the name in between: a binding in the `else` branch
never reaches a read in the `if` branch; a binding under a condition, a loop or a `try` may or may not; a read
inside a loop may see a binding made later in the loop body, on the previous iteration.

Everything is answered from paths (the nodes from the module down to a node) that the engine's own traversal
already holds: each binding keeps the path of its statement (`Binding.path`) and a read's path is the traversal's
`ctx.ancestors`. Only the look-ahead question, which names a loop body assigns after a read, walks the tree, once
per loop asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import libcst as cst

from shapecheck.engine.walker import children

Reach = Literal["always", "maybe", "never"]
Path = Sequence[cst.CSTNode]  # from the module down to the node itself

# Exact node types, tested per node of a path: a set lookup where isinstance would walk the classes' MROs.
_CONDITIONAL_TYPES = frozenset({cst.If, cst.Else, cst.For, cst.While, cst.Try, cst.TryStar, cst.ExceptHandler,
                                cst.ExceptStarHandler, cst.Match, cst.MatchCase, cst.IfExp, cst.BooleanOperation,
                                cst.Finally})
_LOOP_TYPES = frozenset({cst.For, cst.While})
# The nodes whose parts exclude each other: `reach` answers "never" only where the paths part at one of them.
_BRANCHING_TYPES = frozenset({cst.If, cst.IfExp, cst.Match, cst.Try, cst.TryStar})
_SCOPE_TYPES = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})
# Expressions that may leave a part of them unrun, or run it later or more than once.
_PARTIAL_EXPRESSIONS = frozenset({cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
                                  cst.GeneratorExp})
LAYOUT_TESTS = ("is_contiguous", "stride", "memory_format")


def inside(path: Path, root: cst.CSTNode) -> int | None:
    """Where `root` is in `path`, when the path's node is in root's own body (a nested function's or class's body
    is not; the nested `def` statement itself is); else None."""
    for index, node in enumerate(path):
        if node is root:
            for between in path[index + 1:-1]:
                if type(between) in _SCOPE_TYPES:
                    return None
            return index
    return None


def branched(statement: Path) -> bool:
    """Whether a branch of an `if`, `match`, `try` or conditional expression holds the last node of `statement`:
    only such a binding can be one that a read "never" sees (see `reach`)."""
    return any(type(node) in _BRANCHING_TYPES for node in statement[:-1])


def unconditional(statement: Path) -> bool:
    """Whether the last node of `statement` runs whenever the code around it does: no branch, loop or `try` holds
    it. What `reach` answers for a read that is nowhere (a rule's `finish()`, after the traversal)."""
    return not any(type(node) in _CONDITIONAL_TYPES for node in statement[:-1])


def reach(statement: Path, read: Path, root: cst.CSTNode | None = None) -> Reach:
    """Whether a binding made by the last node of `statement` is certainly, maybe or never the value seen at the
    last node of `read`. With a `root`, a read outside root's own body counts as "always": what happens outside
    the function is not this question's to weigh; a binding outside it (`self.w` set in `__init__` and read in
    `forward`, a name of the function around a closure) is weighed by its own branches only."""
    if root is not None:  # the paths may start at different nodes (a function's analysis reads from its `def`)
        mine, theirs = inside(statement, root), inside(read, root)
        if theirs is None:
            return "always"
        if mine is None:
            return _reach_from_outside(statement, read)
        statement, read = statement[mine:], read[theirs:]
    common = 0
    for mine, theirs in zip(statement, read):
        if mine is not theirs:
            break
        common += 1
    if common == 0 or common == len(statement):
        return "always"  # the statement is the read or holds it (`x = f(x)`, a `for` around its body)
    statement_side = statement[common]
    if common < len(read):
        verdict = _sides(statement[common - 1], statement_side, read[common])
        if verdict != "always":
            return verdict
    for node in statement[common:-1]:
        if type(node) in _CONDITIONAL_TYPES:
            return "maybe"
    return "always"


def _reach_from_outside(statement: Path, read: Path) -> Reach:
    """A binding made outside the function being read: where both paths start at the module, the branches around
    both decide (the `if` around a closure's `def` and its name's binding is no condition between them); else the
    binding is the value read for certain only where nothing in its own function makes it conditional: of
    `if flag: self.w = ones(3) else: self.w = ones(2)` in `__init__`, neither is what `forward` certainly reads."""
    if statement and read and statement[0] is read[0]:
        return reach(statement, read)
    own = max((index for index, node in enumerate(statement[:-1]) if type(node) in _SCOPE_TYPES), default=-1)
    return "always" if unconditional(statement[own + 1:]) else "maybe"


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
    if kind in _LOOP_TYPES and read_side is getattr(common, "orelse", None):
        return "maybe"
    return "always"


def runs_whenever(path: Path) -> bool:
    """The path's last node runs every time its first one does, each time to the end: between them lie only
    statements that run whole (blocks, statement lines, `with` statements and their items) and expressions that
    evaluate all their parts. No `if`, loop, `try`, `match` or definition, no conditional expression, `and`/`or`,
    lambda or comprehension: each may skip the node, run it elsewhere, or run it more than once."""
    return not any(type(node) in _PARTIAL_EXPRESSIONS
                   or isinstance(node, cst.BaseCompoundStatement) and type(node) is not cst.With
                   for node in path[1:-1])


def path_to(root: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `node`, both included; None when `node` is not in `root`'s subtree."""
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        current = stack.pop()
        if current is node:
            path = [current]
            while current is not root:
                current = parents[id(current)]
                path.append(current)
            path.reverse()
            return path
        for child in children(current):
            parents[id(child)] = current
            stack.append(child)
    return None


def under_layout_test(statement: Path, root: cst.CSTNode, code: Callable[[cst.CSTNode], str]) -> bool:
    """The statement runs, within root's body, under `if t.is_contiguous(memory_format=...)` (or another test of
    strides): the code knows the layout better than the analysis does."""
    start = inside(statement, root)
    if start is None:
        return False
    return any(type(node) is cst.If and any(word in code(node.test) for word in LAYOUT_TESTS)
               for node in statement[start + 1:-1])


class LoopAssignments:
    """Which names each loop body assigns, found by walking a loop the first time it is asked about."""

    def __init__(self) -> None:
        # id(loop) -> name -> (the node that assigns it, the statement the engine binds it with)
        self._loops: dict[int, dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]]] = {}

    def rebound(self, name: str, read: Path, root: cst.CSTNode, bound_before: Callable[[cst.CSTNode], bool]) -> bool:
        """A loop around the read (within root's body) assigns `name` after it, or in the statement the read is
        part of (`x = x.unsqueeze(0)`): on the next iteration the read sees that value. `bound_before(statement)`
        says whether the engine had made the statement's bindings by the time of the read."""
        if _LOOP_TYPES.isdisjoint(map(type, read)):  # most reads: no loop around them at all
            return False
        start = inside(read, root)
        if start is None:
            return False
        last = read[-1]
        loops = [node for node in read[start + 1:] if type(node) in _LOOP_TYPES]
        # a `for` whose target is the name binds it afresh before each pass of its body: neither it nor a loop
        # around it carries a value into the read (`for x, y in loader: x = x.reshape(-1, 784)`)
        fresh = [i for i, loop in enumerate(loops) if type(loop) is cst.For and name in _names(loop.target)
                 and _in_loop_body(loop, read)]
        for loop in loops[fresh[-1] + 1 if fresh else 0:]:
            for node, statement in self._assigned(loop).get(name, ()):
                if node is last or not bound_before(statement):
                    return True
                if any(node is outer for outer in read) and not _in_loop_body(node, read):
                    return True
        return False

    def _assigned(self, loop: cst.CSTNode) -> dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]]:
        found = self._loops.get(id(loop))
        if found is None:
            found = self._loops[id(loop)] = {}
            stack = list(children(loop))
            while stack:
                node = stack.pop()
                if type(node) in _SCOPE_TYPES:
                    continue  # its body is another function's
                _note(node, found)
                stack.extend(children(node))
        return found


def _in_loop_body(node: cst.CSTNode, read: Path) -> bool:
    """The read is in the body of `node`, a `for` around it: the loop binds its target afresh before each pass of
    the body, so a loop around that one carries no other value into the read."""
    if type(node) is not cst.For:
        return False
    index = next(i for i, outer in enumerate(read) if outer is node)
    return index + 1 < len(read) and read[index + 1] is node.body


def _note(node: cst.CSTNode, found: dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]]) -> None:
    kind = type(node)
    targets: list[cst.BaseExpression] = []
    if kind is cst.Assign:
        targets = [target.target for target in node.targets]
    elif kind is cst.AugAssign or kind is cst.NamedExpr or kind is cst.For or (
            kind is cst.AnnAssign and node.value is not None):
        targets = [node.target]
    elif kind is cst.With:
        # bound with the `with` statement, but read in its body: the item, not the statement, is where it happens
        for item in node.items:
            if item.asname is not None:
                for name in _names(item.asname.name):
                    found.setdefault(name, []).append((item, node))
        return
    for target in targets:
        for name in _names(target):
            found.setdefault(name, []).append((node, node))


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
