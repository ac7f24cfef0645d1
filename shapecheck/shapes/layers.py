"""What calling a module gives: the hook the evaluator asks when a call's callee is not a torch function
(`self.fc(x)`, `model(x)`, `self.blocks(x)`).

`call_result(ctx, call, inputs)` returns the Shape (or, for modules that return tuples, an `Items`) of the call's
result, given the shapes of its positional arguments (None where unknown); None when the callee isn't understood.
`call_conflict(ctx, call, inputs)` returns a Conflict when the module certainly rejects its input's shape.

Modules are found through bindings: `self.fc = nn.Linear(d, 1)` in `__init__`, `fc = nn.Linear(...)` at module or
function level. Sizes in the constructor's arguments are read with the evaluator as of the binding.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Binding, Context
from shapecheck.shapes.conflicts import Conflict
from shapecheck.shapes.dims import Dim, same
from shapecheck.shapes.shape import Shape

LINEAR = frozenset({"torch.nn.Linear", "torch.nn.modules.linear.Linear"})
# torch modules whose output may be a transposed view of fresh memory (batch_first RNNs, attention).
RETURNS_VIEWS = frozenset(f"torch.nn.{name}" for name in ("LSTM", "GRU", "RNN", "MultiheadAttention"))
# Modules whose output has their input's shape and layout.
SAME_SHAPE = frozenset(f"torch.nn.{name}" for name in (
    "Dropout", "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Identity", "LeakyReLU"))


def _constructor(ctx: Context, call: cst.Call) -> tuple[cst.Call, str, Binding | None] | None:
    """The `nn.X(...)` call a callee was bound to, its qualname and the binding (None: written inline)."""
    func = call.func
    binding = None
    if type(func) is cst.Call:
        value = func
    elif type(func) is cst.Name or type(func) is cst.Attribute:
        binding = ctx.binding(func)
        if binding is None or binding.kind != "assign":
            return None
        value = binding.value
    else:
        return None
    if type(value) is not cst.Call:
        return None
    qualname = ctx.qualname(value.func)
    return (value, qualname, binding) if qualname is not None else None


def _argument(call: cst.Call, index: int, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in call.args):
        return None
    return positional[index].value if index < len(positional) else None


def _size(ctx: Context, expr: cst.BaseExpression | None, binding: Binding | None) -> Dim | None:
    """A constructor argument as a Dim, its names read where the layer was bound."""
    if expr is None:
        return None
    return ctx.shapes.dim_of(expr) if binding is None else ctx.shapes.dim_in(expr, binding)


def _linear_sizes(ctx: Context, constructor: cst.Call, binding: Binding | None) -> tuple[Dim, Dim] | None:
    in_features = _size(ctx, _argument(constructor, 0, "in_features"), binding)
    out_features = _size(ctx, _argument(constructor, 1, "out_features"), binding)
    if in_features is None or out_features is None:
        return None
    return in_features, out_features


def call_result(ctx: Context, call: cst.Call, inputs: tuple[Shape | None, ...]):
    found = _constructor(ctx, call)
    if found is None or not inputs or inputs[0] is None:
        return None
    constructor, qualname, before = found
    x = inputs[0]
    if qualname in SAME_SHAPE:
        return x
    if qualname in LINEAR:
        sizes = _linear_sizes(ctx, constructor, before)
        last = x.size(-1)
        if sizes is None or last is None or same(last, sizes[0]) is False:
            return None
        return Shape(x.dims[:-1] + (sizes[1],), x.variadic, x.variadic_name, tuple(range(len(x.dims))), x.dtype)
    return None


def call_conflict(ctx: Context, call: cst.Call, inputs: tuple[Shape | None, ...]) -> Conflict | None:
    found = _constructor(ctx, call)
    if found is None or not inputs or inputs[0] is None:
        return None
    constructor, qualname, before = found
    x = inputs[0]
    if qualname in LINEAR:
        sizes = _linear_sizes(ctx, constructor, before)
        last = x.size(-1)
        if sizes is not None and last is not None and same(last, sizes[0]) is False:
            layer = ctx.code(call.func)
            return Conflict("layer", call, (x,),
                            f"`{layer}` is a Linear with in_features={sizes[0]}, but its input is {x.render()}, "
                            f"whose last dim is {last}")
    return None


def returns_views(ctx: Context, constructor: cst.Call) -> bool:
    """The module may return a transposed view of its output (batch_first RNNs, attention): its layout is unknown."""
    return ctx.qualname(constructor.func) in RETURNS_VIEWS
