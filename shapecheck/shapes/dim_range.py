"""Dim arguments out of range: `x.chunk(3, dim=3)` on a 3-d tensor raises "Dimension out of range (expected to be
in range of [-3, 2], but got 3)" whatever the sizes are, so only the tensor's rank and the literal dim matter. And
an int index past a dim's literal size: `h_n[1]` of a one-layer RNN's (1, B, H) state raises IndexError."""

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


def literal_index(node: cst.Subscript) -> tuple[int, int] | None:
    """(dim, index) of the first int a subscript writes, where only slices and ints come before it (each takes one
    dim); None for anything else first (`None`, `...`, a tensor or a name as index)."""
    for position, element in enumerate(node.slice):
        inner = element.slice
        if type(inner) is cst.Slice:
            continue
        if type(inner) is not cst.Index:
            return None
        value = inner.value
        negative = type(value) is cst.UnaryOperation and type(value.operator) is cst.Minus
        number = value.expression if negative else value  # type: ignore[attr-defined]
        if type(number) is not cst.Integer:
            return None
        return position, -number.evaluated_value if negative else number.evaluated_value
    return None


def index_out_of_range(ev: ShapeEvaluator, node: cst.Subscript, before: int) -> Conflict | None:
    """The conflict of an int index past the literal size of the dim it indexes."""
    found = literal_index(node)
    shape = ev.tensor(node.value, before) if found is not None else None
    if found is None or shape is None:
        return None
    position, index = found
    if shape.variadic is not None and position >= shape.variadic or position >= len(shape.dims):
        return None
    size = shape.dims[position].literal
    if size is None or -size <= index < size:
        return None
    code = ev.ctx.code
    return Conflict("index", node, (shape,),
                    f"`{code(node)}`: index {index} is out of range for dim {position} of {code(node.value)}, a "
                    f"{shape.render()} tensor, whose size there is {size}")
