"""A parsed module that knows the line each top-level statement starts on.

Two things follow from knowing that, and both keep the cost of a lint close to the cost of what changed:

- `positions`: the line and column of a few nodes, generating the code of only the statements that hold them.
  libcst's `PositionProvider` generates the whole module, several times the cost of the parse for a 1,000-line file.
- `reparse`: an edited text parsed again statement by statement. Top-level statements parse independently of one
  another, so only those the edit touched are parsed (and measured by the complexity guard first); the editor
  server lints every keystroke this way.

The start lines come from CPython's parser (C, a fraction of libcst's parse) and are only a hint: the code of each
statement whose positions are wanted is compared with the text at that line, and any disagreement falls back to
libcst's own `PositionProvider` over the whole module.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import TypeVar

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from shapecheck.engine.guard import TooComplex, too_complex
from shapecheck.engine.records import record
from shapecheck.engine.walker import walk

try:
    from libcst._nodes.internal import CodegenState
except ImportError:  # pragma: no cover - a libcst that moved it
    CodegenState = None  # type: ignore[assignment, misc]
_POSITIONS_DIRECTLY = CodegenState is not None and hasattr(cst.Module, "_codegen")

T = TypeVar("T")

# Lines as Python's tokenizer counts them: "\r\n", "\r" and "\n" end a line, "\x0c" and "\u2028" do not.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, each with its line end."""
    return _LINE.findall(text)


