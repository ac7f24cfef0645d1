"""Inlay hints for `shapecheck shapes FILE`: the shape the analysis infers after each assignment of each function,
in the code's own symbols, so a user can see why a finding fired (and a rule author what the engine knows).

The hints come from the same single traversal and the same evaluator the rules use: each assignment is asked
about as the engine leaves it, as of that point in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from shapecheck.engine.context import Context
from shapecheck.engine.bindings import traverse
from shapecheck.objects.callers import helper_callers
from shapecheck.objects.decorators import called_as_written
from shapecheck.objects.executor import Run
from shapecheck.objects.values import FunctionValue, hashable
from shapecheck.objects.dims import Dim
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator, shape_of
from shapecheck.shapes.runs import brings_facts
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items


@dataclass(frozen=True, slots=True)
class Hint:
    scope: str  # "Class.method", "function" or "<module>"
    node: cst.CSTNode  # the assignment statement
    target: str  # how the code spells the name assigned
    shape: str  # "(B, T, C)" for a tensor, "C // n_head" for a size
    expression: cst.BaseExpression  # the target itself (the editor server places its inlay hint after it)


class _HintCollector:
    """A visitor of the engine's traversal that asks the shape of each assignment as the engine leaves it."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.hints: list[Hint] = []

    def leave_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._hint(node, target.target, node.value)

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._hint(node, node.target, node.value)

    def _hint(self, statement: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        ctx = self.ctx
        if type(target) in (cst.Tuple, cst.List):
            elements = target.elements
            if any(type(e) is cst.StarredElement for e in elements):
                return
            sizes = evaluator(ctx).sizes_of(value)
            items = evaluator(ctx).items_of(value) if sizes is None else None
            for index, element in enumerate(elements):
                if sizes is not None and sizes.variadic is None and len(sizes.dims) == len(elements):
                    found: Shape | Dim | None = sizes.dims[index]
                elif items is not None:
                    found = _shape_or_none(items, index)
                else:
                    found = None
                self._add(statement, element.value, found)
            return
        shape = shape_of(ctx, value)
        self._add(statement, target, shape if shape is not None else evaluator(ctx).dim_of(value))

    def _add(self, statement: cst.CSTNode, target: cst.BaseExpression, found: Shape | Dim | None) -> None:
        if found is not None and type(target) in (cst.Name, cst.Attribute, cst.Subscript) and _informative(found):
            self.hints.append(_hint(self.ctx, self._scope(), statement, target, found))

    def _scope(self) -> str:
        function, class_def = self.ctx.function, self.ctx.class_def
        if function is None:
            return "<module>"
        if class_def is not None:
            return f"{class_def.name.value}.{function.name.value}"
        return function.name.value


_MEASURED = frozenset({"dim", "annotation", "annotation-open"})


def _informative(found: Shape | Dim) -> bool:
    """A shape that says something (a rank or a dim), or a size that is a literal or measures a tensor: not the
    name of some attribute or parameter the code merely copies."""
    if isinstance(found, Shape):
        return bool(found.dims) or found.rank is not None
    if found.literal is not None:
        return True
    return any(atom.compound or type(atom.key) is tuple and atom.key[0] in _MEASURED for atom in found.atoms)


def _shape_or_none(items: Items, index: int) -> Shape | None:
    value = items.at(index)
    return value if isinstance(value, Shape) else None


def shape_hints(text: str, filename: str) -> list[tuple[int, str, str, str]]:
    """(line, scope, target, shape) for every assignment whose value the analysis knows, in source order."""
    module = cst.parse_module(text)
    ctx = Context(module, filename)
    collector = _HintCollector(ctx)
    traverse(ctx, [collector])
    hints = collector.hints + followed_hints(ctx)
    if not hints:
        return []
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return [(positions[hint.node].start.line, hint.scope, hint.target, hint.shape) for hint in hints]


def followed_hints(ctx: Context) -> list[Hint]:
    """The shapes of a module-level function's assignments on the arguments its calls pass, where every call of it
    in the file is read and all pass the same values that tell more than its signature (`train(Config())`): what the
    checks find inside it through those calls. Calls that disagree say nothing sure (a block per call would be
    guessing which one the reader means)."""
    ev = evaluator(ctx)
    hints: list[Hint] = []
    for statement in ctx.module.body:
        if type(statement) is not cst.FunctionDef or not called_as_written(ctx, statement):
            continue
        sites = helper_callers(ctx, statement)
        callee = FunctionValue(statement, ctx)
        passed = set()
        args = None
        for site, point in sites or ():
            with ctx.at(replace(point, seq=site.seq + 1)):
                args = ev.calls.arguments(callee, site.node, site.seq + 1)
            key = None if args is None else hashable(tuple(args.items()))
            if key is None:
                break
            passed.add(key)
        else:
            if len(passed) == 1 and args is not None and brings_facts(ev, args):
                scope = f"{statement.name.value}, as {'its calls pass' if len(sites) > 1 else 'called'}: " \
                        f"`{ctx.code(sites[0][0].node)}`"
                hints.extend(_run_hints(ev, ev.calls.run(callee, args), scope))
    return hints


def _run_hints(ev: ShapeEvaluator, done: Run, scope: str) -> list[Hint]:
    """A hint for each plain assignment of a name that ran on every call, with the value it was given there."""
    found = []
    for statement, version, certain in done.trace:
        if not certain or type(statement) is not cst.Assign or len(statement.targets) != 1:
            continue
        target = statement.targets[0].target
        if type(target) is not cst.Name:
            continue
        shape = ev.tensor(statement.value, version)
        value = shape if shape is not None else ev.dim_of(statement.value, version)
        if value is not None and _informative(value):
            found.append(_hint(ev.ctx, scope, statement, target, value))
    return found


def _hint(ctx: Context, scope: str, statement: cst.CSTNode, target: cst.BaseExpression, found: Shape | Dim) -> Hint:
    return Hint(scope, statement, ctx.code(target), found.render() if isinstance(found, Shape) else str(found), target)


def render_hints(hints: list[tuple[int, str, str, str]], filename: str) -> str:
    """One block per function: `  12  y: (B, T, C)`."""
    lines: list[str] = []
    scope = None
    for line, where, target, shape in hints:
        if where != scope:
            lines.append(f"{filename}: {where}")
            scope = where
        lines.append(f"  {line:>5}  {target}: {shape}")
    return "\n".join(lines)
