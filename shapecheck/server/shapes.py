"""Hover and inlay hints: the shapes the analysis infers (`shapecheck.shapes.editor`), placed in the client's
positions. An assignment's hint follows its target (`y: (B, T, C) = ...`, as editors show inferred types); a hover
names the shape of the expression under the cursor and where its value was bound.
"""

from __future__ import annotations

from bisect import bisect_right

import libcst as cst
from lsprotocol import types

from shapecheck.engine.source import ParsedSource
from shapecheck.engine.walker import walk
from shapecheck.findings import Location
from shapecheck.server.protocol import Converter
from shapecheck.shapes.editor import HOVERED, Shown, editor_shapes
from shapecheck.shapes.hints import Hint

MAX_SPELLED = 60  # characters of an expression or statement quoted in a hover


def inlay_hints(source: ParsedSource, filename: str, first: int, last: int, convert: Converter
                ) -> list[types.InlayHint]:
    """The shape hints of the assignments in the top-level statements that lines `first` to `last` (0-based)
    touch."""
    statements = _statements_between(source, first, last)
    if not statements:
        return []
    hints = [hint for hint in editor_shapes(source.module, filename, statements).hints if not _restates(hint)]
    positions = source.positions([hint.expression for hint in hints], near=statements)
    shown = []
    for hint in hints:
        end = positions[hint.expression].end
        if first <= end.line - 1 <= last:
            shown.append(types.InlayHint(
                position=convert.position(Location(end.line, end.column + 1)), label=f": {hint.shape}",
                kind=types.InlayHintKind.Type, tooltip=f"{hint.target}'s shape, as shapecheck infers it"))
    return shown


def hover(source: ParsedSource, filename: str, line: int, character: int, convert: Converter) -> types.Hover | None:
    """What the analysis knows of the expression at `line` and `character` (0-based, in the client's units)."""
    where = convert.codec.position_from_client_units(convert.lines, types.Position(line=line, character=character))
    row, column = where.line, where.character
    statements = _statements_between(source, row, row)
    if not statements:
        return None
    (statement,) = statements
    node = _expression_at(source, statement, row + 1, column)
    if node is None:
        return None
    shown = editor_shapes(source.module, filename, [statement], node).hover
    if shown is None:
        return None
    span = source.positions([node], near=[statement])[node]
    origin = source.positions([shown.origin], near=[statement])[shown.origin] if shown.origin is not None else None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value=_markdown(source, shown, origin.start.line if origin else 0)),
                       range=convert.range(Location(span.start.line, span.start.column + 1),
                                           Location(span.end.line, span.end.column + 1)))


def _statements_between(source: ParsedSource, first: int, last: int) -> list[cst.CSTNode]:
    """The top-level statements that lines `first` to `last` (0-based) fall in."""
    starts = source.starts
    body = source.module.body
    if starts is None or not body:
        return []
    begin = max(0, bisect_right(starts, first) - 1)
    end = bisect_right(starts, last)
    return list(body[begin:end])


def _expression_at(source: ParsedSource, statement: cst.CSTNode, line: int, column: int
                   ) -> cst.BaseExpression | None:
    """The innermost expression of a `HOVERED` kind at 1-based `line`, 0-based `column`: for the name of a
    called function (`randn` in `torch.randn(3)`), the call."""
    candidates = [node for node in walk(statement) if isinstance(node, HOVERED)]
    if not candidates:
        return None
    positions = source.positions(candidates, near=[statement])
    best: cst.BaseExpression | None = None
    best_span = None
    for node in candidates:
        span = positions[node]
        if (span.start.line, span.start.column) <= (line, column) < (span.end.line, span.end.column):
            if best_span is None or (span.start.line, span.start.column) >= (best_span.start.line,
                                                                           best_span.start.column) \
                    and (span.end.line, span.end.column) <= (best_span.end.line, best_span.end.column):
                best, best_span = node, span
    if best is None:
        return None
    for node in candidates:  # the callee, or the attribute name of `self.x`: what it belongs to
        if type(node) is cst.Call and node.func is best or type(node) is cst.Attribute and node.attr is best:
            return _expression_at_parent(candidates, node)
    return best


def _expression_at_parent(candidates: list[cst.CSTNode], node: cst.CSTNode) -> cst.BaseExpression:
    for parent in candidates:  # `torch.nn.functional.relu`: the call around the attribute around the name
        if type(parent) is cst.Call and parent.func is node:
            return parent
    return node  # type: ignore[return-value]


def _restates(hint: Hint) -> bool:
    """A size assigned as a literal (`BATCH = 32`): its hint would only repeat the code."""
    statement = hint.node
    value = getattr(statement, "value", None)
    if value is None:
        return False
    if type(value) is cst.Integer:
        return True
    if type(value) is cst.Tuple and all(type(element.value) is cst.Integer for element in value.elements):
        return True
    return False


def _markdown(source: ParsedSource, shown: Shown, origin_line: int) -> str:
    code = _spelled(source.module.code_for_node(shown.node))
    what = "size" if shown.size else "shape"
    lines = [f"```python\n{code}: {shown.shape}\n```", f"its {what}, as shapecheck infers it here"]
    if shown.origin_kind == "target":
        lines[-1] += ", from the value assigned"
    elif shown.origin_kind == "param":
        owner = shown.origin
        name = owner.name.value if isinstance(owner, cst.FunctionDef) else "lambda"
        lines[-1] += f", from the annotation of a parameter of `{name}`"
    elif shown.origin is not None:
        statement = _spelled(source.module.code_for_node(shown.origin))
        lines[-1] += f", from line {origin_line}: `{statement}`"
    lines.extend(f"- {note}" for note in shown.notes)
    return "\n\n".join(lines)


def _spelled(code: str) -> str:
    text = " ".join(code.split())
    return text if len(text) <= MAX_SPELLED else text[:MAX_SPELLED - 4] + " ..."