@record
class ParsedSource:
    text: str
    module: cst.Module
    lines: list[str] = field(repr=False)
    # 0-based line where each top-level statement begins, its leading comments and blank lines included; None
    # until first needed, or when CPython's parser and libcst's disagree.
    _starts: list[int] | None = field(default=None, repr=False)
    _starts_known: bool = field(default=False, repr=False)
    # Per top-level statement, the ids of the nodes in it, filled in as needed to find which statement holds a
    # node; `reparse` carries over the entries of the statements it keeps.
    _node_ids: list[frozenset[int] | None] | None = field(default=None, repr=False)
    # Per top-level statement, the positions inside it relative to its first line, once computed and checked
    # against the text; carried over by `reparse` like `_node_ids`.
    _ranges: list[Mapping[cst.CSTNode, CodeRange] | None] | None = field(default=None, repr=False)

    @property
    def starts(self) -> list[int] | None:
        if not self._starts_known:
            self._starts, self._starts_known = statement_starts(self.module, self.text), True
        return self._starts

    @property
    def starts_if_known(self) -> list[int] | None:
        """`starts` where `reparse` carried them over, None where finding them would parse the whole text."""
        return self._starts if self._starts_known else None

    def positions(self, nodes: Iterable[cst.CSTNode], near: Iterable[cst.CSTNode | None] = ()
                  ) -> dict[cst.CSTNode, CodeRange]:
        """Where each of `nodes` is (1-based lines, 0-based columns, as `PositionProvider` gives them). `near`:
        top-level statements that probably hold them, looked in first."""
        wanted = {id(node): node for node in nodes}
        found: dict[cst.CSTNode, CodeRange] = {}
        starts = self.starts
        if starts is not None:
            body = self.module.body
            index = {id(statement): k for k, statement in enumerate(body)}
            candidates = [index[id(s)] for s in dict.fromkeys(near) if s is not None and id(s) in index]
            looked: set[int] = set()
            for k in candidates:
                if not self._resolve_statement(k, starts, wanted, found, looked):
                    return self._everything(nodes)
            for k in range(len(body)):
                if not wanted:
                    break
                if k not in looked and not self._node_ids_of(k).isdisjoint(wanted):
                    if not self._resolve_statement(k, starts, wanted, found, looked):
                        return self._everything(nodes)
            if not wanted:
                return found
        return self._everything(nodes)

    def _resolve_statement(self, k: int, starts: list[int], wanted: dict[int, cst.CSTNode],
                           found: dict[cst.CSTNode, CodeRange], looked: set[int]) -> bool:
        """Positions of the wanted nodes inside statement k; False when the statement is not where the start
        lines say it is."""
        if k in looked:
            return True
        looked.add(k)
        ranges = self._statement_ranges(k, starts[k])
        if ranges is None:
            return False
        first = starts[k]
        # Only the wanted nodes inside this statement: asking its positions about every node still wanted made
        # this quadratic in the findings (each finding's statement is looked in).
        for key in self._node_ids_of(k).intersection(wanted):
            node = wanted[key]
            span = ranges.get(node)
            if span is not None:
                found[node] = CodeRange(CodePosition(span.start.line + first, span.start.column),
                                        CodePosition(span.end.line + first, span.end.column))
                del wanted[key]
        return True

    def _statement_ranges(self, k: int, first: int) -> Mapping[cst.CSTNode, CodeRange] | None:
        """Positions inside statement k relative to its first line `first`; None when the statement's code is not
        the text there."""
        if self._ranges is None:
            self._ranges = [None] * len(self.module.body)
        ranges = self._ranges[k]
        if ranges is None:
            alone = self.module.with_changes(header=(), body=(self.module.body[k],), footer=(),
                                             has_trailing_newline=True)
            code, ranges = code_and_positions(alone)
            count = len(split_lines(code))
            if "".join(self.lines[first:first + count]).rstrip("\r\n") != code.rstrip("\r\n"):
                return None
            self._ranges[k] = ranges
        return ranges

    def _node_ids_of(self, k: int) -> frozenset[int]:
        if self._node_ids is None:
            self._node_ids = [None] * len(self.module.body)
        ids = self._node_ids[k]
        if ids is None:
            ids = self._node_ids[k] = frozenset(id(node) for node in walk(self.module.body[k]))
        return ids

    def _everything(self, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        ranges = code_and_positions(self.module)[1]
        return {node: ranges[node] for node in nodes}


def code_and_positions(module: cst.Module) -> tuple[str, Mapping[cst.CSTNode, CodeRange]]:
    """The module's code and `PositionProvider`'s position of each node, from one code generation. libcst's
    `MetadataWrapper.resolve(PositionProvider)` generates the code for the positions, and then also walks the whole
    tree for the batchable providers, though none is asked for: a third of a file's lint when it has findings. So
    the code generation is run here directly, through libcst internals that have been stable since 0.3; where they
    are missing, through the wrapper. Its state notes where each node starts and ends as a count of the tokens
    generated before, and a position is worked out only for the nodes asked about (a lint asks about its findings'):
    libcst's own state works out the line and column of every node, by a regular expression on every token."""
    if _POSITIONS_DIRECTLY:
        state = _TokenSpans(module.default_indent, module.default_newline)
        module._codegen(state)
        code = "".join(state.tokens)
        if "\x00" not in code:  # `_TokenSpans.position` separates the tokens with it
            return code, _Positions(state)
    return module.code, MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


# Tokens between two positions `_TokenSpans` keeps: a position asked for joins at most this many.
_STRIDE = 256

if CodegenState is not None:
    class _TokenSpans(CodegenState):
        """A code generation that keeps, for each node, the tokens generated before its start and its end (its
        syntactic start and end where the node records them, as `PositionProvidingCodegenState` does)."""

        def __init__(self, default_indent: str, default_newline: str) -> None:
            super().__init__(default_indent, default_newline)
            self.spans: dict[cst.CSTNode, tuple[int, int]] = {}
            self.started: list[int] = []
            self.checkpoints: list[CodePosition] | None = None
            self.popped: list[str] = []

        def pop_trailing_newline(self) -> None:
            # libcst's state does not move back: spans ending after it (the module's) count it too, so it is kept.
            if self.tokens:
                self.popped.append(self.tokens.pop())

        def before_codegen(self, node: cst.CSTNode) -> None:
            self.started.append(len(self.tokens))

        def after_codegen(self, node: cst.CSTNode) -> None:
            start = self.started.pop()
            if node not in self.spans:  # the syntactic span, recorded inside, stands
                self.spans[node] = (start, len(self.tokens) + len(self.popped))

        def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                      end_node: cst.CSTNode | None = None) -> _Syntactic:
            return _Syntactic(self, node, start_node, end_node)

        def position(self, count: int) -> CodePosition:
            """Where the code is after its first `count` tokens, as libcst counts: each token's line ends on
            their own (a token's closing "\\r" and the next one's opening "\\n" are two)."""
            if self.checkpoints is None:  # every _STRIDE tokens, so that no position joins more than that
                self.tokens += self.popped  # the code was taken before
                self.popped = []
                self.checkpoints = [CodePosition(1, 0)]
                for start in range(0, len(self.tokens) - _STRIDE + 1, _STRIDE):
                    self.checkpoints.append(self._after(self.checkpoints[-1], start, start + _STRIDE))
            start = count // _STRIDE * _STRIDE
            return self._after(self.checkpoints[count // _STRIDE], start, count)

        def _after(self, position: CodePosition, start: int, end: int) -> CodePosition:
            """Where the code is after tokens `start` to `end`, from `position`, where it is before them."""
            text = "\x00".join(self.tokens[start:end])
            last = max(text.rfind("\n"), text.rfind("\r"))
            if last < 0:
                return CodePosition(position.line, position.column + len(text) - text.count("\x00"))
            return CodePosition(position.line + text.count("\n") + text.count("\r") - text.count("\r\n"),
                                len(text) - last - 1 - text.count("\x00", last + 1))


class _Syntactic:
    """`with state.record_syntactic_position(node, ...)`, as a plain object: a generator-based context manager for
    every expression costs more than the rest of the bookkeeping."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _TokenSpans, node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = len(self.state.tokens)

    def __exit__(self, *_: object) -> None:
        spans = self.state.spans
        start = spans[self.start_node][0] if self.start_node is not None else self.start
        end = spans[self.end_node][1] if self.end_node is not None else len(self.state.tokens)
        spans[self.node] = (start, end)


class _Positions(Mapping[cst.CSTNode, CodeRange]):
    """`PositionProvider`'s positions of a generated module's nodes, each worked out when first asked for (a
    statement's are kept between the editor server's lints, which ask again for the findings it keeps)."""

    def __init__(self, state: _TokenSpans) -> None:
        self._state = state
        self._found: dict[cst.CSTNode, CodeRange] = {}

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._found.get(node)
        if found is None:
            start, end = self._state.spans[node]
            found = self._found[node] = CodeRange(self._state.position(start), self._state.position(end))
        return found

    def __iter__(self):
        return iter(self._state.spans)

    def __len__(self) -> int:
        return len(self._state.spans)


def parse_source(text: str) -> ParsedSource:
    """Parse `text` whole. Raises `TooComplex` for what libcst must not be asked to parse, SyntaxError where
    CPython's tokenizer fails, and what `libcst.parse_module` raises."""
    reason = too_complex(text)
    if reason is not None:
        raise TooComplex(reason)
    return ParsedSource(text, cst.parse_module(text), split_lines(text))


def statement_starts(module: cst.Module, text: str) -> list[int] | None:
    """The 0-based line each top-level statement of `module` (parsed from `text`) begins on, leading lines
    included; None when CPython's parser does not agree with libcst's on the statements."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    starts = []
    position = 0
    for statement in module.body:
        if position >= len(tree.body):
            return None
        node = tree.body[position]
        decorators = getattr(node, "decorator_list", None)
        first = min(d.lineno for d in decorators) if decorators else node.lineno
        starts.append(first - 1 - len(statement.leading_lines))
        position += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return starts if position == len(tree.body) else None


def reparse(previous: ParsedSource, text: str) -> ParsedSource:
    """`text` parsed, re-using the statements of `previous` (an earlier version of the same document) that the
    edit did not touch. The result's code is `text` exactly; whenever splicing cannot guarantee that, the whole
    text is parsed."""
    if text == previous.text:
        return previous
    starts = previous.starts
    old_module = previous.module
    body = old_module.body
    if starts is None or not body:
        return parse_source(text)
    old, new = previous.lines, split_lines(text)
    head = _common_prefix(old, new)
    tail = _common_prefix(old[head:][::-1], new[head:][::-1])
    changed_end = len(old) - tail  # old lines [head, changed_end) became new lines [head, len(new) - tail)
    shift = len(new) - len(old)

    # From the statement holding the line before the change: lines added at the end of a block belong to it.
    first = max(0, bisect_right(starts, head - 1) - 1)
    last = max(bisect_right(starts, changed_end - 1) if changed_end > head else first + 1, first + 1)
    begin = starts[first] if first > 0 else 0  # the header belongs to the first statement's span
    end = starts[last] + shift if last < len(body) else len(new)
    if not 0 <= begin <= end <= len(new):
        return parse_source(text)
    span_text = "".join(new[begin:end])
    try:
        reason = too_complex(span_text, first_line=begin + 1)
    except SyntaxError:  # the span alone may not tokenize (a string it cuts): the whole text says what is wrong
        return parse_source(text)
    if reason is not None:
        raise TooComplex(reason)
    span = _parse_or_none(span_text)
    at_top, at_bottom = first == 0, last == len(body)
    if (span is None or not span.body or span.default_indent != old_module.default_indent
            or span.default_newline != old_module.default_newline):
        return parse_source(text)
    # Parsed alone, the span's leading blank and comment lines are its header and its trailing ones its footer;
    # in the whole module they lead the span's first statement and the statement after the span.
    replaced = list(span.body)
    if span.header and not at_top:
        replaced[0] = replaced[0].with_changes(leading_lines=(*span.header, *replaced[0].leading_lines))
    after = list(body[last:])
    if span.footer and not at_bottom:
        after[0] = after[0].with_changes(leading_lines=(*span.footer, *after[0].leading_lines))
    module = old_module.with_changes(
        header=span.header if at_top else old_module.header,
        body=(*body[:first], *replaced, *after),
        footer=span.footer if at_bottom else old_module.footer,
        has_trailing_newline=span.has_trailing_newline if at_bottom else old_module.has_trailing_newline,
    )
    result = ParsedSource(text, module, new)
    result._node_ids = _carried_over(previous._node_ids, first, last, len(replaced), span.footer and not at_bottom)
    result._ranges = _carried_over(previous._ranges, first, last, len(replaced), span.footer and not at_bottom)
    span_starts = statement_starts(span.with_changes(header=(), body=replaced), span_text)
    if span_starts is not None:
        moved = len(span.footer) if not at_bottom else 0
        result._starts = [*starts[:first], *(begin + s for s in span_starts),
                          *(s + shift - (moved if k == 0 else 0) for k, s in enumerate(starts[last:]))]
        result._starts_known = True
    return result


def _carried_over(per_statement: list[T | None] | None, first: int, last: int, added: int, rebuilt_after: bool
                  ) -> list[T | None] | None:
    """A per-statement cache after statements [first, last) were replaced by `added` new ones; `rebuilt_after`:
    the statement after them was rebuilt too (it took the span's trailing lines)."""
    if per_statement is None:
        return None
    after = per_statement[last:]
    if rebuilt_after:
        after[0] = None
    return [*per_statement[:first], *[None] * added, *after]


def _parse_or_none(text: str) -> cst.Module | None:
    try:
        return cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError):
        return None


def _common_prefix(a: list[str], b: list[str]) -> int:
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count
