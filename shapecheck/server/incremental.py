"""One open document's analysis between edits: only what an edit changed is parsed and analysed again, and the
findings are always those `shapecheck lint` gives on the same text.

Parsing: `source.reparse` parses again only the top-level statements the edit touched; the others keep their nodes
(the same objects, so "unchanged" is a test of identity).

Analysis: the engine's bookkeeping (bindings, calls, loops, grad mode) and the rules whose `scope` is "file" (the
training-loop rules, anything with a `finish`) run over the whole file on every edit, as in `shapecheck lint`; the
walks (`Context.walk`) and the code (`Context.code`) the latest lint made of nodes the edit kept are carried over, as
a node never changes. A rule whose `scope` is "statement" (the shape rules among them, the costliest) promises that
what it reports inside a top-level statement depends only on that statement and on what the analysis reads of the
module around it. So the traversal records, while it visits each top-level statement, everything it reads of the
module: the module-level bindings of each name it looks up (a lookup answered by a local binding never gets there),
the module's `a, b = x.shape` unpackings, every module-level name at once (spelling a fix with the file's imports),
the file's functions of each name it asks for (`Context.functions`, the definitions so far: a factory's return), the
functions of each name it follows a call into wherever they are defined (`Context.functions_by_name`: a call of a
function defined after the caller), the whole module (a walk of it), and the module facts (`Context.module_fact`: what
anything in the module changes in place), whose values it records. On the next edit a top-level statement keeps its
statement-scope findings, and those rules are not run there, when the statement is the same node and what it read is
the same: the same statements, in the same order, bind each name it looked up before it, each module fact it read has
the same value (worked out from each statement's part, kept between edits), and so on. Everything else is analysed
again. A statement-scope rule with a `finish` (see `Rule.gathered`) has its visits kept the same way, with what they
gathered there for the `finish`: a kept statement hands its part back to the rule's lists, and only the `finish` runs
over the whole file. A part of a `finish` (`Context.finish_part`) is kept the same way: what it reads of the module is
recorded as a statement's reads are, and what it is handed (the whole-file facts it needs) must be the same.

Walking: the statements before the first one an edit replaced are not walked when the latest edits were there too. The
first edit of a statement copies the traversal's state before it (the context's bindings, calls, scopes and functions,
the training-loop record, the file-scope rules' state: `_Checkpoint`); the next edit that keeps every statement before
it starts from a copy of that state instead of walking them, as the whole-file traversal would make the same state
from the same statements in the same order. That holds while what the visits there read is the same: each statement's
findings are kept (its recorded reads find the same), the module facts the file-scope visitors read there have the
same values, nothing there read the whole module (a walk of it) or a function by name that the edit defines or removed
(`Context.functions_by_name`), and no file read has changed. A checkpoint copies containers, records that hold what
the copy maps, and shares what never changes (nodes, bindings, calls, events, reports, the scopes the traversal has
left); one whose state holds anything else is not made.

Memos make this exact only if a statement's analysis reads for itself everything its answer depends on, so the
shape analysis and the qualified-name memo start afresh at each top-level statement analysed again (they are pure
caches; the answers are the same). A crash of a rule or of the shape analysis, which `shapecheck lint` reports at
the first place it happens, sends the document through a whole-file traversal instead, as does a change of the rules
that apply, of the file name or of how the file gets torch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from operator import is_, is_not

import libcst as cst

from shapecheck.engine import dependencies, walker
from shapecheck.engine.bindings import traverse
from shapecheck.engine.compile_check import Verdict
from shapecheck.engine.context import (
    Binding, CallSite, Context, DefinedFunctions, Point, Scope, defined_functions, functions_by_name,
)
from shapecheck.engine.rule import Report
from shapecheck.engine.source import ParsedSource, parse_source, reparse
from shapecheck.engine.traversal import Bookkeeping, Traversal
from shapecheck.engine.walker import NODE_TYPES, children, walk
from shapecheck.loops.training_loop import Event
from shapecheck.server.verdict import DocumentVerdicts

# Reads of more than one name's bindings, recorded as markers among the names.
_EVERY_NAME = "<every module-level name>"  # iterating over the module's bindings
_UNPACKINGS = "<the module's unpackings>"
_WHOLE_MODULE = "<the whole module>"  # walking the module
_FACT = "<the module fact> "  # followed by its kind: reading a `Context.module_fact`, a value
_FUNCTIONS = "<the functions named> "  # followed by the name: reading `Context.functions` so far
_EVERY_FUNCTION = "<every function>"  # iterating over `Context.functions`
# followed by the name: looking it up in `Context.functions_by_name`, which any statement, before or after the
# reader, may answer
_FUNCTION_NAMED = "<the module's function named> "
_EVERY_FUNCTION_NAMED = "<every function of the module by name>"  # iterating over `Context.functions_by_name`
# The reads whose answers depend on every statement before the reader, or on every statement
_WHOLE = frozenset({_EVERY_NAME, _EVERY_FUNCTION, _WHOLE_MODULE, _EVERY_FUNCTION_NAMED})


class _Reads:
    """What a statement's analysis has read of the module so far; None while no statement is being recorded."""

    def __init__(self) -> None:
        self.current: dict[str, None] | None = None  # an ordered set

    def add(self, name: str) -> None:
        if self.current is not None:
            self.current[name] = None


