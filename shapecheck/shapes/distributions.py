"""`torch.distributions`: the batch and event shapes a distribution is built with, and what its `sample`,
`rsample`, `log_prob`, `cdf`, `icdf` and `entropy` give, as PyTorch defines them (a sample is `sample_shape +
batch_shape + event_shape`; `log_prob(value)` drops the event dims and broadcasts the rest with the batch).

A policy's `Normal(mu, std).log_prob(actions)` is where reinforcement-learning code meets the broadcasting bugs
SC104 reports: a (B, 1) log-probability times a (B,) advantage is (B, B)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim
from shapecheck.objects.values import Const, TorchObject
from shapecheck.shapes.args import Args
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# class -> its parameters that set the batch shape together (by position, then keyword); the event is scalar
_ELEMENTWISE = {
    "Normal": ("loc", "scale"), "Laplace": ("loc", "scale"), "Cauchy": ("loc", "scale"),
    "LogNormal": ("loc", "scale"), "Gumbel": ("loc", "scale"), "Uniform": ("low", "high"),
    "Beta": ("concentration1", "concentration0"), "Gamma": ("concentration", "rate"), "Exponential": ("rate",),
    "Poisson": ("rate",), "Bernoulli": ("probs", "logits"),
}
# class -> how many trailing dims of its `probs`/`logits` (or `loc`) are one event's, not the batch's: a categorical
# distribution's last dim is its classes
_LAST_DIM = {"Categorical": 0, "OneHotCategorical": 1, "MultivariateNormal": 1}
_INTEGER_SAMPLES = frozenset({"Categorical"})
_METHODS = frozenset({"sample", "rsample", "log_prob", "cdf", "icdf", "entropy"})


def is_distribution(value: object) -> bool:
    return isinstance(value, TorchObject) and value.qualname.startswith("torch.distributions.")


def method(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """What `dist.sample()`, `dist.log_prob(x)`... give, for a distribution the code builds; None otherwise."""
    func = node.func
    if type(func) is not cst.Attribute or func.attr.value not in _METHODS:
        return None
    built = ev.object(func.value, before)
    if not is_distribution(built):
        return None
    kind = built.qualname.rsplit(".", 1)[-1]
    shapes = _batch_and_event(ev, built, kind)
    if shapes is None:
        return None
    batch, event = shapes
    name = func.attr.value
    args = Args(node, 0)
    if name in ("sample", "rsample", "entropy") and batch.variadic is not None:
        return None  # a parameter of unknown rank: the batch's dims are not known, only that they follow the draw
    if name in ("sample", "rsample"):
        sample_shape = args.get(0, "sample_shape")
        drawn = ev.sizes(sample_shape, before) if sample_shape is not None else Shape(())
        if drawn is None or drawn.variadic is not None:
            return None
        dims = drawn.dims + batch.dims + event
        return Shape(dims, layout=tuple(range(len(dims))), dtype="int" if kind in _INTEGER_SAMPLES else "float")
    if name == "entropy":
        return Shape(batch.dims, layout=tuple(range(len(batch.dims))), dtype="float")
    value = ev.tensor(args.get(0, "value"), before)
    if value is None or value.variadic is not None or len(value.dims) < len(event):
        return None
    found = broadcast(Shape(value.dims[:len(value.dims) - len(event)]), batch).shape
    return None if found is None else Shape(found.dims, found.variadic, found.variadic_name,
                                            tuple(range(len(found.dims))) if found.variadic is None else None, "float")


def _batch_and_event(ev: ShapeEvaluator, built: TorchObject, kind: str) -> tuple[Shape, tuple[Dim, ...]] | None:
    if kind in _ELEMENTWISE:
        parameters = [_parameter(ev, built, index, name) for index, name in enumerate(_ELEMENTWISE[kind])]
        given = [p for p in parameters if p is not False]
        if not given or any(p is None for p in given):
            return None
        batch = given[0]
        for other in given[1:]:
            batch = broadcast(batch, other).shape  # type: ignore[arg-type]
            if batch is None:
                return None
        return batch, ()  # type: ignore[return-value]
    if kind in _LAST_DIM:
        names = ("loc",) if kind == "MultivariateNormal" else ("probs", "logits")
        given = [p for p in (_parameter(ev, built, index, name) for index, name in enumerate(names)) if p is not False]
        if len(given) != 1 or given[0] is None or given[0].variadic is not None or not given[0].dims:
            return None
        dims = given[0].dims
        return Shape(dims[:-1]), dims[len(dims) - 1:] if _LAST_DIM[kind] else ()
    return None


def _parameter(ev: ShapeEvaluator, built: TorchObject, index: int, name: str) -> Shape | None | bool:
    """The shape of one constructor parameter: a tensor's, a number's (no dims); None when unknown, False when
    the code does not pass it."""
    expr = built.argument(index, name)
    if expr is None:
        return False
    if built.site is None:
        return None
    shape = built.site.read("tensor", expr)
    if isinstance(shape, Shape):
        return shape
    value = built.site.read("value", expr)
    return Shape(()) if isinstance(value, Dim) or isinstance(value, Const) and type(value.value) is float else None
