"""Loss calls: which loss, which expression is the input and which the target, and the shape a loss module's value.

`F.mse_loss(pred, y)`, `nn.MSELoss()(pred, y)` and `criterion(pred, y)` with `criterion = nn.MSELoss()` (a local
name or a `self.` attribute bound in `__init__`) are the same fact: an element-wise regression loss of `pred`
against `y`. A call whose arguments can't be told apart (`*args`, `**kwargs`) is not a loss call here.

A loss module's value (the functional forms are `functional.py`'s) is a scalar under the default `reduction="mean"` and under `"sum"`; under `"none"` it keeps a value per
element: the broadcast of input and target for the element-wise and binary losses, the input without its class dim
(dim 1) for `cross_entropy`/`nll_loss`. The legacy `size_average=`/`reduce=` arguments or a reduction that is not a
string literal leave it unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import keyword_arg
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import Evaluator

LossKind = Literal["elementwise", "binary", "class"]

_FUNCTIONAL = "torch.nn.functional."
# name of the functional form -> (kind, name of the nn module)
_LOSSES: dict[str, tuple[LossKind, str]] = {
    "mse_loss": ("elementwise", "MSELoss"),
    "l1_loss": ("elementwise", "L1Loss"),
    "smooth_l1_loss": ("elementwise", "SmoothL1Loss"),
    "huber_loss": ("elementwise", "HuberLoss"),
    "binary_cross_entropy": ("binary", "BCELoss"),
    "binary_cross_entropy_with_logits": ("binary", "BCEWithLogitsLoss"),
    "cross_entropy": ("class", "CrossEntropyLoss"),
    "nll_loss": ("class", "NLLLoss"),
}
_BY_QUALNAME: dict[str, tuple[LossKind, str]] = {}
for _function, (_kind, _module) in _LOSSES.items():
    for _qualname in (_FUNCTIONAL + _function, f"torch.nn.{_module}", f"torch.nn.modules.loss.{_module}"):
        _BY_QUALNAME[_qualname] = (_kind, _function)
# torch.* aliases of the functional forms
_TORCH_FUNCTIONS = frozenset({"torch.binary_cross_entropy_with_logits"})
_BY_QUALNAME.update({name: _BY_QUALNAME[_FUNCTIONAL + name.split(".")[-1]] for name in _TORCH_FUNCTIONS})


@dataclass(frozen=True, slots=True)
class LossCall:
    kind: LossKind  # elementwise (mse/l1/...), binary (BCE), class (cross_entropy/nll)
    function: str  # the functional name: "mse_loss", "cross_entropy", ...
    input: cst.BaseExpression
    target: cst.BaseExpression
    reduction: str | None  # "mean", "sum", "none"; None when the code doesn't say it plainly


def loss_call(ctx: Context, call: cst.Call, before: int | None = None) -> LossCall | None:
    """The loss `call` computes, with its input and target; None when it is not one of the losses above."""
    qualname = ctx.qualname(call.func)
    settings = call  # the call that holds `reduction=`
    if qualname is None:  # an nn module: `nn.MSELoss()(...)`, `criterion(...)`, `self.criterion(...)`
        constructor, _ = ctx.value_of(call.func, before)
        if type(constructor) is not cst.Call:
            return None
        qualname = ctx.qualname(constructor.func)
        if qualname is None or qualname.startswith(_FUNCTIONAL):
            return None
        settings = constructor
    elif not qualname.startswith(_FUNCTIONAL) and qualname not in _TORCH_FUNCTIONS:
        return None  # `nn.MSELoss(...)` builds the module, it computes nothing
    found = _BY_QUALNAME.get(qualname)
    if found is None or any(arg.star for arg in call.args):
        return None
    positional = [arg for arg in call.args if arg.keyword is None]
    values = []
    for index, name in enumerate(("input", "target")):
        arg = keyword_arg(call, name) or (positional[index] if len(positional) > index else None)
        if arg is None:
            return None
        values.append(arg.value)
    kind, function = found
    # positional arguments before the legacy `size_average`: input and target, or the module's `weight`
    leading = 2 if settings is call else int(kind != "elementwise")
    return LossCall(kind, function, values[0], values[1], _reduction(settings, leading))


def _reduction(call: cst.Call, leading: int) -> str | None:
    if keyword_arg(call, "size_average") is not None or keyword_arg(call, "reduce") is not None \
            or sum(1 for arg in call.args if arg.keyword is None) > leading:
        return None
    arg = keyword_arg(call, "reduction")
    if arg is None:
        return "mean"
    value = arg.value
    return value.evaluated_value if type(value) is cst.SimpleString else None


def loss_result(ev: Evaluator, call: cst.Call, before: int) -> Shape | None:
    """The shape of the value a loss *module* computes (`criterion(out, y)`); None when `call` isn't one or the shape
    is unknown. The functional forms are `functional.py`'s."""
    loss = loss_call(ev.ctx, call, before)
    if loss is None or loss.reduction is None or ev.ctx.qualname(call.func) is not None:
        return None
    if loss.reduction in ("mean", "sum"):
        return Shape.of(dtype="float")
    if loss.reduction != "none":
        return None
    prediction = ev.tensor(loss.input, before)
    if prediction is None:
        return None
    if loss.kind == "class":
        if prediction.rank is None or prediction.rank < 1:
            return None
        kept = prediction.dims[:1] + prediction.dims[2:] if prediction.rank >= 2 else ()
        return Shape.of(*kept, dtype="float")
    target = ev.tensor(loss.target, before)
    return None if target is None else broadcast(prediction, target).shape
