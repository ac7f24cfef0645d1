"""The project's code run on the shapes of a call: a model's `forward` (`model = Net()` then `model(torch.randn(64,
1, 28, 28))` runs `Net.forward` with `x` bound to (64, 1, 28, 28) and `self` to the instance `Net()` built: its
layers, the constructor's arguments with defaults bound), and any function or method of the project
(`head.loss(logits, y)`), through the objects floor's calls (`shapecheck.objects.calls`).

What a run gives: the value returned (a shape, or a tuple of shapes), and what a check finds in it (`inside`): the
first operation that certainly fails on these inputs, an SC106 loss shape, a view of a transposed tensor... but not
on the inputs the code states itself (the plain run, with its signature's shapes on the instance its class's methods
see on their own: those are reported inside already), and only among the statements that run on every call: a
branch the call may not take proves nothing. Calls the run makes are looked into in turn, a few deep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.walker import children
from shapecheck.objects.calls import Run, keywords_spread, positional_parameters
from shapecheck.objects.carried import carried
from shapecheck.objects.evaluator import LIGHTNING_TRAINERS
from shapecheck.objects.classes import function_facts
from shapecheck.objects.decorators import called_as_written
from shapecheck.objects.dims import Dim, at_defaults
from shapecheck.objects.values import (
    UNKNOWN, ClassValue, FunctionValue, Instance, Mapping, Namespace, Opaque, Seq, TorchObject, constant_of, truth,
)
from shapecheck.shapes import distributions
from shapecheck.shapes.nn_modules import UNKNOWN as UNKNOWN_RESULT, Applied, Layer, Mismatch
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items, Path

if TYPE_CHECKING:
    from shapecheck.engine.context import Context
    from shapecheck.shapes.evaluator import ShapeEvaluator


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, eq=False)
class Found:
    """What a check found in a run of the project's code: `text` says where and why, from the callee on
    ("Net.forward, `self.fc(x)`: ..."), and `path` leads there."""

    text: str
    path: Path


@record(eq=False)
class Model(Layer):
    """An instance of a project class with its own `forward`."""

    instance: Instance
    forward: FunctionValue
    evaluator: ShapeEvaluator
    spelled: str = ""

    def apply(self, inputs):
        return run(self, inputs, {})


def model(ev: ShapeEvaluator, instance: Instance) -> Model | None:
    """The model an instance is, when its class (or a project base) defines `forward` and no `__call__`."""
    calls = ev.calls
    if calls.method(instance.cls, "__call__") is not None:
        return None
    found = calls.method(instance.cls, "forward")
    if found is None:
        return None
    node, owner = found
    if not called_as_written(owner.ctx, node):  # `@jaxtyped(typechecker=beartype)`, `@torch.no_grad()` pass it on
        return None
    forward = FunctionValue(node, owner.ctx, instance, owner)
    return Model(instance, forward, calls.evaluator_for(owner.ctx), instance.cls.name + "()")


def run(model: Model, inputs: tuple[object, ...], keywords: dict[str, object] | None) -> Applied:
    """`forward` run on `inputs` and `keywords` (tensors, other values, None where unknown; `keywords` None: the
    call passes some the code can't name), once per instance and values (a call's result and its conflict ask
    alike)."""
    ev = model.evaluator
    args = _arguments(ev, model.forward, inputs, keywords)
    if args is None:
        return UNKNOWN_RESULT
    done = ev.calls.run(model.forward, args)
    if done.frame is None:
        return UNKNOWN_RESULT
    mismatch = _first_conflict(ev, model, done)
    if mismatch is not None:
        return Applied(None, mismatch)
    value = done.value
    if isinstance(value, Seq) and value.complete and any(distributions.is_distribution(item) for item in value.items):
        # an actor-critic's `return Categorical(logits=...), self.v(h)`: unpacked, each read as a value of its own
        return Applied(Seq(tuple(item if isinstance(item, Shape) or distributions.is_distribution(item) else UNKNOWN
                                 for item in value.items), value.kind))
    if isinstance(value, Seq):
        value = ev.as_want(value, "items")  # `return mu, logvar`
    if isinstance(value, Mapping) and any(isinstance(item, Shape) for _, item in value.items):
        return Applied(value)  # `return {"logits": ..., "features": ...}`: read by key where it is used
    if distributions.is_distribution(value):
        return Applied(value)  # a policy's `return Categorical(logits=...)`: read by its methods where used
    if isinstance(value, Instance) and not value.bases and not value.tainted \
            and any(isinstance(item, Shape) for item in value.attrs.values()):
        return Applied(value)  # `return TaggerOutput(logits=...)`, a dataclass's or a NamedTuple's: read by field
    return Applied(value if isinstance(value, (Shape, Items)) else None)


@record(slots=True, eq=False)
class Spread:
    """The end of a call's positional inputs: a `*xs` of unknown length whose elements are each like `each`
    (`model(*views)` over a batch of as many views as the dataset gives), for the parameters left."""

    each: object


def positional_of(ev: ShapeEvaluator, call: cst.Call, before: int) -> tuple[object, ...]:
    """What a call passes by position to a model's `forward`: tensors, and the other values the code states
    (`rope(seq_len)`, `head(x, 2)`), a list or tuple of known length spread by `*`, or a `Spread` last; None where
    unknown."""
    passed: list[object] = []
    positional = [arg for arg in call.args if arg.keyword is None and arg.star != "**"]
    for arg in positional:
        spread = _spread(ev, arg, before) if arg.star else None
        if spread is None and arg.star == "*" and arg is positional[-1]:
            each = _spread_each(ev, arg, before)
            if each is not None:
                passed.append(each)
                continue
        passed.extend(spread if spread is not None else (None,) if arg.star else
                      (_argument(ev, arg.value, before),))
    return tuple(passed)


def _spread_each(ev: ShapeEvaluator, arg: cst.Arg, before: int) -> Spread | None:
    value = ev.object(arg.value, before)
    if isinstance(value, Seq) and not value.complete and not value.items and value.each is not None:
        return Spread(value.each)
    return None


def keywords_of(ev: ShapeEvaluator, call: cst.Call, before: int) -> dict[str, object] | None:
    """What a call passes by keyword, as `positional_of` reads it, a dict the code states in full spread by `**`
    among them (`model(**batch)` of a loader's dict samples, `**vars(args)`); None when it unpacks arguments it
    can't count (`*args` of unknown length, `**kwargs` of a dict not stated in full)."""
    if any(arg.star == "*" and _spread(ev, arg, before) is None for arg in call.args):
        return None
    passed: dict[str, object] = {}
    for arg in call.args:
        if arg.star == "**":
            spread = keywords_spread(ev, arg.value, before)
            if not isinstance(spread, Mapping) or not spread.complete \
                    or not all(type(key) is str for key, _ in spread.items):
                return None
            passed.update((str(key), None if value is UNKNOWN else value) for key, value in spread.items)
        elif arg.keyword is not None:
            passed[arg.keyword.value] = _argument(ev, arg.value, before)
    return passed


def _spread(ev: ShapeEvaluator, arg: cst.Arg, before: int) -> tuple[object, ...] | None:
    """The values `*arg` passes, where it is a list or tuple of known length (`model(*batch)`)."""
    value = ev.object(arg.value, before)
    if isinstance(value, Items) and value.items is not None:
        return value.items
    if isinstance(value, Seq) and value.complete:
        return tuple(None if item is UNKNOWN else item for item in value.items)
    return None


def _argument(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> object:
    shape = ev.tensor(expr, before)
    if shape is not None:
        return shape
    value = ev.object(expr, before)
    return None if value is UNKNOWN else value


def _arguments(ev: ShapeEvaluator, forward: FunctionValue, inputs: tuple[object, ...],
               keywords: dict[str, object] | None) -> dict[str, object] | None:
    """`forward`'s parameters for these inputs (None: not known to be a tensor), defaults for the rest (`h=None`
    then `if h is None: h = torch.zeros(...)` builds the state the call leaves out); None when the inputs don't
    fit its signature."""
    facts = function_facts(forward.ctx, forward.node)
    params = list(facts.params)[1:]
    spread = inputs[-1] if inputs and isinstance(inputs[-1], Spread) else None
    if spread is not None:
        inputs = inputs[:-1]
    if facts.star is not None and keywords is None:
        return None
    # `forward(self, *signals)`: the inputs after the named ones
    bound = positional_parameters(params, facts.star, tuple(UNKNOWN if shape is None else shape for shape in inputs),
                                  spread.each if spread is not None else None)
    if bound is None:
        return None
    values: dict[str, object] = {facts.params[0].name.value: forward.bound, **bound}
    owner = ev.calls.evaluator_for(forward.ctx)
    for param in (*params[len(inputs):], *facts.kwonly):
        name = param.name.value
        if spread is not None and param in params and (keywords is None or name not in keywords):
            continue  # what the spread gives it
        if keywords is not None and name in keywords:
            values[name] = keywords[name] if keywords[name] is not None else UNKNOWN
        elif keywords is None or param.default is None:
            values[name] = UNKNOWN
        else:
            default = constant_of(param.default)
            values[name] = default if default is not UNKNOWN else owner.defined_object(forward.node, param.default)
    if facts.star_kwargs is not None:
        values[facts.star_kwargs.name.value] = UNKNOWN
    return values


def _first_conflict(ev: ShapeEvaluator, model: Model, done: Run) -> Mismatch | None:
    """The first operation of `forward` that fails on the run's shapes but not on `forward`'s own, among those that
    run on every call."""
    found = first_conflict(ev, model.forward, done)
    return Mismatch("", "", "", found.text, found.path) if found is not None else None


def first_conflict(ev: ShapeEvaluator, callee: FunctionValue, done: Run) -> Found | None:
    """Where and why a run of `callee` certainly fails ("Net.forward, `self.fc(x)`: ..."); the calls it makes are
    the conflicts' own to look into."""
    return found_in(ev, callee, done, _conflict_message, 0)


# What a check finds at an operation: a message, or a Found whose path goes on into a call the operation makes.
Check = Callable[["ShapeEvaluator", cst.CSTNode, int], "str | Found | None"]
MAX_DEPTH = 3  # calls followed inside calls, for a check


def inside(ev: ShapeEvaluator, call: cst.Call, before: int, check: Check, depth: int = MAX_DEPTH) -> Found | None:
    """What `check(evaluator, node, version)` finds in the project code `call` runs (a function or method of the
    project, a model's `forward`) on the call's arguments, and not on the arguments it states itself: "Head.loss,
    `F.cross_entropy(...)`: ..."; None when nothing, or the call runs no code of the project."""
    found = project_run(ev, call, before)
    if found is None:
        return None
    callee, done = found
    return found_in(ev, callee, done, check, depth)


def found_here(ev: ShapeEvaluator, node: cst.CSTNode, check: Check) -> str | None:
    """What `check` finds at the node being visited: as the bindings say, else on a pass of its function's (or the
    module's) run that certainly reached it, where a name a loop binds has that pass's value (`for head, target in
    zip(heads, targets):` pairs each head with a row the bindings alone can't tell)."""
    found = check(ev, node, ev.now())
    if found is None and ev.read_in_runs(node):
        for version in ev.certain_runs(node):
            found = check(ev, node, version)
            if found is not None:
                break
    return found


def found_at_call(ev: ShapeEvaluator, call: cst.Call, check: Check) -> tuple[cst.CSTNode, str] | None:
    """Where to report what `check` finds in the code the call being visited runs (see `inside`), and the message
    (see `located`), on the arguments as they are there, or as they are on a pass of a loop that certainly runs it
    (`log(step, losses)` under `if step % log_every == 0`, which the first pass, step 0, takes)."""
    now = ev.now()
    found = inside(ev, call, now, check)
    if found is not None:
        return located(ev, call, now, found)
    # a run is costly: only for a call of project code, or one whose callee a loop picks (`for block in blocks`)
    if not (runs_project_code(ev, call, now) or ev.read_in_runs(call.func)):
        return None
    for before in ev.certain_runs(call):
        found = inside(ev, call, before, check)
        if found is not None:
            return located(ev, call, before, found)
    return None


def located(ev: ShapeEvaluator, call: cst.Call, before: int, found: Found) -> tuple[cst.CSTNode, str]:
    """Where to report what was found in the code a call runs, and the message (see `at_call`, `reported_at`)."""
    return reported_at(ev.ctx, call, at_call(ev, call, before, found.text), found.path)


def reported_at(ctx: Context, node: cst.CSTNode, message: str, path: Path) -> tuple[cst.CSTNode, str]:
    """Where a finding at `node` is reported, and its message. What fails in the code a call runs (`path`) is
    reported where its traceback would end in the file linted: at the failing operation when it is there, or else
    at the call that leads out of the file (the path's last step in it); the message, there, says it comes "via"
    the call that brings the shapes."""
    for context, step in reversed(path):
        if context is ctx:
            return step, f"via {message}"
    return node, message


def at_call(ev: ShapeEvaluator, call: cst.Call, before: int, found: str) -> str:
    """The message at a call for what was found in the code it runs: "`loss_fn(out, y)`: out is (B, T, V): then in
    loss_fn, ..."."""
    tensors = [(arg, ev.tensor(arg.value, before)) for arg in call.args if arg.keyword is None and not arg.star]
    # a shape of which no dim is known ("(...)") says nothing; it is often a value that is not a tensor at all (an
    # epoch counter the run could not rule out)
    described = ", ".join(f"{ev.ctx.code(arg.value)} is {shape.render()}" for arg, shape in tensors
                          if shape is not None and (shape.dims or shape.variadic is None)
                          and type(arg.value) in (cst.Name, cst.Attribute))
    subject = f"{described}: " if described else ""
    return f"`{ev.ctx.code(call)}`: {subject}then in {found}"


def runs_project_code(ev: ShapeEvaluator, call: cst.Call, before: int) -> bool:
    """Whether `call` calls a function or method of the project or a model: the cheap half of `project_run`, for a
    check with a question of its own to ask before the run."""
    callee = ev.called(ev.object(call.func, before))
    return isinstance(callee, FunctionValue) or isinstance(callee, Instance) and model(ev, callee) is not None


def project_run(ev: ShapeEvaluator, call: cst.Call, before: int) -> tuple[FunctionValue, Run] | None:
    """The code of the project a call runs, and the run: a function or method with the call's arguments, or a
    model's `forward` with its positional inputs' shapes. Once per call and `before`: each check that looks into
    calls (SC101's, SC105's, SC107's) asks it of every call, and a construction's `__init__` run on an instance of
    its own is not found again by `calls.run`."""
    key = ("project run", id(call), before, id(ev._home))
    memo = ev._memo
    if key not in memo:
        memo[key] = _project_run(ev, call, before)
    return memo[key]  # type: ignore[return-value]


def _project_run(ev: ShapeEvaluator, call: cst.Call, before: int) -> tuple[FunctionValue, Run] | None:
    stepped = lightning_steps(ev, call, before)
    if stepped:
        return stepped[0]
    callee = ev.called(ev.object(call.func, before))
    if isinstance(callee, Instance):
        found = model(ev, callee)
        if found is None:
            return None
        args = _arguments(ev, found.forward, positional_of(ev, call, before), keywords_of(ev, call, before))
        return (found.forward, ev.calls.run(found.forward, args)) if args is not None else None
    if isinstance(callee, ClassValue):  # `Dataset(images, targets)`: what its `__init__` checks of them
        callee = _initializer(ev, callee, call)
    if not isinstance(callee, FunctionValue):
        return None
    args = ev.calls.arguments(callee, call, before)
    if args is None or not brings_facts(ev, args):
        return None  # whatever the check finds, it finds inside, on its own
    return callee, ev.calls.run(callee, args)


# what a Lightning trainer's method runs on each batch: the step, the position and keyword its loaders are passed
# by, and the hook that makes them (a datamodule's or the model's own); `fit` runs validation too (a sanity check of
# the validation loader before the first training batch)
_LIGHTNING_STEPS = {"fit": (("training_step", 1, "train_dataloaders", "train_dataloader"),
                            ("validation_step", 2, "val_dataloaders", "val_dataloader")),
                    "validate": (("validation_step", 1, "dataloaders", "val_dataloader"),),
                    "test": (("test_step", 1, "dataloaders", "test_dataloader"),)}


def lightning_steps(ev: ShapeEvaluator, call: cst.Call, before: int) -> list[tuple[FunctionValue, Run]]:
    """`trainer.fit(model, train_loader, val_loader)` of a Lightning `Trainer`: the model's `training_step(batch,
    batch_idx)` run on a batch of the training loader (given by position or keyword, or made by `datamodule=dm`'s
    `train_dataloader()` or the model's own), and its `validation_step` on one of the validation loader, each where
    the model defines it and the loader has a batch for certain (`validate`/`test`: `validation_step`/`test_step`)."""
    if type(call.func) is not cst.Attribute or call.func.attr.value not in _LIGHTNING_STEPS:
        return []
    trainer = ev.object(call.func.value, before)
    if not isinstance(trainer, TorchObject) or trainer.qualname not in LIGHTNING_TRAINERS \
            or any(arg.star for arg in call.args):
        return []
    positional = [arg.value for arg in call.args if arg.keyword is None]
    # `train_dataloader=`: `fit`'s keyword before Lightning 1.4
    keywords = {"train_dataloaders" if arg.keyword.value == "train_dataloader" else arg.keyword.value: arg.value
                for arg in call.args if arg.keyword is not None}
    model_expr = positional[0] if positional else keywords.get("model")
    instance = ev.object(model_expr, before) if model_expr is not None else None
    if not isinstance(instance, Instance):
        return []
    found = []
    for step, position, keyword, loader_method in _LIGHTNING_STEPS[call.func.attr.value]:
        stepped = _lightning_step(ev, instance, step, _lightning_loader(
            ev, instance, positional[position] if len(positional) > position else keywords.get(keyword),
            keywords.get("datamodule"), loader_method, before))
        if stepped is not None:
            found.append(stepped)
    return found


def _lightning_loader(ev: ShapeEvaluator, instance: Instance, loader_expr: cst.BaseExpression | None,
                      datamodule: cst.BaseExpression | None, loader_method: str, before: int) -> object:
    """The loader a trainer's method is given, else the one the datamodule's (or the model's own) hook makes."""
    if loader_expr is not None:
        return ev.object(loader_expr, before)
    source = ev.object(datamodule, before) if datamodule is not None else instance
    method = ev.calls.method(source.cls, loader_method) if isinstance(source, Instance) else None
    if method is None:
        return None
    # the trainer calls the hook `setup(stage)` first (a datamodule's splits are made there): run on a copy of the
    # object, the one the code holds left as it is
    source = replace(source, attrs=dict(source.attrs))
    setup = ev.calls.method(source.cls, "setup")
    if setup is not None:
        prepare = FunctionValue(setup[0], setup[1].ctx, source, setup[1])
        ev.calls.run(prepare, ev.calls.generic_arguments(prepare))
    maker = FunctionValue(method[0], method[1].ctx, source, method[1])
    return ev.calls.run(maker, ev.calls.generic_arguments(maker)).value


def _lightning_step(ev: ShapeEvaluator, instance: Instance, step: str,
                    loader: object) -> tuple[FunctionValue, Run] | None:
    """The model's `step(batch, batch_idx)` run on a batch of `loader`, the first (`batch_idx` 0)."""
    batches = ev.iterated(loader) if loader is not None else None
    found = ev.calls.method(instance.cls, step)
    if not isinstance(batches, Seq) or batches.items or batches.each is None or batches.least < 1 or found is None:
        return None
    callee = FunctionValue(found[0], found[1].ctx, instance, found[1])
    params = [param.name.value for param in function_facts(callee.ctx, callee.node).params]
    if len(params) < 2:
        return None
    args = ev.calls.generic_arguments(callee)
    args[params[1]] = batches.each
    if len(params) > 2:
        args[params[2]] = Dim.of(0)
    return callee, ev.calls.run(callee, args)


def _initializer(ev: ShapeEvaluator, cls: ClassValue, call: cst.Call) -> FunctionValue | None:
    """The `__init__` a construction runs, bound to an instance of its own: the run reads the attributes it sets, and
    the instance the call builds elsewhere (`ev.object(call)`) is left as it is."""
    init = ev.calls.method(cls, "__init__")
    if init is None:
        return None
    instance = Instance(cls, call=call, bases=ev.calls.torch_bases(cls))
    return FunctionValue(init[0], init[1].ctx, instance, init[1])


def brings_facts(ev: ShapeEvaluator, args: dict[str, object]) -> bool:
    """Whether a call's arguments tell its callee more than its own signature does: a tensor of known shape
    (`holds_tensors`), an object of the project (`sample(decoder)`, the model its layers come from) or a torch
    module the code builds (`train(nn.Linear(5, 3))`)."""
    values = args.values()
    if any(holds_tensors(ev, value) or isinstance(value, Instance) and not value.generic
           or isinstance(value, TorchObject) and value.call is not None for value in values):
        return True
    # sizes alone, unless the call is a method of an object read on its own (`self._make_layer(128)` in
    # `__init__`): what its earlier statements changed in the object (`self.inplanes = planes * 4`) is not known
    return any(holds_sizes(value) for value in values) \
        and not any(isinstance(value, Instance) and value.generic for value in values)


def holds_sizes(value: object, depth: int = 3) -> bool:
    """Whether an argument, or the default a call leaves to a parameter, states sizes the callee's own reading
    leaves open (it reads every parameter as unknown): an int (`init_hidden(16)`), or a list, config dict or
    argparse namespace of them (`def main(cfg=CONFIG)` called as `main()`, `main(parser.parse_args([]))`), or a
    command line known to be empty (`main([])` handing `argv` on to `parse_args(argv)`, which then reads the
    defaults its `add_argument` calls state), or one that reads it (`main(parser.parse_args())`, `train(model,
    args.epochs)`: its options' defaults, see `dims.at_defaults`)."""
    if isinstance(value, Dim):
        return at_defaults(value) is not None
    if isinstance(value, Opaque):
        return value.default is not None or value.options is not None and holds_sizes(value.options, depth)
    if depth == 0:
        return False
    if isinstance(value, Seq):
        if not value.items:
            return value.complete and value.kind == "list" and depth == 3
        return any(holds_sizes(item, depth - 1) for item in value.items)
    if isinstance(value, Mapping):
        return any(holds_sizes(item, depth - 1) for _, item in value.items)
    if isinstance(value, Namespace):  # `main(parser.parse_args([]))`: the options' defaults
        return any(holds_sizes(item, depth - 1) for _, item in value.fields)
    return False


def holds_tensors(ev: ShapeEvaluator, value: object, depth: int = 3) -> bool:
    """Whether an argument brings tensors of known shapes into a call: a tensor, a tuple of them, a list or dict
    holding them (`evaluate(model, [(x, y)])`), or what a loop goes through to get them (a data loader of a
    `TensorDataset`)."""
    if isinstance(value, Shape | Items):
        return True
    if depth == 0:
        return False
    if isinstance(value, Seq):
        return any(holds_tensors(ev, item, depth - 1) for item in (*value.items, value.each))
    if isinstance(value, Mapping):
        return any(holds_tensors(ev, item, depth - 1) for _, item in value.items)
    found = ev.iterated(value) if isinstance(value, TorchObject) else None
    return isinstance(found, Seq) and isinstance(found.each, Shape | Items)


def found_in(ev: ShapeEvaluator, callee: FunctionValue, done: Run, check: Check, depth: int) -> Found | None:
    """What `check` finds in a run, among the statements that run on every call, and not in the plain run."""
    if done.frame is None:
        return None
    plain: Run | None = None
    evaluator = ev.calls.evaluator_for(callee.ctx)
    for statement, statement_version, certain in done.trace:
        if not certain:
            continue
        for node, version in _ran(evaluator, statement, statement_version):
            found = _checked(evaluator, node, version, check)
            if found is None and depth > 0 and type(node) is cst.Call:
                nested = inside(evaluator, node, version, check, depth - 1)
                if nested is not None:
                    found = Found(f"`{evaluator.ctx.code(node)}`: then in {nested.text}",
                                  ((evaluator.ctx, node), *nested.path))
            if found is None:
                continue
            if plain is None:
                plain = _plain_run(evaluator, callee)
            if _found_in_plain(evaluator, plain, callee, node, check, depth):
                return None  # the code fails on its own: reported where it is
            return Found(f"{done.title}, {found.text}", found.path)
    return None


def _checked(ev: ShapeEvaluator, node: cst.CSTNode, version: int, check: Check) -> Found | None:
    found = check(ev, node, version)
    if found is None:
        return None
    if isinstance(found, Found):
        return Found(found.text, ((ev.ctx, node), *found.path))
    return Found(found, ((ev.ctx, node),))


def _conflict_message(ev: ShapeEvaluator, node: cst.CSTNode, version: int) -> Found | None:
    found = ev.conflict(node, version)
    if found is None:
        return None
    if found.message.startswith("`"):
        return Found(found.message, found.path)
    return Found(f"`{' '.join(ev.ctx.code(node).split())}`: {found.message}", found.path)  # which operation, inside too


def _plain_run(ev: ShapeEvaluator, callee: FunctionValue) -> Run:
    """`callee` as its own signature states its inputs, on the instance its class's methods see on their own."""
    bound = callee.bound
    if isinstance(bound, Instance) and callee.owner is not None:
        bound = ev.generic_instance(callee.owner)
        if not isinstance(bound, Instance):
            return Run(UNKNOWN)
    closure = callee.closure
    if closure is not None and closure.outer is None and closure.env:
        # defined in a call being run (`def propagate(): return torch.bmm(adj, x)`): on its own, the names it reads
        # from that call are as unknown as that call's signature
        closure = replace(closure, env={})
    plain = FunctionValue(callee.node, callee.ctx, bound, callee.owner, closure)
    return ev.calls.run(plain, ev.calls.generic_arguments(plain))


def _found_in_plain(ev: ShapeEvaluator, plain: Run, callee: FunctionValue, node: cst.CSTNode, check: Check,
                    depth: int) -> bool:
    """Whether `check` finds the same at `node` in the plain run too, so that the node's own visit reports it: on
    a statement the plain run reaches for certain, or on every pass it makes of a loop it goes through only maybe
    (the passes agree, and so do the bindings the visit reads). One pass of such a loop alone is reported by no one:
    `token` bound before a `for t in range(tgt.size(1))` that rebinds it after the call reading it is a value only
    the first pass has, and a loop of unknown length may run no pass. Nor is a node that reads what only a run
    knows (a list a loop fills, `update(torch.cat(values), ...)` after a rollout of `range(horizon)` inside a loop
    over `range(num_updates)` of a parameter): its visit reads the bindings, which do not know it, and the run of
    that pass is not certain, so the call that makes the run certain reports it."""
    maybe: list[bool] = []
    for statement, statement_version, certain in plain.trace:
        for candidate, version in _ran(ev, statement, statement_version):
            if candidate is node:
                found = check(ev, node, version) is not None or depth > 0 and type(node) is cst.Call \
                    and inside(ev, node, version, check, depth - 1) is not None
                if certain:
                    return found
                maybe.append(found)
    return bool(maybe) and all(maybe) and not carried(callee.node).read_by(node)


def _ran(ev: ShapeEvaluator, statement: cst.CSTNode, version: int) -> list[tuple[cst.CSTNode, int]]:
    """`_operations_ran`, once per statement and version: each check that looks into a call's code (SC101's,
    SC104's, SC105's, SC107's) goes through the same runs."""
    key = ("operations ran", id(statement), version, id(ev._home))
    memo = ev._memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = list(_operations_ran(ev, statement, version))
    return found  # type: ignore[return-value]


def _operations_ran(ev: ShapeEvaluator, statement: cst.CSTNode, version: int,
                    element: bool = False) -> Iterator[tuple[cst.CSTNode, int]]:
    """The operations of a statement that ran (see `_operations`), each with the version it was read at: the
    statement's, or for those in a list comprehension's element, each pass of it that certainly ran. An element is
    an expression, not a statement: all of `conv(x).max(dim=2).values` is read, the call under the attribute too."""
    def decide(test: cst.BaseExpression) -> bool | None:
        return truth(ev.object(test, version))

    for node in _nested_operations(statement, decide) if element else _operations(statement, decide):
        yield node, version
    for comprehension in _comprehensions(statement):
        for run in ev.calls.element_runs.get((id(comprehension), version), ()):
            if type(comprehension) is cst.DictComp:
                yield from _operations_ran(ev, comprehension.key, run, element=True)
                yield from _operations_ran(ev, comprehension.value, run, element=True)
            else:
                yield from _operations_ran(ev, comprehension.elt, run, element=True)


def _comprehensions(node: cst.CSTNode) -> Iterator[cst.ListComp | cst.DictComp]:
    """The list and dict comprehensions of a statement, outermost only, outside nested functions and compound
    bodies."""
    for child in children(node):
        if type(child) is cst.ListComp or type(child) is cst.DictComp:
            yield child
        elif type(child) not in _OPAQUE:
            yield from _comprehensions(child)


Decide = Callable[[cst.BaseExpression], "bool | None"]  # a test's truth in a run, None when the run can't tell


def _operations(statement: cst.CSTNode, decide: Decide) -> Iterator[cst.CSTNode]:
    """An annotated assignment or a `return` (what an annotation check reads), the calls, operators, comparisons
    and truth tests of a statement that ran, in source order, without the bodies of compound statements (they are
    statements of their own in the trace) or of nested functions, lambdas and comprehensions, and of the branch of
    an `a if test else b` that `decide` (the test's truth in the run) does not say runs. A bare name or attribute is
    a statement of the trace only as an `if` or `while` test."""
    if type(statement) in (cst.Name, cst.Attribute, cst.Subscript):
        yield statement
        return
    yield from _nested_operations(statement, decide)


def _nested_operations(node: cst.CSTNode, decide: Decide) -> Iterator[cst.CSTNode]:
    if type(node) in _CHECKED:
        yield node
    if type(node) is cst.IfExp:
        yield from _nested_operations(node.test, decide)
        taken = decide(node.test)
        if taken is not None:
            yield from _nested_operations(node.body if taken else node.orelse, decide)
        return
    for child in children(node):
        if type(child) not in _OPAQUE:
            yield from _nested_operations(child, decide)


# What the checks look at: calls, operators, comparisons, assignments (that unpack, run in place, or are annotated),
# int indexes, and what tests a value's truth (`not t`, `t and u`, `a if t else b`, `assert t`; the trace holds an `if`
# or `while` statement as its test).
_CHECKED = (cst.Call, cst.BinaryOperation, cst.Comparison, cst.Assert, cst.IfExp, cst.BooleanOperation,
            cst.UnaryOperation, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Return, cst.Subscript)
_OPAQUE = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
           cst.IndentedBlock)
