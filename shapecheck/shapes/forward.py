"""The project's code run on the shapes of a call: a model's `forward` (`model = Net()` then `model(torch.randn(64,
1, 28, 28))`), and any function or method of the project (`head.loss(logits, y)`), for what it returns and the first
operation that certainly fails in it. A model of the project, run on the shapes of a call: `model = Net()` then `model(torch.randn(64, 1, 28, 28))`
runs `Net.forward` with `x` bound to (64, 1, 28, 28) and `self` to the instance `Net()` built (its layers, the
constructor's arguments with defaults bound), through the objects floor's calls (`shapecheck.objects.calls`).

What a run gives: the value `forward` returns (a shape, or a tuple of shapes), and the first operation of it that
certainly fails on these inputs but not on the inputs `forward` states itself (those are reported inside `forward`
already), among the statements that run on every call: a branch the call may not take proves nothing. The
instance a model class's methods see on their own (a generic instance: constructor arguments unknown) gives the
comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.walker import children
from shapecheck.objects.calls import Run
from shapecheck.objects.classes import function_facts
from shapecheck.objects.values import UNKNOWN, FunctionValue, Instance
from shapecheck.shapes.nn_modules import UNKNOWN as UNKNOWN_RESULT, Applied, Layer, Mismatch
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


@dataclass(frozen=True, eq=False)
class Model(Layer):
    """An instance of a project class with its own `forward`."""

    instance: Instance
    forward: FunctionValue
    evaluator: ShapeEvaluator
    spelled: str = ""

    def apply(self, inputs):
        return run(self, inputs)


def model(ev: ShapeEvaluator, instance: Instance) -> Model | None:
    """The model an instance is, when its class (or a project base) defines `forward` and no `__call__`."""
    calls = ev.calls
    if calls.method(instance.cls, "__call__") is not None:
        return None
    found = calls.method(instance.cls, "forward")
    if found is None:
        return None
    node, owner = found
    if node.decorators:
        return None
    forward = FunctionValue(node, owner.ctx, instance, owner)
    return Model(instance, forward, calls.evaluator_for(owner.ctx), instance.cls.name + "()")


def run(model: Model, inputs: tuple[Shape | None, ...]) -> Applied:
    """`forward` run on `inputs`, once per instance and shapes (a call's result and its conflict ask alike)."""
    ev = model.evaluator
    args = _arguments(model.forward, inputs)
    if args is None:
        return UNKNOWN_RESULT
    done = ev.calls.run(model.forward, args)
    if done.frame is None:
        return UNKNOWN_RESULT
    mismatch = _first_conflict(ev, model, done)
    if mismatch is not None:
        return Applied(None, mismatch)
    value = done.value
    return Applied(value if isinstance(value, (Shape, Items)) else None)


def _arguments(forward: FunctionValue, inputs: tuple[Shape | None, ...]) -> dict[str, object] | None:
    """`forward`'s parameters for these positional inputs (None: not known to be a tensor), defaults for the rest;
    None when the inputs don't fit its signature."""
    facts = function_facts(forward.ctx, forward.node)
    params = list(facts.params)[1:]
    if len(inputs) > len(params) or facts.star is not None:
        return None
    values: dict[str, object] = {facts.params[0].name.value: forward.bound}
    for param, shape in zip(params, inputs):
        values[param.name.value] = shape if shape is not None else UNKNOWN
    for param in (*params[len(inputs):], *facts.kwonly):
        values[param.name.value] = UNKNOWN
    if facts.star_kwargs is not None:
        values[facts.star_kwargs.name.value] = UNKNOWN
    return values


def _first_conflict(ev: ShapeEvaluator, model: Model, done: Run) -> Mismatch | None:
    """The first operation of `forward` that fails on the run's shapes but not on `forward`'s own, among those that
    run on every call."""
    found = first_conflict(ev, model.forward, done)
    return Mismatch("", "", "", found) if found is not None else None


def first_conflict(ev: ShapeEvaluator, callee: FunctionValue, done: Run) -> str | None:
    """Where and why a run of `callee` certainly fails ("Net.forward, `self.fc(x)`: ..."), when it fails on the
    run's values but not on the values its own signature states (those are reported inside it already), among the
    statements that run on every call."""
    plain: Run | None = None
    evaluator = ev.calls.evaluator_for(callee.ctx)
    for statement, version, certain in done.trace:
        if not certain:
            continue
        for node in _operations(statement):
            found = evaluator.conflict(node, version)
            if found is None:
                continue
            if plain is None:
                plain = _plain_run(evaluator, callee)
            if _conflicts_in(evaluator, plain, node):
                return None
            return f"{done.title}, {found.message}"
    return None


def _plain_run(ev: ShapeEvaluator, callee: FunctionValue) -> Run:
    """`callee` as its own signature states its inputs, on the instance its class's methods see on their own."""
    bound = callee.bound
    if isinstance(bound, Instance) and callee.owner is not None:
        bound = ev.generic_instance(callee.owner)
        if not isinstance(bound, Instance):
            return Run(UNKNOWN)
    plain = FunctionValue(callee.node, callee.ctx, bound, callee.owner, callee.closure)
    return ev.calls.run(plain, ev.calls.generic_arguments(plain))


def _conflicts_in(ev: ShapeEvaluator, plain: Run, node: cst.CSTNode) -> bool:
    """Whether `node` conflicts in the plain run too."""
    for statement, version, _ in plain.trace:
        for candidate in _operations(statement):
            if candidate is node:
                return ev.conflict(node, version) is not None
    return False


def _operations(statement: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The calls and operators of a statement that ran, in source order, without the bodies of compound statements
    (they are statements of their own in the trace) or of nested functions, lambdas and comprehensions."""
    if type(statement) in (cst.Call, cst.BinaryOperation):
        yield statement
    for child in children(statement):
        if type(child) not in _OPAQUE:
            yield from _operations(child)


_OPAQUE = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
           cst.IndentedBlock)
