"""What the editor server shows of the shape analysis: the shape each assignment gives its target (inlay hints, the
same as `shapecheck shapes FILE` prints) and the shape of the expression under the cursor, with the binding its
value comes from (hover). The server reaches the shape analysis through `editor_shapes` only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Binding, Context
from shapecheck.objects.dims import Dim
from shapecheck.shapes.evaluator import evaluator
from shapecheck.shapes.hints import Hint, _HintCollector
from shapecheck.shapes.shape import Shape

# The expressions a hover can be about: a name, `self.x`, `x[i]`, a call's result, `a @ b`.
HOVERED = (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.BinaryOperation)


@dataclass(frozen=True)
class Shown:
    """The shape of one expression at its place in the file."""

    node: cst.BaseExpression
    shape: str  # "(B, T, C)" for a tensor, "C // n_head" for a size
    size: bool  # a size (an int), not a tensor
    notes: tuple[str, ...]  # what else the analysis knows: the dtype family, a layout a transpose left
    origin: cst.CSTNode | None  # the statement that bound the value, for a name; None: worked out where it is
    origin_kind: str | None  # how: "assign", "param", "for", ... (`Binding.kind`); "target" for an assignment's own


@dataclass(frozen=True)
class EditorShapes:
    hints: list[Hint]  # the assignments' shapes, in source order (`shapecheck.shapes.hints`)
    hover: Shown | None


def editor_shapes(module: cst.Module, filename: str, statements: Collection[cst.CSTNode] = (),
                  hover: cst.BaseExpression | None = None) -> EditorShapes:
    """One traversal of `module`: the shape hints of the assignments inside `statements` (top-level statements of
    the module), and what is known of `hover` (an expression of one of the `HOVERED` kinds) where it is; for an
    assignment's target, its hint, so its top-level statement must be among `statements`."""
    ctx = Context(module, filename)
    collector = _Collector(ctx, {id(statement) for statement in statements})
    probe = _Probe(ctx, hover)
    try:
        traverse(ctx, [collector, probe])
        shown = probe.shown
        for hint in collector.hints:
            if hint.expression is hover:  # the target of an assignment: what it is assigned
                size = hint.shape[:1] != "("
                shown = Shown(hover, hint.shape, size, (), hint.node, "target")
        return EditorShapes(collector.hints, shown)
    finally:
        ctx.release()


class _Collector(_HintCollector):
    """The hints of the assignments inside some top-level statements only: the others cost nothing."""

    def __init__(self, ctx: Context, statements: set[int]) -> None:
        super().__init__(ctx)
        self.statements = statements

    def _wanted(self) -> bool:
        ancestors = self.ctx.ancestors
        return len(ancestors) > 1 and id(ancestors[1]) in self.statements

    def leave_Assign(self, node: cst.Assign) -> None:
        if self._wanted():
            super().leave_Assign(node)

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self._wanted():
            super().leave_AnnAssign(node)


class _Probe:
    """Asks about the hovered expression when the traversal reaches it: as of that point in the file."""

    def __init__(self, ctx: Context, node: cst.BaseExpression | None) -> None:
        self.ctx = ctx
        self.node = node
        self.shown: Shown | None = None

    def _reached(self, node: cst.CSTNode) -> None:
        if node is not self.node:
            return
        ctx = self.ctx
        if _assigned(ctx.ancestors):
            return  # an assignment's target: its hint says what it is assigned
        shape = evaluator(ctx).shape_of(node)
        found: Shape | Dim | None = shape if shape is not None else evaluator(ctx).dim_of(node)
        if found is None or isinstance(found, Shape) and not found.dims and found.rank is None:
            return
        binding = ctx.binding(node) if type(node) is cst.Name or type(node) is cst.Attribute else None
        self.shown = Shown(node, found.render() if isinstance(found, Shape) else str(found),
                           not isinstance(found, Shape), _notes(found), *_origin(binding))

    visit_Name = visit_Attribute = visit_Subscript = visit_Call = visit_BinaryOperation = _reached


def _assigned(path: list[cst.CSTNode]) -> bool:
    """The last node of `path` is (in) the target of an assignment: `y`, or `a` in `a, b = ...`."""
    child = path[-1]
    for parent in reversed(path[:-1]):
        kind = type(parent)
        if kind is cst.AssignTarget or kind is cst.AnnAssign and parent.target is child:
            return True
        if kind not in (cst.Tuple, cst.List, cst.Element, cst.StarredElement):
            return False
        child = parent
    return False


def _notes(found: Shape | Dim) -> tuple[str, ...]:
    if not isinstance(found, Shape):
        return ()
    notes = []
    if found.dtype is not None:
        notes.append(f"{found.dtype} dtype")
    if found.contiguous is False:
        made = f" (made by `{found.permuted_by}`)" if found.permuted_by else ""
        notes.append(f"not contiguous in memory{made}: `.view` needs `.reshape` or `.contiguous()` first")
    return tuple(notes)


def _origin(binding: Binding | None) -> tuple[cst.CSTNode | None, str | None]:
    if binding is None or binding.kind == "import":
        return None, None
    return binding.statement, binding.kind
