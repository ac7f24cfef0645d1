"""Which fields of a libcst node hold child nodes worth visiting, computed once per node class.

libcst's own `visit` rebuilds every node on the way up and `MetadataWrapper` deep-copies the module; both cost
several times the parse. Reading the dataclass fields directly costs a fraction of it. Whitespace, parentheses,
commas and operator tokens are skipped: no rule looks inside them (rules read `node.operator` directly).
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import typing
from collections.abc import Iterator
from contextlib import contextmanager

import libcst as cst

# Tokens no rule needs to visit: whitespace, comments, brackets, commas and operator tokens (rules read
# `node.operator` directly).
_TOKEN_MODULES = ("libcst._nodes.whitespace", "libcst._nodes.op")
_TOKEN_CLASSES = ("LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket", "LeftCurlyBrace",
                  "RightCurlyBrace", "Asynchronous")


def _node_classes(annotation: object) -> Iterator[type]:
    """The CST node classes a field annotation admits (`Optional[Sequence[Arg]]` -> Arg)."""
    if isinstance(annotation, typing.ForwardRef):
        annotation = getattr(cst, annotation.__forward_arg__, None)
    if isinstance(annotation, type):
        # A set lookup: `issubclass` on libcst's abstract node classes goes through the ABC machinery, thousands of
        # checks the first time each node class is met (every time, for a one-file run).
        if annotation in NODE_TYPES or annotation is cst.CSTNode:
            yield annotation
        return
    for argument in typing.get_args(annotation):
        yield from _node_classes(argument)


def _is_token(cls: type) -> bool:
    return cls.__module__ in _TOKEN_MODULES or cls.__name__ in _TOKEN_CLASSES


# Fields are visited in source order, which is what makes "the latest binding before this use" mean what it says.
# libcst declares a few of them out of source order; these are the ones whose order matters for bindings.
_ORDER = {
    "ListComp": ("for_in", "elt"),
    "SetComp": ("for_in", "elt"),
    "GeneratorExp": ("for_in", "elt"),
    "DictComp": ("for_in", "key", "value"),
    "FunctionDef": ("decorators", "name", "type_parameters", "params", "returns", "body"),
    "ClassDef": ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    "IfExp": ("test", "body", "orelse"),
}

_TABLE: dict[type, tuple[str, ...]] = {}


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


# Every CST node class: a set lookup on the exact type, where `isinstance(x, cst.CSTNode)` goes through the ABC
# machinery on every child of every node. Fields that admit a node may otherwise hold None or a MaybeSentinel.
NODE_TYPES = frozenset(_subclasses(cst.CSTNode))


def child_fields(cls: type) -> tuple[str, ...]:
    fields = _TABLE.get(cls)
    if fields is None:
        fields = tuple(f.name for f in dataclasses.fields(cls)
                       if any(not _is_token(node_class) for node_class in _node_classes(f.type)))
        order = _ORDER.get(cls.__name__)
        if order is not None:
            fields = tuple(name for name in order if name in fields) + tuple(f for f in fields if f not in order)
        _TABLE[cls] = fields
    return fields


class _Caching(threading.local):
    # While a file is analysed (`caching`): id(node) -> (node, its children). The analyses walk the same functions
    # again and again (four walks in five are repeats); the node is kept with its entry so that its id can't be
    # reused. Per thread: the editor server's threads lint files of their own.
    cache: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] | None = None
    # An earlier analysis's cache, whose nodes this one may share (`carried`)
    previous: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] | None = None
    # While a file is analysed: (id(node), closed, hidden) -> (node, its `walk_pruned`). The same bodies are walked
    # whole again and again too (each module fact walks every statement, each question about a function its body),
    # and reading a list costs a tenth of walking the tree again.
    walks: dict[tuple[int, frozenset[type], frozenset[type]], tuple[cst.CSTNode, list[cst.CSTNode]]] | None = None


_caching = _Caching()


@contextmanager
def caching() -> Iterator[None]:
    """Remember each node's children and each walk until the analysis ends (nodes are immutable, so an answer
    never goes stale; it is only memory)."""
    if _caching.cache is not None:  # already under way in this thread
        yield
        return
    _caching.cache, _caching.walks = {}, {}
    try:
        yield
    finally:
        _caching.cache = _caching.walks = None


@contextmanager
def carried(previous: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]]
            ) -> Iterator[dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]]]:
    """Under `caching`: the children of the nodes that `previous` (the cache an earlier analysis made, which this one
    yields in turn) holds are taken from it, not found again. The editor server's lints of one document share every
    node an edit did not replace; what is not asked again is dropped with `previous`."""
    assert _caching.cache is not None
    _caching.previous = previous
    try:
        yield _caching.cache
    finally:
        _caching.previous = None


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's direct children that rules can see, in source order. A list, not a generator: the analyses walk
    every node of the functions they read, and resuming a generator per child costs more than the list. Callers
    must not change it (see `caching`)."""
    cache = _caching.cache
    if cache is not None:
        cached = cache.get(id(node))
        if cached is not None:
            return cached[1]
        previous = _caching.previous
        if previous is not None:
            cached = previous.get(id(node))
            if cached is not None and cached[0] is node:
                cache[id(node)] = cached
                return cached[1]
    found = []
    cls = type(node)
    fields = _TABLE.get(cls)
    if fields is None:  # not `or`: a leaf's fields are an empty tuple
        fields = child_fields(cls)
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            for item in value:
                if type(item) in NODE_TYPES:
                    found.append(item)
        elif kind in NODE_TYPES:
            found.append(value)
    if cache is not None:
        cache[id(node)] = (node, found)
    return found


