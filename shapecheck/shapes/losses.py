"""Losses, in one table for both forms: which loss a call computes, which expression is its input and which its
target, its `reduction`, and the shape of its value.

`F.mse_loss(pred, y)`, `nn.MSELoss()(pred, y)` and `criterion(pred, y)` where `criterion` holds an `nn.MSELoss()`
(a local name, a `self.` attribute built in `__init__`, what a helper returned: whatever the objects floor says the
callee holds) are the same fact: an element-wise regression loss of `pred` against `y`. A call whose arguments can't
be told apart (`*args`, `**kwargs`) is not a loss call here.

The value is a scalar under the default `reduction="mean"` and under `"sum"`; under `"none"` it keeps a value per
element: the broadcast of input and target for the element-wise losses, the input's shape for the binary ones
(torch requires the target's to be the same), the input without its class dim
(dim 1) for `cross_entropy`/`nll_loss` (the target's shape when the target holds class indices). The legacy
`size_average=`/`reduce=` arguments or a reduction that is not a string literal leave it unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import keyword_arg
from shapecheck.objects.builtins import literal_of
from shapecheck.objects.calls import stated_keyword
from shapecheck.objects.values import Imported, TorchObject, constant_of
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

LossKind = Literal["elementwise", "binary", "class"]


def _pointwise(x: Shape, target: Shape | None) -> Shape | None:
    """`F.mse_loss` and its kin: the broadcast of input and target."""
    return broadcast(x, target).shape if target is not None else None


def _per_element(x: Shape, target: Shape | None) -> Shape | None:
    """`F.binary_cross_entropy` and its logits form: torch raises unless the target has the input's shape, so a
    target of unknown shape (labels a Dataset of another file gives) leaves the input's."""
    return x if target is None or target.rank is None else _pointwise(x, target)


def _per_target(x: Shape, target: Shape | None) -> Shape | None:
    """`F.cross_entropy` / `F.nll_loss`: one loss per target (class indices: the target's shape; class
    probabilities: the input's without the class dim). A target of unknown shape (labels a model returns) is one
    or the other, so a (N, C, ...) input tells the loss's shape alone."""
    if x.rank is None:
        return None
    if target is None or target.rank is None:
        return Shape(x.dims[:1] + x.dims[2:]) if x.rank >= 2 else None
    if target.rank == x.rank - 1:
        return target
    if target.rank == x.rank and x.rank >= 2:
        return Shape(x.dims[:1] + x.dims[2:])
    return None


def _per_row(x: Shape, other: Shape | None) -> Shape | None:
    """`F.cosine_embedding_loss(x1, x2, y)`, `F.triplet_margin_loss(anchor, positive, negative)`: one loss per pair
    or triplet of rows, the input without its last dim (the embedding)."""
    return Shape(x.dims[:-1]) if x.rank and x.variadic is None else None


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Loss:
    function: str  # the functional form's name: "mse_loss"
    module: str  # the nn module's class: "MSELoss"
    kind: LossKind | None  # what the loss rules check; None: only its value's shape is known
    reduction_at: int  # the position of `reduction` among the functional form's parameters
    leading: int  # positional constructor arguments before the legacy ones (`weight`)
    unreduced: Callable[[Shape, Shape | None], Shape | None]
    tensors: int = 2  # the tensors the functional form takes first: input and target, or a pair and its label