class _Noted:
    """Reads noted through the traversal (`_Traversal._note`): those made outside any statement's recording are
    the reads the state a checkpoint copies depends on."""

    def __init__(self, note: Callable[[str], None]) -> None:
        self.add = note


class _Recorded(dict):
    """A mapping of the module the analysis reads (name -> ...), noting the names looked up (`prefix` + name) and
    an iteration over them all (`every`)."""

    def __init__(self, items: dict, reads: _Reads | _Noted, prefix: str, every: str) -> None:
        super().__init__(items)
        self.reads = reads
        self.prefix = prefix
        self.every = every

    def get(self, name, default=None):
        self.reads.add(self.prefix + name)
        return super().get(name, default)

    def __getitem__(self, name):
        self.reads.add(self.prefix + name)
        return super().__getitem__(name)

    def __contains__(self, name):
        self.reads.add(self.prefix + name)
        return super().__contains__(name)

    def __iter__(self):
        self.reads.add(self.every)
        return super().__iter__()

    def keys(self):
        self.reads.add(self.every)
        return super().keys()

    def values(self):
        self.reads.add(self.every)
        return super().values()

    def items(self):
        self.reads.add(self.every)
        return super().items()


class _Functions(_Recorded):
    """The file's functions so far (name -> [FunctionDef]), noting the names looked up, and the top-level statement
    each definition is in (which the traversal is visiting when the bookkeeping adds it)."""

    def __init__(self, functions: dict[str, list[cst.FunctionDef]], reads: _Reads) -> None:
        super().__init__(functions, reads, _FUNCTIONS, _EVERY_FUNCTION)
        self.statement: cst.CSTNode | None = None  # the top-level statement being visited
        self.statements: dict[int, cst.CSTNode | None] = {}  # id(FunctionDef) -> its top-level statement

    def setdefault(self, name, default=None):  # the bookkeeping adding a definition: no read
        found = dict.get(self, name)  # a list made only for a new name: the bookkeeping asks at every `def`
        return found if found is not None else dict.setdefault(self, name, _Definitions(self))


class _Definitions(list):
    """The definitions of one name, noting the top-level statement of each as the bookkeeping adds it."""

    def __init__(self, functions: _Functions) -> None:
        super().__init__()
        self.functions = functions

    def append(self, node) -> None:
        self.functions.statements[id(node)] = self.functions.statement
        super().append(node)


class _Unpackings(list):
    """The module scope's unpackings, noting that they were read."""

    def __init__(self, unpackings: list[Binding], reads: _Reads) -> None:
        super().__init__(unpackings)
        self.reads = reads

    def __iter__(self):
        self.reads.add(_UNPACKINGS)
        return super().__iter__()

    def __getitem__(self, index):
        self.reads.add(_UNPACKINGS)
        return super().__getitem__(index)


_Parts = dict[int, tuple[cst.CSTNode, frozenset]]  # id(top-level statement) -> (the statement, its part of a fact)


@dataclass(frozen=True, eq=False)
class _Kept:
    """The statement-scope findings inside one top-level statement, and what they were worked out from."""

    statement: cst.CSTNode
    reads: tuple[str, ...]  # names looked up in the module, and the markers above
    seen: tuple[cst.CSTNode | frozenset | None, ...]  # what those reads found (`_Traversal._seen`)
    facts: tuple[tuple[str, frozenset], ...]  # the module facts it read, with their values then
    rules: tuple[type, ...]  # the statement-scope rules that ran there
    reports: tuple[Report, ...]
    # what their visits there appended to their gathered lists: (the list's place among them, the items), for the
    # lists they appended to
    parts: tuple[tuple[int, tuple[object, ...]], ...]
    files: frozenset[str]  # the other files its analysis read (`engine.dependencies`)
    # `reads` as a set: every kept statement is asked whether it read what an edit changed
    read_set: frozenset[str]


@dataclass(frozen=True, eq=False)
class _Finished:
    """A part of a rule's `finish` (`Context.finish_part`), and what it was worked out from."""

    given: tuple[object, ...]
    reads: tuple[str, ...]  # as a kept statement's
    seen: tuple[cst.CSTNode | frozenset | None, ...]
    facts: tuple[tuple[str, frozenset], ...]
    reports: tuple[Report, ...]
    result: object
    files: frozenset[str]
    read_set: frozenset[str]


@dataclass(frozen=True, eq=False)
class _Checkpoint:
    """The traversal's state just before a top-level statement (the first one an edit replaced), copied, with what
    it was worked out from: the next edit that keeps the statements before it resumes from here instead of
    walking them (`_Traversal._resume`)."""

    statements: tuple[cst.CSTNode, ...]  # the top-level statements before it
    kept: tuple[_Kept, ...]  # theirs
    # the module facts and the whole-module reads of the visits no statement's reads hold (the file-scope visitors'
    # in kept statements), with the facts' values then
    reads: frozenset[str]
    facts: tuple[tuple[str, frozenset], ...]
    files: frozenset[str]  # the other files read so far (`engine.dependencies`)
    # what the context, its module and each visitor are in the copies: the next lint's take their places
    placeholders: tuple[object, ...]
    context: dict[str, object]  # the context's state, less its module scope and its functions
    scope: Scope  # the module scope, which the scopes of the functions and classes before it have for parent
    bindings: dict[str, list[Binding]]  # its bindings then, and its unpackings
    unpackings: list[Binding]
    functions: dict[str, list[cst.FunctionDef]]
    function_statements: dict[int, cst.CSTNode | None]  # `_Functions.statements`
    # the state of each file-scope visitor, in the traversal's order (None for a statement-scope one: it keeps
    # none but what it gathers, which the statements' kept parts give back)
    visitors: tuple[dict[str, object] | None, ...]


