"""Ask the shape evaluator about expressions in a source snippet: every `probe(expr)` call records what
`shape_of(ctx, expr)` (or `dim_of`) says at that point, through a rule as the engine runs it."""

from __future__ import annotations

import textwrap
from typing import ClassVar

import libcst as cst

from shapecheck.engine import Rule
from shapecheck.engine.context import Context
from shapecheck.engine.bindings import traverse
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator, shape_conflict, shape_of


class _Probe(Rule):
    code = "SC990"
    name = "shape-probe"
    message = "probe"
    seen: ClassVar[list] = []

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is not cst.Name or not node.args:
            return
        expr = node.args[0].value
        if node.func.value == "probe":
            shape = shape_of(self.ctx, expr)
            self.seen.append(shape.render() if shape is not None else None)
        elif node.func.value == "probe_dim":
            dim = evaluator(self.ctx).dim_of(expr)
            self.seen.append(str(dim) if dim is not None else None)
        elif node.func.value == "probe_layout":
            shape = shape_of(self.ctx, expr)
            self.seen.append(shape.layout if shape is not None else None)
        elif node.func.value == "probe_dtype":
            shape = shape_of(self.ctx, expr)
            self.seen.append(shape.dtype if shape is not None else "?")
        elif node.func.value == "probe_conflict":
            conflict = shape_conflict(self.ctx, expr)
            self.seen.append(conflict.message if conflict is not None else None)


def analyse(source: str) -> tuple[list, Context]:
    module = cst.parse_module(textwrap.dedent(source))
    ctx = Context(module, "example.py")
    _Probe.seen = []
    traverse(ctx, [_Probe(ctx)])
    return list(_Probe.seen), ctx


def probe(source: str) -> list:
    """What each `probe(...)`, `probe_dim(...)`, ... call in `source` saw, in source order."""
    seen, ctx = analyse(source)
    errors = [error for analysis in ctx.analyses() if isinstance(analysis, ShapeEvaluator) for error in analysis.errors]
    assert not errors, errors
    return seen


def shape(source: str) -> str | None:
    """The single probe's answer."""
    seen = probe(source)
    assert len(seen) == 1, seen
    return seen[0]