LOSSES = (
    Loss("mse_loss", "MSELoss", "elementwise", 4, 0, _pointwise),
    Loss("l1_loss", "L1Loss", "elementwise", 4, 0, _pointwise),
    Loss("smooth_l1_loss", "SmoothL1Loss", "elementwise", 4, 0, _pointwise),
    Loss("huber_loss", "HuberLoss", "elementwise", 2, 0, _pointwise),
    Loss("kl_div", "KLDivLoss", None, 4, 0, _pointwise),
    Loss("soft_margin_loss", "SoftMarginLoss", None, 4, 0, _pointwise),
    # a contrastive loss of distances against +1/-1 pair labels, one value per pair under "none"
    Loss("hinge_embedding_loss", "HingeEmbeddingLoss", None, 5, 1, _pointwise),
    # losses of pairs and triplets of rows (embeddings against each other; scores ranked against +1/-1 labels): the
    # `input` and `target` read are the first two of their tensors, the value is one loss per pair under "none"
    Loss("cosine_embedding_loss", "CosineEmbeddingLoss", None, 6, 1, _per_row, 3),
    Loss("margin_ranking_loss", "MarginRankingLoss", None, 6, 1, _pointwise, 3),
    Loss("triplet_margin_loss", "TripletMarginLoss", None, 9, 4, _per_row, 3),
    Loss("binary_cross_entropy", "BCELoss", "binary", 5, 1, _per_element),
    Loss("binary_cross_entropy_with_logits", "BCEWithLogitsLoss", "binary", 5, 1, _per_element),
    Loss("cross_entropy", "CrossEntropyLoss", "class", 6, 1, _per_target),
    Loss("nll_loss", "NLLLoss", "class", 6, 1, _per_target),
)
_FUNCTIONAL = "torch.nn.functional."
# qualname of either form -> the loss
_BY_QUALNAME: dict[str, Loss] = {}
for _loss in LOSSES:
    for _qualname in (_FUNCTIONAL + _loss.function, f"torch.nn.{_loss.module}", f"torch.nn.modules.loss.{_loss.module}"):
        _BY_QUALNAME[_qualname] = _loss
# torch.* aliases of the functional forms
_TORCH_FUNCTIONS = frozenset({"torch.binary_cross_entropy_with_logits"})
_BY_QUALNAME.update({name: _BY_QUALNAME[_FUNCTIONAL + name.split(".")[-1]] for name in _TORCH_FUNCTIONS})


def is_loss_qualname(qualname: str) -> bool:
    """Whether `qualname` names one of the losses above, in either form (`torch.nn.functional.mse_loss`,
    `torch.nn.BCEWithLogitsLoss`)."""
    return qualname in _BY_QUALNAME


@record(slots=True, unsafe_hash=True)
class LossCall:
    loss: Loss
    input: cst.BaseExpression
    target: cst.BaseExpression
    reduction: str | None  # "mean", "sum", "none"; None when the code doesn't say it plainly
    # whether a target value may be skipped (`ignore_index`, or a constructor the analysis can't read)
    may_ignore: bool = True

    @property
    def kind(self) -> LossKind | None:
        return self.loss.kind

    @property
    def function(self) -> str:
        return self.loss.function


def loss_call(ev: ShapeEvaluator, call: cst.Call, before: int | None = None) -> LossCall | None:
    """The loss `call` computes, with its input and target; None when it is not one of the losses above."""
    # what the arguments must be, read first: the callee's value may build an object (`super().forward(x)`)
    values = loss_arguments(call)
    if values is None:
        return None
    before = ev.now() if before is None else before
    callee = ev.object(call.func, before)
    if not computes_loss(callee):  # `nn.MSELoss(...)` builds the module, it computes nothing
        return None
    loss = _BY_QUALNAME[callee.qualname]  # type: ignore[union-attr]
    if isinstance(callee, Imported):  # the functional form: `F.mse_loss(...)`
        reduction = _reduction(call, loss.reduction_at, loss.tensors, lambda expr: ev.object(expr, before))
        may_ignore = _may_ignore(call, 2 + _IGNORE_INDEX_AFTER)
    elif callee.qualname.startswith(_FUNCTIONAL):  # type: ignore[union-attr]
        # `partial(F.cross_entropy, **kwargs)`: the partial's arguments follow the function it binds, by keyword
        bound: cst.Call = callee.call  # type: ignore[union-attr,assignment]
        if sum(1 for arg in bound.args if arg.keyword is None and not arg.star) > 1:
            return None  # it binds the input too
        reduction = _reduction(bound, None, 1, _site_reader(callee))  # type: ignore[arg-type]
        may_ignore = _may_ignore(bound, 1)
    else:  # an nn module: `nn.MSELoss()(...)`, `criterion(...)`, `self.loss_fn(...)`
        module: TorchObject = callee  # type: ignore[assignment]
        reduction = _reduction(module.call, None, loss.leading, _site_reader(module)) \
            if module.call is not None else None
        may_ignore = module.call is None or _may_ignore(module.call, _IGNORE_INDEX_AFTER)
    return LossCall(loss, values[0], values[1], reduction, may_ignore)