# What the traversal keeps in the context apart from its state: the module, the memos (pure caches, the next lint
# has its own) and the server's own methods.
_NOT_STATE = frozenset({"module", "filename", "ancestors", "_analyses", "_code", "_walked", "_qualnames", "_facts",
                        "walk", "code", "module_fact", "finish_part", "functions_by_name", "functions", "_scope",
                        "_frame", "_within", "_within_indexed", "_loop_assignments"})
# The types of the values a copy of the state shares: immutable, and holding nothing the copy maps (names,
# numbers, records compared by value); the node types join as they are met, the module apart (the copy maps it).
# Scopes too: a function's or a class's no longer changes once the traversal has left it, and the module scope is
# one object from the checkpoint on (`_Traversal._resume`), as are the points that hold them.
_SHARED: set[type] = {int, float, str, bool, type(None), bytes, frozenset, Binding, CallSite, Report, Event, Scope,
                      Point}


class _Placeholder:
    """Where a checkpoint's copy of the state refers to the context, the module or a visitor."""

    __slots__ = ()


class _Uncopyable(Exception):
    """The state holds something a checkpoint does not know how to copy: the traversal walks every statement."""


def _copied(value: object, memo: dict[int, tuple[object, object]]) -> object:
    """A copy of the traversal's state `value` that shares what never changes, and maps through `memo` (id(original)
    -> (the original, its copy)) what the copy replaces (the context, the module, the visitors)."""
    kind = type(value)
    if kind in _SHARED:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found[1]
    if kind is tuple:  # the same tuple where it holds nothing the copy changes, as most do (nodes, events)
        items = [item if type(item) in _SHARED else _copied(item, memo) for item in value]  # type: ignore[attr-defined]
        if all(map(is_, items, value)):  # type: ignore[call-overload]
            return value
        copy: object = tuple(items)
    elif isinstance(value, dict):
        copy = {}
        for key, item in dict.items(value):
            copy[key] = item if type(item) in _SHARED else _copied(item, memo)  # type: ignore[index]
    elif isinstance(value, list):
        copy = [item if type(item) in _SHARED else _copied(item, memo) for item in list.__iter__(value)]
    elif kind is set:
        copy = set(value)  # type: ignore[call-overload]
    elif issubclass(kind, cst.CSTNode) and kind is not cst.Module:
        _SHARED.add(kind)
        return value
    elif kind.__module__.startswith("shapecheck.") and hasattr(kind, "__dataclass_fields__"):  # a record
        fields = {name: getattr(value, name) for name in kind.__dataclass_fields__}  # type: ignore[attr-defined]
        mapped = {name: _copied(field, memo) for name, field in fields.items()}
        if all(mapped[name] is field for name, field in fields.items()):
            return value
        copy = object.__new__(kind)
        for name, field in mapped.items():
            object.__setattr__(copy, name, field)
    else:
        raise _Uncopyable(kind.__name__)
    memo[id(value)] = (value, copy)
    return copy


