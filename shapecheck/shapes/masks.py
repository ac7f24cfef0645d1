"""Masks that cannot line up with the tensor they mask: `scores.masked_fill(mask, v)`, `torch.masked_fill(...)` and
`torch.where(cond, a, b)` raise when the mask's dims and the tensor's can't broadcast ("The size of tensor a (T) must
match the size of tensor b (S) at non-singleton dimension 2"), and so does `F.scaled_dot_product_attention`'s
`attn_mask` against the (..., L, S) scores of its query and key."""

from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING

from shapecheck.shapes.args import Args, Hidden
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.positions import replaced
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Conflict

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

MASKED_FILL = frozenset({"masked_fill", "masked_fill_"})
FUNCTIONS = frozenset({"torch.masked_fill", "torch.where"})


def mask_conflict(ev: ShapeEvaluator, call: cst.Call, before: int) -> Conflict | None:
    """A masking call whose mask and tensor (or condition and branches) can't broadcast, read as of `before`."""
    try:
        operands = _operands(ev, call)
    except Hidden:
        return None
    if operands is None:
        return None
    known = [(expr, ev.tensor(expr, before)) for expr in operands]
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


def attention_mask_conflict(ev: ShapeEvaluator, call: cst.Call, before: int) -> Conflict | None:
    """`F.scaled_dot_product_attention(q, k, v, attn_mask=mask)` with a mask that doesn't broadcast to the scores:
    q's dims with the last one the key's length."""
    args = Args(call, 0)
    mask_expr, query_expr, key_expr = args.get(3, "attn_mask"), args.get(0, "query"), args.get(1, "key")
    if mask_expr is None or query_expr is None or key_expr is None:
        return None
    mask, query, key = (ev.tensor(expr, before) for expr in (mask_expr, query_expr, key_expr))
    if mask is None or query is None or key is None or query.rank is None or key.rank is None or key.rank < 2 \
            or query.rank < 2:
        return None
    scores = replaced(query, query.rank - 1, key.dims[-2])
    code = ev.ctx.code
    said = f"`{' '.join(code(call).split())}`: attn_mask {code(mask_expr)} is {mask.render()}, but the scores of " \
        f"{code(query_expr)} and {code(key_expr)} are {scores.render()}"
    mismatch = broadcast(mask, scores).mismatch
    if mismatch is not None:
        _, a, b = mismatch
        return Conflict("broadcast", call, (mask, scores), f"{said}: {a} and {b} don't broadcast")
    length = _batch_for_length(mask, scores)
    if length is None:
        return None
    return Conflict("broadcast", call, (mask, scores),
                    f"{said}: the mask's batch dim ({scores.dims[0]}) lines up with their length ({length}); a "
                    f"(batch, length) mask wants `mask[:, None, None, :]`")


def _batch_for_length(mask: Shape, scores: Shape) -> Dim | None:
    """The length of the (batch, ..., L, S) scores that a mask's batch dim lines up with, right-aligned, where the
    two are not known to be one size (a (batch, length) padding mask given as it is, the batch against the query's
    length): it raises unless they happen to be equal, and then masks the wrong entries."""
    if mask.variadic is not None or scores.variadic is not None or scores.rank is None or scores.rank < 3:
        return None
    batch = scores.dims[0]
    for k in (1, 2):
        if k <= len(mask.dims) and same(mask.dims[-k], batch) is True and same(scores.dims[-k], batch) is not True:
            return scores.dims[-k]
    return None