def _site_reader(module: TorchObject) -> Callable[[cst.BaseExpression], object]:
    """How a loss module's constructor arguments are read: where it was built (a `reduction` a factory was
    handed), else only as the literals they are."""
    site = module.site
    return constant_of if site is None else lambda expr: site.read("value", expr)


def loss_arguments(call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """The input and the target `call` passes as a loss takes them (by keyword, else in the first two places); None
    when it passes fewer or unpacks some (`*args`): then it computes no loss `loss_call` reads, whatever its callee."""
    if len(call.args) < 2 or any(arg.star for arg in call.args):  # an input and a target, most calls have fewer
        return None
    positional = [arg for arg in call.args if arg.keyword is None]
    values = []
    for index, name in enumerate(("input", "target")):
        arg = keyword_arg(call, name) or (positional[index] if len(positional) > index else None)
        if arg is None:
            return None
        values.append(arg.value)
    return values[0], values[1]


# `ignore_index` follows `weight` and `size_average` in both forms' signatures (after input and target in F's)
_IGNORE_INDEX_AFTER = 2


def _may_ignore(call: cst.Call, position: int) -> bool:
    positional = sum(1 for arg in call.args if arg.keyword is None)
    return positional > position or any(arg.star for arg in call.args) or keyword_arg(call, "ignore_index") is not None


def _reduction(call: cst.Call, position: int | None, leading: int, read: Callable[[cst.BaseExpression], object]
               ) -> str | None:
    """The `reduction` a call states, each argument read by `read` where the call sits: by keyword (written out or
    in a `**kwargs` a factory was handed), or (functional forms) at its position; "mean" by default; None when the
    legacy `size_average`/`reduce` are passed, a spread the analysis cannot read may pass it, or it is not a string
    the code states."""
    if any(stated_keyword(call, legacy, read) is not None for legacy in ("size_average", "reduce")):
        return None
    if any(arg.star == "*" for arg in call.args):
        return None
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    value = stated_keyword(call, "reduction", read)
    if value is None:
        if position is not None and len(positional) > position:
            value = read(positional[position])
        elif len(positional) > leading:
            return None  # the legacy arguments, passed by position
        else:
            return "mean"
    stated = literal_of(value)
    return stated if isinstance(stated, str) else None


def computes_loss(callee: object) -> bool:
    """Calling `callee` computes a loss of the table: a functional form under any name (`loss_fn = F.mse_loss`), one
    a `functools.partial` binds arguments of, or a loss module (`criterion = nn.MSELoss()`), as `loss_call` reads
    them."""
    if isinstance(callee, Imported):
        return callee.qualname in _BY_QUALNAME and (callee.qualname.startswith(_FUNCTIONAL)
                                                   or callee.qualname in _TORCH_FUNCTIONS)
    return isinstance(callee, TorchObject) and callee.qualname in _BY_QUALNAME \
        and (callee.call is not None or not callee.qualname.startswith(_FUNCTIONAL))


def loss_result(ev: ShapeEvaluator, call: cst.Call, before: int) -> Shape | None:
    """The shape of the value a loss call computes (either form); None when `call` isn't one or the shape is
    unknown."""
    loss = loss_call(ev, call, before)
    if loss is None or loss.reduction is None:
        return None
    if loss.reduction in ("mean", "sum"):
        return Shape((), layout=(), dtype="float")
    if loss.reduction != "none":
        return None
    x = ev.tensor(loss.input, before)
    if x is None:
        return None
    result = loss.loss.unreduced(x, ev.tensor(loss.target, before))
    return result.row_major().with_dtype("float") if result is not None else None


def _functional(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    return loss_result(ev, node, before)


FUNCTIONS = {f"F.{loss.function}": _functional for loss in LOSSES}