class Incremental:
    """The `Analysis` (see `shapecheck.engine.linter`) of one document, kept between its lints."""

    def __init__(self) -> None:
        self._source: ParsedSource | None = None
        self.verdicts = DocumentVerdicts()  # the compiler's, from the statements each edit replaced
        self._kept: dict[int, _Kept] = {}  # id(top-level statement) -> its kept findings
        self._finished: dict[tuple[object, ...], _Finished] = {}  # the parts of `finish`es, by their key
        self._setting: tuple[object, ...] | None = None  # what everything kept was worked out under
        # id(top-level statement) -> (the statement, its nodes as `walk` gives them): a walk of the whole module,
        # which the shape analysis makes at module level, joins these instead of walking again
        self._walks: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
        self._body: Sequence[cst.CSTNode] = ()  # the top-level statements the latest traversal went through
        # The walks the latest lint's rules and analyses made (`Context.walk`), for the next one: the nodes an edit
        # did not replace are the same, and so are their walks
        self._walked_by_rules: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
        # Likewise the code of the nodes `Context.code` spelled, for the rules and the findings' fixes: id(node) ->
        # the node, and id(node) -> its code
        self._code: tuple[dict[int, cst.CSTNode], dict[int, str]] = ({}, {})
        # `Context.module_fact`s: kind -> how a statement's part is found, and each statement's part
        self._facts: dict[str, tuple[Callable[[cst.CSTNode], frozenset], _Parts]] = {}
        # kind -> the top-level statements of the latest lint that asked, and the union of their parts: a union of
        # the same value is the same object, so a kept statement's fact compares by identity
        self._unions: dict[str, tuple[Sequence[cst.CSTNode], frozenset]] = {}
        # id(top-level statement) -> the reads its module-level bindings, unpackings and functions answer, as the
        # latest traversal made them (see `_Traversal._unchanged_reads`)
        self._bound: dict[int, set[str]] = {}
        # The children of the nodes the latest traversal's analyses walked (`walker.carried`)
        self._children: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
        self.reused = 0  # top-level statements whose statement-scope findings the latest lint kept
        self.resumed = 0  # top-level statements before the checkpoint the latest lint resumed from (not walked)
        # The other files the latest analysis read (a first-party model), and what they were then
        self._read: set[str] = set()
        self._stamps: tuple[tuple[str, int, int], ...] = ()
        # The state before the first statement the latest edits replaced (see `_Traversal._resume`)
        self._checkpoint: _Checkpoint | None = None
        # id(top-level statement) -> (it, what it adds to `Context.functions_by_name`), found once per statement
        self._defined: dict[int, tuple[cst.CSTNode, DefinedFunctions]] = {}

    def parse(self, text: str) -> ParsedSource:
        previous = self._source
        self._source = parse_source(text) if previous is None else reparse(previous, text)
        return self._source

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None]) -> Verdict:
        return self.verdicts.judge(text, filename, tree, lambda: self._source)

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal | None:
        implicit = bool(ctx._scope.bindings)  # torch bound by the context itself, before any statement
        setting = (ctx.filename, implicit, tuple(type(visitor) for visitor in visitors))
        if setting != self._setting:
            self._kept.clear()
            self._finished.clear()
            self._checkpoint = None
            self._setting = setting
        if self._read and dependencies.stamps(self._read) != self._stamps:
            # A file the analysis read changed on disk: what this process remembers of it and every kept finding
            # may be stale.
            dependencies.forget()
            self._kept.clear()
            self._finished.clear()
            self._checkpoint = None
        with dependencies.collecting() as read, walker.carried(self._children) as children:
            traversal = traverse(ctx, visitors, partial(_Traversal, memory=self))
        self._children = children
        self._read, self._stamps = read, dependencies.stamps(read)
        self._walked_by_rules = ctx._walked
        self._code = (traversal.spelled, ctx._code)  # the linter goes on spelling fixes there
        assert isinstance(traversal, _Traversal)
        if traversal.crashes or traversal.analysis_errors:
            # `shapecheck lint` reports the first crash where it happens, with everything the file's analysis has
            # seen up to there: only the whole-file traversal gives the same.
            self._kept, self._finished, self.reused, self.resumed, self._checkpoint = {}, {}, 0, 0, None
            return None
        self._kept, self._finished, self.reused = traversal.kept, traversal.finished, traversal.reused
        self.resumed = traversal._resumed
        self._checkpoint = traversal.checkpoint
        self._body = ctx.module.body
        self._bound = traversal.bound()
        return traversal


