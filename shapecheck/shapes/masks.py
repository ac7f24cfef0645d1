"""Masks that cannot line up with the tensor they mask: `scores.masked_fill(mask, v)`, `torch.masked_fill(...)` and
`torch.where(cond, a, b)` raise when the mask's dims and the tensor's can't broadcast ("The size of tensor a (T) must
match the size of tensor b (S) at non-singleton dimension 2")."""

from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING

from shapecheck.shapes.args import Args, Hidden
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.values import Conflict

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

MASKED_FILL = frozenset({"masked_fill", "masked_fill_"})
FUNCTIONS = frozenset({"torch.masked_fill", "torch.where"})


def mask_conflict(ev: ShapeEvaluator, call: cst.Call) -> Conflict | None:
    try:
        operands = _operands(ev, call)
    except Hidden:
        return None
    if operands is None:
        return None
    known = [(expr, ev.shape_of(expr)) for expr in operands]
    known = [(expr, shape) for expr, shape in known if shape is not None]
    for i, (left_expr, left) in enumerate(known):
        for right_expr, right in known[i + 1:]:
            mismatch = broadcast(left, right).mismatch
            if mismatch is not None:
                _, a, b = mismatch
                return Conflict("broadcast", call, (left, right),
                                f"`{ev.ctx.code(call)}`: {ev.ctx.code(left_expr)} is {left.render()} and "
                                f"{ev.ctx.code(right_expr)} is {right.render()}: {a} and {b} don't broadcast")
    return None


def _operands(ev: ShapeEvaluator, call: cst.Call) -> list[cst.BaseExpression] | None:
    """The tensor and the mask (for `where`, the condition and both branches) of a masking call."""
    func = call.func
    qualname = ev.ctx.qualname(func)
    if qualname is None and type(func) is cst.Attribute and func.attr.value in MASKED_FILL:
        mask = Args(call).get(0, "mask")
        return [func.value, mask] if mask is not None else None
    if qualname in FUNCTIONS:
        args = Args(call)
        if qualname == "torch.where":
            parts = [args.get(0, "condition"), args.get(1, "input"), args.get(2, "other")]
        else:
            parts = [args.get(0, "input"), args.get(1, "mask")]
        return [part for part in parts if part is not None]
    return None
