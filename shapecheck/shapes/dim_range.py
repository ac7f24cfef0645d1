"""Dim arguments out of range: `x.chunk(3, dim=3)` on a 3-d tensor raises "Dimension out of range (expected to be
in range of [-3, 2], but got 3)" whatever the sizes are, so only the tensor's rank and the literal dim matter."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args
from shapecheck.shapes.values import Conflict

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# method -> its dim arguments, each as (position after the tensor, keywords). Only methods whose dim must name an
# existing dim: `unsqueeze` (which may name one past the end) is left out, and a reduction's dim is checked only
# when it is one int (`x.sum((1, 2))` and `torch.max(a, b)` of two tensors are not read).
DIM_ARGUMENTS: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {
    "chunk": ((1, ("dim",)),),
    "split": ((1, ("dim",)),),
    "tensor_split": ((1, ("dim",)),),
    "unbind": ((0, ("dim",)),),
    "narrow": ((0, ("dim",)),),
    "select": ((0, ("dim",)),),
    "index_select": ((0, ("dim",)),),
    "movedim": ((0, ("source",)), (1, ("destination",))),
    "moveaxis": ((0, ("source",)), (1, ("destination",))),
    "transpose": ((0, ("dim0",)), (1, ("dim1",))),
    "swapaxes": ((0, ("axis0",)), (1, ("axis1",))),
    "swapdims": ((0, ("dim0",)), (1, ("dim1",))),
    "softmax": ((0, ("dim",)),),
    "log_softmax": ((0, ("dim",)),),
    "cumsum": ((0, ("dim",)),),
    "cumprod": ((0, ("dim",)),),
    **{name: ((0, ("dim",)),) for name in ("argmax", "argmin", "max", "min", "sum", "mean", "prod", "std", "var",
                                            "amax", "amin", "logsumexp", "sort", "argsort", "cummax", "cummin")},
    "topk": ((1, ("dim",)),),
}
FUNCTIONS = {f"torch.{name}": name for name in DIM_ARGUMENTS}


def out_of_range(ev: ShapeEvaluator, node: cst.Call, method: str, receiver: cst.BaseExpression | None,
                 before: int) -> Conflict | None:
    """The conflict of `node`, a call of `method` on `receiver` (a method call) or of `torch.method` (None:
    the tensor is the first argument), when a dim it names is past the tensor's known rank."""
    arguments = DIM_ARGUMENTS[method]
    args = Args(node, 0 if receiver is not None else 1)
    tensor = receiver if receiver is not None else Args(node).get(0, "input")
    shape = ev.tensor(tensor, before) if tensor is not None else None
    if shape is None or shape.rank is None:
        return None
    rank = shape.rank
    for index, keywords in arguments:
        expr = args.get(index, *keywords)
        if expr is None or type(expr) in (cst.Tuple, cst.List):
            continue
        dim = ev.integer(expr, before)
        if dim is None or -max(rank, 1) <= dim < max(rank, 1):
            continue
        code = ev.ctx.code
        low, high = -max(rank, 1), max(rank, 1) - 1
        return Conflict("dim", node, (shape,),
                        f"`{code(node)}`: dim {dim} is out of range for {code(tensor)}, a {rank}-d tensor "
                        f"{shape.render()}: dims go from {low} to {high}")
    return None