class _Traversal(Traversal):
    """The engine's traversal, recording what each top-level statement reads of the module, and leaving the
    statement-scope rules out of the statements whose findings are kept."""

    def __init__(self, module: cst.Module, visitors: list[object], ctx: Context, enter: dict[type, Bookkeeping],
                 leave: dict[type, Bookkeeping], ancestors: list[cst.CSTNode], memory: Incremental) -> None:
        super().__init__(module, visitors, ctx, enter, leave, ancestors)
        self.ctx = ctx
        self.memory = memory
        self.previous = memory._kept
        self.kept: dict[int, _Kept] = {}
        self.finished: dict[tuple[object, ...], _Finished] = {}
        self.reused = 0
        self.analysis_errors = False
        self._body = module.body
        self._order = {id(statement): k for k, statement in enumerate(self._body)}
        # The statements before the first the edit replaced read what they read in the latest lint (see `_seen`)
        self._same_before = next((k for k, (a, b) in enumerate(zip(self._body, memory._body)) if a is not b),
                                 min(len(self._body), len(memory._body)))
        # The reads whose answers may differ from the latest lint's anywhere after the edit: those the statements
        # it removed answered, and (as the traversal meets them) those the statements it added answer. Both bodies
        # are alive here, so an id names one statement.
        latest = {id(statement) for statement in memory._body}
        self._added = {key for key in self._order if key not in latest}
        self._new = [statement for statement in self._body if id(statement) in self._added]
        self._removed = [statement for statement in memory._body if id(statement) not in self._order]
        self._changed_reads: set[str] = set()
        for statement in self._removed:
            self._changed_reads.update(memory._bound.get(id(statement), ()))
        # `Context.functions_by_name` reads the whole module: the names the statements the edit removed or added
        # define are changed reads from the start, for the statements before them too
        for statement in (*self._removed, *self._new):
            function, inside = self._defined(statement)
            self._changed_reads.update(_FUNCTION_NAMED + node.name.value
                                       for node in (function, *inside) if node is not None)
        # The reads a statement before the edit made that may find what the edit changed, after the statement
        self._later = {_WHOLE_MODULE, _EVERY_FUNCTION_NAMED,
                       *(read for read in self._changed_reads if read.startswith(_FUNCTION_NAMED))}
        self._by_name: _Recorded | None = None  # `Context.functions_by_name`, once asked
        self._definers: dict[str, list[cst.CSTNode]] | None = None  # name -> the top-level statements defining it
        # The recording analyses and the file-scope rules, which see every statement.
        self._file_rules = [visitor for visitor in self.rules if _scope(visitor) == "file"]
        self._live = self._statement_rules()
        # The lists the statement-scope rules gather into for their `finish`, in the order of `_live`
        self._gathering: list[list] = [getattr(rule, name) for rule in self.rules if _scope(rule) == "statement"
                                       for name in rule.gathered]
        self._recorders = {type(visitor) for visitor in self.rules}
        # The handlers of the file-scope rules alone, swapped with the full ones while a statement's are kept.
        self._other: tuple[dict, set[type]] = ({}, set(NODE_TYPES))
        self._reads = _Reads()
        scope = ctx._scope
        # The module scope's bindings (name -> [Binding]), noting the names looked up
        scope.bindings = _Recorded(scope.bindings, self._reads, "", _EVERY_NAME)
        scope.unpackings = _Unpackings(scope.unpackings, self._reads)
        self._functions = ctx.functions = _Functions(ctx.functions, self._reads)  # type: ignore[assignment]
        walk, code = ctx.walk, ctx.code
        walked, before = ctx._walked, memory._walked_by_rules
        spelled, (nodes_before, spelled_before) = ctx._code, memory._code

        def code_kept(node: cst.CSTNode) -> str:
            if id(node) not in spelled:  # spelled by the latest lint, if it spelled the same node
                if nodes_before.get(id(node)) is node:
                    spelled[id(node)] = spelled_before[id(node)]
            spelling = code(node)
            self.spelled[id(node)] = node
            return spelling

        ctx.code = code_kept  # type: ignore[method-assign]
        self.spelled: dict[int, cst.CSTNode] = {}  # id(node) -> the node, for each node `ctx.code` spelled

        def walk_noting_the_module(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
            if node is not ctx.module:
                if id(node) not in walked:  # made by the latest lint, if it walked the same node
                    found = before.get(id(node))
                    if found is not None and found[0] is node:
                        walked[id(node)] = found
                return walk(node)
            self._note(_WHOLE_MODULE)
            return self._walk_module()

        ctx.walk = walk_noting_the_module  # type: ignore[method-assign]
        ctx.module_fact = self._module_fact  # type: ignore[method-assign]
        ctx.finish_part = self._finish_part  # type: ignore[method-assign]
        ctx.functions_by_name = self._functions_by_name  # type: ignore[method-assign]
        self._fact_values: dict[str, frozenset] = {}
        # The module facts and whole-module reads no statement's reads hold: the file-scope visitors' in kept
        # statements, on which the state a checkpoint copies depends
        self._unrecorded: set[str] = set()
        self.checkpoint = memory._checkpoint
        self._resumed = 0  # the top-level statements before this one were resumed from the checkpoint
        # id(a module-level name's bindings) -> (them, the top-level statement of each so far): see `_binders`
        self._statements: dict[int, tuple[list[Binding], list[cst.CSTNode | None]]] = {}

    def _visit_statement(self, node: cst.CSTNode) -> None:
        index = self._order.get(id(node))
        if index is None:  # a comment line before or after the statements
            self._visit(node)
            return
        if index < self._resumed or index == 0 and self._resume():
            return
        if index == self._same_before and index != self._resumed:
            self._snapshot(index)
        ctx = self.ctx
        self._functions.statement = node
        live = self._live
        kept = self.previous.get(id(node))
        if kept is not None and kept.statement is node and kept.rules == live and \
                (index < self._same_before and self._later.isdisjoint(kept.read_set) and self._same_facts(kept.facts) or
                 self._unchanged_reads(kept) or _same(kept.seen, self._seen(kept.reads, index, node))):
            self._swap(self._file_rules)
            try:
                self._visit(node)
            finally:
                self._swap(self.rules)
            ctx.reports.extend(kept.reports)
            gathering = self._gathering
            for place, part in kept.parts:
                gathering[place].extend(part)
            if kept.files:
                dependencies.record_again(kept.files)
            self.kept[id(node)] = kept
            self.reused += 1
            return
        # The memos start afresh where reads are recorded; the file-scope rules' visits of kept statements may share
        # them, as they do in the whole-file lint
        self._fresh_memos()
        start = len(ctx.reports)
        sizes = [len(gathered) for gathered in self._gathering]
        self._reads.current = {}
        try:
            with dependencies.collecting() as files:
                self._visit(node)
        finally:
            reads, self._reads.current = tuple(self._reads.current), None
        reports = tuple(report for report in ctx.reports[start:] if _scope(report.rule) == "statement")
        parts = tuple((place, tuple(gathered[size:]))
                      for place, (gathered, size) in enumerate(zip(self._gathering, sizes)) if len(gathered) > size)
        facts = tuple((read[len(_FACT):], self._fact_values[read[len(_FACT):]]) for read in reads
                      if read.startswith(_FACT))
        self.kept[id(node)] = _Kept(node, reads, self._seen(reads, index, node), facts, live, reports, parts,
                                    frozenset(files), frozenset(reads))
        if id(node) in self._added:
            self._changed_reads.update(self._answered_by(node))

    def _note(self, read: str) -> None:
        self._reads.add(read)
        if self._reads.current is None:
            self._unrecorded.add(read)

    def _defined(self, statement: cst.CSTNode) -> DefinedFunctions:
        found = self.memory._defined.get(id(statement))
        if found is None or found[0] is not statement:
            found = self.memory._defined[id(statement)] = (statement, defined_functions(statement))
        return found[1]

    def _functions_by_name(self) -> dict[str, cst.FunctionDef]:
        """`Context.functions_by_name`, from each top-level statement's functions as found once, noting the names
        looked up (`_FUNCTION_NAMED`): a statement is analysed again when a statement the edit removed or added
        defines a function of a name it looked up, wherever that statement is."""
        if self._by_name is None:
            defined = self.memory._defined
            for key in [key for key in defined if key not in self._order]:
                del defined[key]
            self._by_name = _Recorded(functions_by_name(map(self._defined, self._body)), _Noted(self._note),
                                      _FUNCTION_NAMED, _EVERY_FUNCTION_NAMED)
        return self._by_name

    def _defining(self, name: str) -> list[cst.CSTNode]:
        """The top-level statements that define a function named `name` (at module level or inside a function), in
        order: what `Context.functions_by_name` finds for it depends on them alone."""
        if self._definers is None:
            self._definers = {}
            for statement in self._body:
                function, inside = self._defined(statement)
                for node in (function, *inside) if function is not None else ():
                    found = self._definers.setdefault(node.name.value, [])
                    if not found or found[-1] is not statement:
                        found.append(statement)
        return self._definers.get(name, [])

    def _snapshot(self, index: int) -> None:
        """Copy the state before the `index`-th statement (the first one this edit replaced) into a checkpoint for
        the next edits (see `_resume`); the latest one stays where the state holds what it cannot copy."""
        ctx = self.ctx
        placeholders = [_Placeholder() for _ in range(len(self.rules) + 2)]
        memo: dict[int, tuple[object, object]] = {
            id(original): (original, placeholder)
            for original, placeholder in zip((ctx, ctx.module, *self.rules), placeholders)}
        try:
            context = {key: _copied(value, memo) for key, value in ctx.__dict__.items() if key not in _NOT_STATE}
            visitors = tuple({key: _copied(value, memo) for key, value in visitor.__dict__.items()}
                             if _scope(visitor) == "file" else None for visitor in self.rules)
        except _Uncopyable:
            return
        scope = ctx._scope
        self.checkpoint = _Checkpoint(
            tuple(self._body[:index]), tuple(self.kept[id(statement)] for statement in self._body[:index]),
            frozenset(self._unrecorded),
            tuple((read[len(_FACT):], self._fact_values[read[len(_FACT):]]) for read in self._unrecorded
                  if read.startswith(_FACT)),
            dependencies.collected(), tuple(placeholders), context, scope,
            {name: list(bindings) for name, bindings in dict.items(scope.bindings)}, list(scope.unpackings),
            {name: list(definitions) for name, definitions in dict.items(self._functions)},
            dict(self._functions.statements), visitors)

    def _resume(self) -> bool:
        """Start the traversal from the latest checkpoint when the statements before it are the same nodes and what
        was worked out there is the same: each of them kept its findings (no read of the whole module, its module
        facts of the same value) and the file-scope visitors read no module fact that changed. The traversal is
        the same pass over the same statements in the same order, reading nothing after them, so it would make the
        same state: the checkpoint's is copied into this lint's context and visitors instead of walking them."""
        checkpoint = self.checkpoint
        if checkpoint is None:
            return False
        statements, body = checkpoint.statements, self._body
        live = self._live
        later = self._later
        if len(statements) > len(body) or any(map(is_not, statements, body)) or not later.isdisjoint(checkpoint.reads) \
                or not self._same_facts(checkpoint.facts):
            return False
        for kept in checkpoint.kept:
            if kept.rules != live or not later.isdisjoint(kept.read_set) or not self._same_facts(kept.facts):
                return False
        ctx = self.ctx
        placeholders = checkpoint.placeholders
        memo: dict[int, tuple[object, object]] = {
            id(placeholder): (placeholder, original)
            for placeholder, original in zip(placeholders, (ctx, ctx.module, *self.rules))}
        # The module scope the scopes before the checkpoint have for parent becomes this lint's, as it was there
        # (each lint that resumes sets it back; the latest one is done with it)
        scope = ctx._scope = ctx._frame = checkpoint.scope
        scope.node = ctx.module
        scope.bindings = _Recorded({name: list(bindings) for name, bindings in checkpoint.bindings.items()},
                                   self._reads, "", _EVERY_NAME)
        scope.unpackings = _Unpackings(checkpoint.unpackings, self._reads)
        scope.loops, scope.grad = [], []
        for key, value in checkpoint.context.items():
            ctx.__dict__[key] = _copied(value, memo)
        for visitor, state in zip(self.rules, checkpoint.visitors):
            if state is not None:
                visitor.__dict__.update({key: _copied(value, memo) for key, value in state.items()})
        functions = self._functions
        for name, definitions in checkpoint.functions.items():
            found = _Definitions(functions)
            list.extend(found, definitions)
            dict.__setitem__(functions, name, found)
        functions.statements.update(checkpoint.function_statements)
        gathering = self._gathering
        for kept in checkpoint.kept:
            self.kept[id(kept.statement)] = kept
            for place, part in kept.parts:
                gathering[place].extend(part)
        self.reused += len(checkpoint.kept)
        dependencies.record_again(checkpoint.files)
        self._unrecorded.update(checkpoint.reads)
        self._resumed = len(statements)
        return True

    def run(self) -> None:
        super().run()
        self._fresh_memos()

    def _finish_part(self, key: tuple[object, ...], given: tuple[object, ...], work: Callable[[], object]) -> object:
        """`Context.finish_part`: the part as the latest lint worked it out when `given` is the same and its reads
        find the same (all the statements are visited by now, so `_changed_reads` holds every read an edit may
        have changed); otherwise `work()`, with its reads recorded as a statement's are."""
        ctx = self.ctx
        end = len(self._body)  # its reads see every statement; the module stands for no statement of its own
        latest = self.memory._finished.get(key)
        if latest is not None and latest.given == given and (
                self._unchanged_reads(latest) or _same(latest.seen, self._seen(latest.reads, end, ctx.module))):
            ctx.reports.extend(latest.reports)
            if latest.files:
                dependencies.record_again(latest.files)
            self.finished[key] = latest
            return latest.result
        self._fresh_memos()
        start = len(ctx.reports)
        self._reads.current = {}
        try:
            with dependencies.collecting() as files:
                result = work()
        finally:
            reads, self._reads.current = tuple(self._reads.current), None
        facts = tuple((read[len(_FACT):], self._fact_values[read[len(_FACT):]]) for read in reads
                      if read.startswith(_FACT))
        self.finished[key] = _Finished(given, reads, self._seen(reads, end, ctx.module), facts,
                                       tuple(ctx.reports[start:]), result, frozenset(files), frozenset(reads))
        return result

    def _fresh_memos(self) -> None:
        """Forget what the analysis of the file has memoized so far (see the module's doc): the analyses that only
        answer questions (the shape evaluator), not those that record the traversal (the training loop)."""
        ctx = self.ctx
        for kind, analysis in list(ctx._analyses.items()):
            if kind not in self._recorders:
                self.analysis_errors = self.analysis_errors or bool(getattr(analysis, "errors", None))
                del ctx._analyses[kind]
        ctx._qualnames.clear()

    def _walk_module(self) -> Iterator[cst.CSTNode]:
        """`walk(module)`, from each top-level statement's nodes as walked once."""
        module = self.ctx.module
        walks = self.memory._walks
        current = self._order
        for key in [key for key in walks if key not in current]:
            del walks[key]
        yield module
        for child in children(module):
            found = walks.get(id(child))
            if found is None or found[0] is not child:
                if id(child) not in current:  # a comment line before or after the statements
                    yield from walk(child)
                    continue
                found = walks[id(child)] = (child, list(walk(child)))
            yield from found[1]

    def _module_fact(self, kind: str, of_statement: Callable[[cst.CSTNode], frozenset]) -> frozenset:
        """`Context.module_fact`, from each top-level statement's part as found once, noting the read."""
        self._note(_FACT + kind)
        return self._fact(kind, of_statement)

    def _fact(self, kind: str, of_statement: Callable[[cst.CSTNode], frozenset]) -> frozenset:
        found = self._fact_values.get(kind)
        if found is None:
            found = self._fact_values[kind] = self._union(kind, of_statement)
        return found

    def _union(self, kind: str, of_statement: Callable[[cst.CSTNode], frozenset]) -> frozenset:
        """A module fact's value: the latest lint's when the statements the edit added have, together, the part the
        statements it removed had (typing inside a statement seldom changes its part), so only their parts are
        found; otherwise the union of every statement's part, each found once. The same value is the same object,
        so a kept statement's fact compares by identity."""
        memory = self.memory
        parts = memory._facts.setdefault(kind, (of_statement, {}))[1]
        latest = memory._unions.get(kind)
        body = self._body

        def part(statement: cst.CSTNode) -> frozenset:
            found = parts.get(id(statement))
            if found is None or found[0] is not statement:
                found = parts[id(statement)] = (statement, of_statement(statement))
            return found[1]

        if latest is not None and latest[0] is memory._body:
            removed = self._removed
            if all(parts.get(id(statement), (None,))[0] is statement for statement in removed):
                was = frozenset().union(*(parts.pop(id(statement))[1] for statement in removed))
                now = frozenset().union(*map(part, self._new))
                if now == was:
                    memory._unions[kind] = (body, latest[1])
                    return latest[1]
        for key in [key for key in parts if key not in self._order]:
            del parts[key]
        found = frozenset().union(*map(part, body))
        if latest is not None and latest[1] == found:
            found = latest[1]
        memory._unions[kind] = (body, found)
        return found

    def _same_facts(self, facts: tuple[tuple[str, frozenset], ...]) -> bool:
        """Whether each module fact has the value it had when the statement read it. Asked of every statement kept
        (several facts each), so the values found so far this lint are looked up first, and a value that did not
        change is the same object (`_union`)."""
        known = self._fact_values
        for kind, value in facts:
            found = known.get(kind)
            if found is None:
                found = self._fact(kind, self.memory._facts[kind][0])
            if found is not value and found != value:
                return False
        return True

    def _unchanged_reads(self, kept: _Kept | _Finished) -> bool:
        """Whether what a statement kept in the latest lint read of the module is the same now, told without
        `_seen`: it read no name, unpacking or function that a statement the edit removed or added (so far) answers,
        nothing that depends on every statement before it (which the edit changed), and module facts of the same
        value. The statements the edit kept keep their order and bind what they bound, and the latest lint found
        that the statement read what it had read (or analysed it then), so its reads find what they found."""
        reads = kept.read_set
        return reads.isdisjoint(self._changed_reads) and reads.isdisjoint(_WHOLE) and self._same_facts(kept.facts)

    def _answered_by(self, statement: cst.CSTNode) -> set[str]:
        """The reads the module-level bindings, unpackings and functions `statement` made answer, as its visit has
        just made them (so each is the latest of its name)."""
        scope = self.ctx._scope
        reads = {name for name, bindings in dict.items(scope.bindings)
                 if bindings and _statement(list.__getitem__(bindings, -1)) is statement}
        if list.__len__(scope.unpackings) and _statement(list.__getitem__(scope.unpackings, -1)) is statement:
            reads.add(_UNPACKINGS)
        statements = self._functions.statements
        reads.update(_FUNCTIONS + name for name, definitions in dict.items(self._functions)
                     if definitions and statements.get(id(list.__getitem__(definitions, -1))) is statement)
        return reads

    def bound(self) -> dict[int, set[str]]:
        """id(top-level statement) -> the reads its module-level bindings, unpackings and functions answer."""
        found: dict[int, set[str]] = {}
        scope = self.ctx._scope
        for name, bindings in dict.items(scope.bindings):
            for statement in self._binders(bindings):
                if statement is not None:
                    found.setdefault(id(statement), set()).add(name)
        for statement in map(_statement, list.__iter__(scope.unpackings)):
            if statement is not None:
                found.setdefault(id(statement), set()).add(_UNPACKINGS)
        statements = self._functions.statements
        for name, definitions in dict.items(self._functions):
            for definition in list.__iter__(definitions):
                statement = statements.get(id(definition))
                if statement is not None:
                    found.setdefault(id(statement), set()).add(_FUNCTIONS + name)
        return found

    def _seen(self, reads: tuple[str, ...], index: int, statement: cst.CSTNode
              ) -> tuple[cst.CSTNode | frozenset | None, ...]:
        """What `reads` find in the module before `statement` (the `index`-th), as a sequence of top-level
        statements (None ends each read's); the same sequence means the same answers, since an unchanged statement
        is the same node. The statement's own bindings are left out: they follow from the statement. A module
        fact is read as its value, whatever statements it comes from. Reads that go no further than the
        statements before `statement` find what they found in the latest lint when those are the same nodes, so
        the statements before the first one an edit replaced are not asked this again: only whether the module
        facts they read have the values they had (`_same_facts`)."""
        scope = self.ctx._scope
        seen: list[cst.CSTNode | frozenset | None] = []
        for read in reads:
            if read.startswith(_FACT):
                kind = read[len(_FACT):]
                seen.append(self._fact(kind, self.memory._facts[kind][0]))
            elif read == _EVERY_NAME or read == _EVERY_FUNCTION:
                seen.extend(self._body[:index])
            elif read.startswith(_FUNCTIONS):
                statements = self._functions.statements
                seen.extend(found for found in map(statements.get, map(id, dict.get(
                    self._functions, read[len(_FUNCTIONS):], ()))) if found is not statement)
            elif read.startswith(_FUNCTION_NAMED):
                seen.extend(self._defining(read[len(_FUNCTION_NAMED):]))
            elif read == _WHOLE_MODULE or read == _EVERY_FUNCTION_NAMED:
                seen.extend(self._body)
            else:
                found = self._binders(scope.unpackings if read == _UNPACKINGS else dict.get(scope.bindings, read))
                end = len(found)
                while end and found[end - 1] is statement:  # its own bindings are the latest
                    end -= 1
                seen.extend(found[:end])
            seen.append(None)
        return tuple(seen)

    def _binders(self, bindings: list[Binding] | None) -> list[cst.CSTNode | None]:
        """The top-level statement of each of a name's module-level bindings. Every kept statement asks this of the
        names it read, and the lists only grow (the traversal appends), so each binding's is found once a lint."""
        if bindings is None:
            return []
        known = self._statements.get(id(bindings))
        if known is None:
            known = self._statements[id(bindings)] = (bindings, [])
        found = known[1]
        count = list.__len__(bindings)
        if len(found) < count:
            found.extend(map(_statement, list.__getitem__(bindings, slice(len(found), count))))
        return found

    def _swap(self, rules: list[object]) -> None:
        (self._dispatch, self._visited), self._other = self._other, (self._dispatch, self._visited)
        self._dispatching = rules

    def _statement_rules(self) -> tuple[type, ...]:
        return tuple(type(rule) for rule in self.rules if _scope(rule) == "statement")

    def _crashed(self, rule: object, error: BaseException) -> None:
        super()._crashed(rule, error)
        self._live = self._statement_rules()
        if rule in self._file_rules:
            self._file_rules.remove(rule)
        self._other[0].clear()


def _scope(visitor: object) -> str:
    """A rule's `scope`; the recording analyses see the whole file, as file-scope rules do."""
    return getattr(visitor, "scope", "file")


def _statement(binding: Binding) -> cst.CSTNode | None:
    """The top-level statement that made a module-level binding; None for the context's own (see `Context`)."""
    return binding.path[1] if len(binding.path) > 1 else None


def _same(a: tuple[cst.CSTNode | frozenset | None, ...], b: tuple[cst.CSTNode | frozenset | None, ...]) -> bool:
    return len(a) == len(b) and all(x is y or type(x) is frozenset and x == y for x, y in zip(a, b))
