"""A model class of the same file, run on the shapes of a call: `model = Net()` then `model(torch.randn(64, 1, 28,
28))` evaluates `Net.forward` with `x` bound to (64, 1, 28, 28), its `self.` layers taken from `Net.__init__`, and
constructor arguments that are literal ints (`Encoder(256, 1000)`) standing for `__init__`'s parameters.

The evaluator reads names as of the node being visited, through the scope the traversal is in; a method the
traversal has left is read again by putting the context back inside it for a moment (`inside`): its scope (kept by
the context), its class, and the point in it being read. A run is a fresh evaluator whose parameters are the call's
shapes, so nothing it learns leaks into the analysis of the method itself.

What a run gives: the shape (or tuple) `forward` returns when it has one `return`, and the first operation in it
that certainly fails on these shapes but not on the shapes `forward` states itself (those are reported inside
`forward` already). Recursion and deep nesting of models give up.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.context import Binding, Context, Scope
from shapecheck.engine.walker import children
from shapecheck.shapes import conflicts
from shapecheck.objects.dims import Dim
from shapecheck.shapes.evaluator import Evaluator
from shapecheck.shapes.nn_modules import UNKNOWN, Applied, Layer, Mismatch
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Value

MAX_NESTING = 3  # model inside model inside model: deeper gives up


@contextmanager
def inside(ctx: Context, function: cst.FunctionDef, before: int, read: Sequence[cst.CSTNode],
           evaluator: Evaluator | None = None) -> Iterator[bool]:
    """Put the context back inside `function` as of `before`, reading at the last node of `read` (its path from
    `function` down), for the duration; yields False, changing nothing, when the traversal has not been through
    `function` yet."""
    scope = scope_of(ctx, function)
    if scope is None:
        yield False
        return
    saved = (ctx._scope, ctx._frame, ctx._classes, ctx._functions, ctx._seq, ctx.ancestors)
    parent = scope.parent
    ctx._scope = ctx._frame = scope
    ctx._classes = [parent.node] if parent is not None and parent.kind == "class" else []  # type: ignore[list-item]
    ctx._functions = [function]
    ctx._seq = before - 1
    ctx.ancestors = list(read)
    try:
        if evaluator is not None:
            with ctx.replaced(Evaluator, evaluator):
                yield True
        else:
            yield True
    finally:
        ctx._scope, ctx._frame, ctx._classes, ctx._functions, ctx._seq, ctx.ancestors = saved


def scope_of(ctx: Context, function: cst.FunctionDef) -> Scope | None:
    """The scope of a function the traversal has been through and left."""
    for _, _, scope in reversed(ctx.closed_functions):
        if scope.node is function:
            return scope
    return None


# ----------------------------------------------------------------------------------------------- model classes


@dataclass(frozen=True, eq=False)
class Model(Layer):
    """A class of this file with its own `forward`, built with `init_args` (literal sizes for `__init__`'s
    parameters)."""

    class_def: cst.ClassDef
    forward: cst.FunctionDef
    init: cst.FunctionDef | None
    init_args: tuple[tuple[str, Dim], ...]
    ctx: Context
    spelled: str = ""

    def apply(self, inputs):
        return run(self, inputs)


def model(ev: Evaluator, constructor: cst.Call, binding: Binding | None) -> Model | None:
    """The model a constructor call of a class of this file builds (`Net()`, `Block(config)`)."""
    ctx = ev.ctx
    func = constructor.func
    if type(func) is not cst.Name:
        return None
    found = ctx.binding(func)
    if found is None or found.kind != "class" or type(found.statement) is not cst.ClassDef:
        return None
    class_def = found.statement
    methods = {s.name.value: s for s in class_def.body.body if type(s) is cst.FunctionDef}
    forward = methods.get("forward")
    if forward is None or "__call__" in methods or forward.decorators:
        return None
    init = methods.get("__init__")
    return Model(class_def, forward, init, _init_args(ev, constructor, binding, init), ctx,
                 class_def.name.value + "()")


def _init_args(ev: Evaluator, constructor: cst.Call, binding: Binding | None,
               init: cst.FunctionDef | None) -> tuple[tuple[str, Dim], ...]:
    """`__init__`'s parameters that the constructor call gives literal ints."""
    if init is None or any(arg.star for arg in constructor.args):
        return ()
    params = [p.name.value for p in (*init.params.posonly_params, *init.params.params)][1:]
    named = {p.name.value for p in (*init.params.params, *init.params.kwonly_params)}
    given: list[tuple[str, Dim]] = []
    for i, arg in enumerate(constructor.args):
        if arg.keyword is None:
            name = params[i] if i < len(params) else None
        else:
            name = arg.keyword.value if arg.keyword.value in named else None
        if name is None:
            continue
        size = ev.dim_in(arg.value, binding) if binding is not None else ev.dim_of(arg.value)
        if size is not None and size.literal is not None:
            given.append((name, size))
    return tuple(given)


class _Run(Evaluator):
    """An evaluator for one run of a model: `forward`'s parameters are the call's shapes (`overrides`; None where
    no argument is known to be a tensor) and `__init__`'s parameters are the constructor's literal ints."""

    def __init__(self, ctx: Context, model: Model, overrides: dict[str, Shape | None] | None) -> None:
        super().__init__(ctx)
        self.model = model
        self.overrides = overrides
        self.init_args = dict(model.init_args) if overrides is not None else {}

    def parameter(self, binding: Binding) -> Shape | None:
        if self.overrides is not None and binding.statement is self.model.forward and binding.name != "self":
            return self.overrides.get(binding.name)
        return super().parameter(binding)

    def _bound_size(self, binding: Binding, spelled: str) -> Dim | None:
        if binding.kind == "param" and binding.statement is self.model.init and binding.name in self.init_args:
            return self.init_args[binding.name]
        return super()._bound_size(binding, spelled)