def parent_map(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """Each node under `root` (by id) -> its parent: libcst nodes keep none, and what holds a value is read
    upwards from it."""
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The node and all its descendants, pre-order, iteratively (a thousand nested parentheses must not overflow)."""
    return walk_pruned(node, _NOTHING, _NOTHING)


_NOTHING: frozenset[type] = frozenset()


def walk_pruned(node: cst.CSTNode, closed: frozenset[type], hidden: frozenset[type]) -> Iterator[cst.CSTNode]:
    """`node` and its descendants, pre-order, but for the descendants of a `closed` node (which is yielded) and
    a `hidden` node with its descendants (`node` itself is always yielded and entered)."""
    return iter(walked_pruned(node, closed, hidden))


def walked(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`walk`'s nodes as a list: while a file is analysed, the one kept for every walk of `node` (not to be
    changed), so a holder of walks of its own (`Context.walk`) shares it instead of copying it."""
    return walked_pruned(node, _NOTHING, _NOTHING)


def walked_pruned(node: cst.CSTNode, closed: frozenset[type], hidden: frozenset[type]) -> list[cst.CSTNode]:
    """`walk_pruned`'s nodes as a list, kept while a file is analysed (not to be changed)."""
    walks = _caching.walks
    if walks is None:
        return _walked(node, closed, hidden)
    key = (id(node), closed, hidden)
    found = walks.get(key)
    if found is None:
        found = walks[key] = (node, _walked(node, closed, hidden))  # the node, so its id stays its own
    return found[1]


def _walked(node: cst.CSTNode, closed: frozenset[type], hidden: frozenset[type]) -> list[cst.CSTNode]:
    # `children`'s cache lookup inlined, and leaves (half the nodes) never extend the stack: a call per node is a
    # fifth of a walk. A subtree walked before with the same pruning is that walk's nodes, in the same order, taken
    # whole: the analyses walk an expression or a block, then the statement or function around it (between a third
    # and a half of the nodes of a lint's walks).
    cache = _caching.cache
    walks = _caching.walks
    found_nodes = [node]
    append = found_nodes.append
    stack = [node]
    pop = stack.pop
    extend = stack.extend
    while stack:
        current = pop()
        kind = type(current)
        if current is not node:
            if kind in hidden:
                continue
            append(current)
            if kind in closed:
                continue
        cached = cache.get(id(current)) if cache is not None else None
        found = cached[1] if cached is not None else children(current)
        if found:
            # asked of inner nodes only: a leaf's walk is itself (`node`'s own walk is never there yet)
            walked_before = walks.get((id(current), closed, hidden)) if walks is not None else None
            if walked_before is None:
                extend(reversed(found))
            else:  # its node is kept alive with it, so the id is this node's
                found_nodes.extend(walked_before[1][1:])
    return found_nodes


def walk_statements(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and the statements under it (with the blocks, clauses and headers holding them), never entering an
    expression or a simple statement line: no statement is ever inside one, so a search for `if`s, loops or classes
    need not walk the four nodes in five that are in one."""
    return walk_pruned(node, _LINES, _expressions())


_LINES = frozenset({cst.SimpleStatementLine, cst.SimpleStatementSuite})


@functools.cache
def _expressions() -> frozenset[type]:
    """Every expression and small statement class, read from each class's MRO: `issubclass` on libcst's abstract
    classes goes through the ABC machinery, some 39,000 checks and a tenth of a second of every process's start."""
    return frozenset(cls for cls in NODE_TYPES
                     if cst.BaseExpression in cls.__mro__ or cst.BaseSmallStatement in cls.__mro__)