_ACTIVE: list[int] = []  # the classes whose forward is being run, innermost last


_RUNS: weakref.WeakKeyDictionary[Context, dict[tuple, Applied]] = weakref.WeakKeyDictionary()


def run(model: Model, inputs: tuple[Shape | None, ...]) -> Applied:
    """`forward` run on `inputs`, once per model and shapes (a call's result and its conflict ask alike)."""
    runs = _RUNS.setdefault(model.ctx, {})
    key = (id(model.class_def), model.init_args, inputs)
    if key not in runs:
        runs[key] = _run(model, inputs)
    return runs[key]


def _run(model: Model, inputs: tuple[Shape | None, ...]) -> Applied:
    ctx = model.ctx
    if id(model.class_def) in _ACTIVE or len(_ACTIVE) >= MAX_NESTING:
        return UNKNOWN
    params = model.forward.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)][1:]
    if len(inputs) > len(positional) or isinstance(params.star_arg, cst.Param):
        return UNKNOWN
    overrides: dict[str, Shape | None] = dict.fromkeys(positional)
    overrides.update(zip(positional, inputs))
    plan = _Plan(ctx, model.forward)
    if not plan.ready:
        return UNKNOWN
    _ACTIVE.append(id(model.class_def))
    try:
        evaluator = _Run(ctx, model, overrides)
        try:
            mismatch = _first_conflict(ctx, model, plan, evaluator)
            value = None if mismatch is not None else _returned(ctx, model, plan, evaluator)
        finally:
            if evaluator.errors:
                ctx.analysis(Evaluator).errors.extend(evaluator.errors)
    finally:
        _ACTIVE.pop()
    return Applied(value, mismatch)


class _Plan:
    """Where each node of `forward` is read: the `before` (a binding seq) of its statement."""

    def __init__(self, ctx: Context, function: cst.FunctionDef) -> None:
        scope = scope_of(ctx, function)
        self.ready = scope is not None
        self.function = function
        # (node, its path from `function` down, before), in source order
        self.nodes: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...], int]] = []
        self.returns: list[tuple[cst.Return, tuple[cst.CSTNode, ...], int]] = []
        if scope is None:
            return
        bindings = sorted((b for found in scope.bindings.values() for b in found if b.statement is not function),
                          key=lambda b: b.seq)
        end = max((b.seq for found in scope.bindings.values() for b in found), default=0) + 1
        order: dict[int, int] = {}
        statements: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...], cst.CSTNode]] = []  # (node, path, statement)
        self._collect(function.body, (function,), None, order, statements)
        firsts = [(order.get(id(b.statement)), b.seq) for b in bindings]
        for node, path, statement in statements:
            position = order[id(statement)]
            before = min((seq for at, seq in firsts if at is not None and at >= position), default=end)
            if type(node) is cst.Return:
                self.returns.append((node, path, before))  # type: ignore[arg-type]
            else:
                self.nodes.append((node, path, before))

    def _collect(self, node: cst.CSTNode, above: tuple[cst.CSTNode, ...], statement: cst.CSTNode | None,
                 order: dict[int, int], found: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...], cst.CSTNode]]
                 ) -> None:
        order[id(node)] = len(order)
        path = (*above, node)
        if isinstance(node, cst.BaseStatement) or isinstance(node, cst.BaseSmallStatement):
            statement = node
        kind = type(node)
        if kind in (cst.Call, cst.BinaryOperation, cst.Return) and statement is not None:
            found.append((node, path, statement))
        for child in children(node):
            if type(child) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                continue  # their own scopes, run only when called
            self._collect(child, path, statement, order, found)


def _first_conflict(ctx: Context, model: Model, plan: _Plan, evaluator: _Run) -> Mismatch | None:
    """The first operation of `forward` that fails on the run's shapes but not on `forward`'s own, among those that
    run on every call: a branch the call may not take (`if not reverse:` ... `else:`) proves nothing."""
    plain: _Run | None = None
    for node, path, before in plan.nodes:
        if not flow.runs_whenever(path):
            continue
        with inside(ctx, model.forward, before, path, evaluator):
            found = _conflict(evaluator, node)
        if found is None:
            continue
        if plain is None:
            plain = _Run(ctx, model, None)
        with inside(ctx, model.forward, before, path, plain):
            already = _conflict(plain, node)
        if already is not None:
            return None
        return Mismatch("", "", "", f"{model.class_def.name.value}.forward, {found.message}")
    return None


def _conflict(evaluator: Evaluator, node: cst.CSTNode):
    try:
        return conflicts.find(evaluator, node)
    except RecursionError:
        return None
    except Exception as error:  # noqa: BLE001 - a bug in the analysis must not take the rules down with it
        evaluator.errors.append(error)
        return None


def _returned(ctx: Context, model: Model, plan: _Plan, evaluator: _Run) -> Value | None:
    """What `forward` returns when it has one `return` with a value."""
    if len(plan.returns) != 1 or plan.returns[0][0].value is None:
        return None
    node, path, before = plan.returns[0]
    value = node.value
    assert value is not None
    with inside(ctx, model.forward, before, path, evaluator):
        shape = evaluator.shape_of(value, before)
        if shape is not None:
            return shape
        return evaluator.items_of(value, before)
