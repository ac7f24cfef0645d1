"""Learning-rate schedules: how many steps a schedule is built for, and how often the loop steps it.

A schedule whose length is a number of steps (OneCycleLR's `total_steps`, or its `epochs * steps_per_epoch`; the
`num_training_steps` of Hugging Face's warm-up schedules) is built for a count in some unit, and the loop steps it
in a unit too. The count's unit is read off the expression that sizes it: a name of a number of epochs alone
(`total_steps=args.epochs`, `epochs=E, steps_per_epoch=1`) counts epochs; that number times another
(`epochs * len(loader)`, `steps_per_epoch=len(loader)`, divided by the accumulation or not) counts batches. The
unit the loop steps it in is read off where the step sits: in a loop over the data beside the optimizer's step
(once per batch), or in a loop whose batches, and optimizer steps, are in a loop nested in it or in a helper it
calls (once per epoch). Anything else is unknown, and unknown says nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, is_self_attribute, last_name
from shapecheck.engine.walker import children
from shapecheck.loops.first_party import imported_functions
from shapecheck.loops.training_loop import TrainingLoop
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import calls_passing, helper_callers, method_callers
from shapecheck.objects.executor import target_names
from shapecheck.objects.factories import returned_by_definition
from shapecheck.objects.stored import constructor_arguments, stored_parameter
from shapecheck.objects.values import TorchObject
from shapecheck.shapes.evaluator import evaluator

if TYPE_CHECKING:
    from shapecheck.engine.context import CallSite, Context
    from shapecheck.loops.training_loop import Event

Unit = Literal["epochs", "batches"]

# the schedules sized by a number of steps, each with the position of its step count after the optimizer
_HF_SCHEDULES = {"get_linear_schedule_with_warmup": 2, "get_cosine_schedule_with_warmup": 2,
                 "get_polynomial_decay_schedule_with_warmup": 2,
                 "get_cosine_with_hard_restarts_schedule_with_warmup": 2, "get_scheduler": 3}
# OneCycleLR(optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, ...)
_ONE_CYCLE = ("optimizer", "max_lr", "total_steps", "epochs", "steps_per_epoch")
# words of a name that counts something other than epochs: `steps_per_epoch`, `warmup_epochs`, `epoch_iters`
_NOT_EPOCHS = ("step", "iter", "batch", "per", "warm", "len", "size", "start", "cur", "idx", "last")


# A record, not a plain class: SC219 keeps budgets in its file-scope state, which the editor server's checkpoints
# copy; a plain class there is uncopyable and made every edit re-walk the whole file.
@record(slots=True, unsafe_hash=True)
class Budget:
    """The size of a schedule: the expression that gives it, and the unit it counts in; `incomplete` when
    OneCycleLR is given `epochs` without `steps_per_epoch` (its constructor raises)."""

    node: cst.BaseExpression
    unit: Unit | None
    incomplete: bool = False
    # OneCycleLR's batches of an epoch counted `len(dataset) // batch_size`: the two as the code spells them
    floored: tuple[str, str] | None = None


def schedule_budget(ctx: Context, call: cst.Call, before: int | None = None, factories: bool = True,
                    caller: Caller | None = None) -> Budget | None:
    """The budget of the schedule `call` builds, with names read as of `before`, or with `factories` that a
    factory it calls returns; None for another call, a step count not given or hidden by `*args`, or one in no
    unit known. `caller`: `call` is what a factory returns, whose parameters are read at the call of it."""
    if any(arg.star for arg in call.args):
        return None
    qualname = ctx.qualname(call.func) or ""
    name = last_name(call.func)
    if qualname == "torch.optim.lr_scheduler.OneCycleLR":  # a project's own `OneCycleLR` has its own signature
        given = _arguments(call, _ONE_CYCLE)
        if "total_steps" in given:
            budget = _budget(ctx, given["total_steps"], before, caller)
        elif "epochs" not in given:
            return None
        elif "steps_per_epoch" not in given:
            return Budget(given["epochs"], None, incomplete=True)
        elif type(per_epoch := given["steps_per_epoch"]) is cst.Integer and per_epoch.value == "1":
            return Budget(given["epochs"], "epochs")
        else:
            budget = Budget(per_epoch, "batches")
        if budget is not None and budget.unit == "batches" and caller is None:
            budget.floored = _floored(ctx, budget.node, before)
        return budget
    # the warm-up schedules by their names, whose copies in projects (and `pytorch_transformers`) keep the
    # signature; `get_scheduler` only as Hugging Face's
    if name in _HF_SCHEDULES and (name != "get_scheduler" or qualname.startswith("transformers.")):
        given = _arguments(call, ("",) * _HF_SCHEDULES[name] + ("num_training_steps",))
        count = given.get("num_training_steps")
        return _budget(ctx, count, before, caller) if count is not None else None
    return _built_by_factory(ctx, call, before) if factories else None


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, eq=False)
class Caller:
    """The call of a factory whose returned schedule is read: a parameter of the factory that sizes it
    (`def build_scheduler(optimizer, max_lr, total_steps)`) is what the call passes, read in the caller's names."""

    ctx: Context
    call: cst.Call
    before: int | None
    factory: cst.FunctionDef

    def passed(self, name: str) -> cst.BaseExpression | None:
        if not any(param.name.value == name for param in self.factory.params.params):
            return None
        return passed_argument(self.factory, self.call, name)


def unpacked_budget(ctx: Context, name: cst.BaseExpression, before: int | None = None) -> Budget | None:
    """The budget of the schedule `name` (or `self.name`) is unpacked from, out of the tuple a factory returns
    (`optimizer, scheduler = build_optim(model, cfg)` of `return optimizer, OneCycleLR(...)`), read as
    `schedule_budget` reads a factory's one schedule; None for any other binding."""
    if type(name) is not cst.Name and not is_self_attribute(name):
        return None
    binding = ctx.binding(name, before)
    statement = binding.statement if binding is not None and binding.kind in ("unpack", "assign") else None
    if type(statement) is not cst.Assign or len(statement.targets) != 1 or type(statement.value) is not cst.Call:
        return None
    target = statement.targets[0].target
    if type(target) not in (cst.Tuple, cst.List) \
            or any(type(element) is not cst.Element for element in target.elements):  # type: ignore[attr-defined]
        return None
    spelled = dotted_name(name)
    index = [i for i, element in enumerate(target.elements)  # type: ignore[attr-defined]
             if dotted_name(element.value) == spelled]
    return _built_by_factory(ctx, statement.value, binding.seq, index[0]) if len(index) == 1 else None  # type: ignore


def _built_by_factory(ctx: Context, call: cst.Call, before: int | None, index: int | None = None) -> Budget | None:
    """The budget of the schedule a factory of this file, or of a project module it imports the factory or its
    module from, returns (`build_scheduler(optimizer, cfg)`, `schedulers.build(optimizer, args.epochs)` with one
    `return OneCycleLR(...)`; with `index`, the element there of the tuple it returns), read with the factory's names
    and the call's arguments for its parameters."""
    func = call.func
    if type(func) is cst.Name:
        name = func.value
    elif type(func) is cst.Attribute and type(func.value) is cst.Name and _imports_module(ctx, func.value.value):
        name = func.attr.value
    else:
        return None
    readers = [(definition, ctx) for definition in ctx.functions.get(name, ())] if type(func) is cst.Name \
        and name in ctx.functions else [(definition, where) for imported, definition, where
                                        in imported_functions(ctx) if imported == name]
    if len(readers) != 1:
        return None
    factory, reader = readers[0]
    found = returned_by_definition(reader, factory, index)
    if found is None:
        return None
    returned, point = found
    with reader.at(point):
        value, at = reader.value_of(returned)
        return schedule_budget(reader, value, at, factories=False, caller=Caller(ctx, call, before, factory)) \
            if type(value) is cst.Call else None


def _imports_module(ctx: Context, name: str) -> bool:
    """`name` is bound by an import at module level (`import schedulers`, `from utils import optim`)."""
    return any(binding.kind == "import" for binding in ctx._module_scope().bindings.get(name, ()))


def _arguments(call: cst.Call, positions: tuple[str, ...]) -> dict[str, cst.BaseExpression]:
    given = {}
    for index, arg in enumerate(call.args):
        if arg.keyword is not None:
            given[arg.keyword.value] = arg.value
        elif index < len(positions) and positions[index]:
            given[positions[index]] = arg.value
    return given


def _budget(ctx: Context, expr: cst.BaseExpression, before: int | None, caller: Caller | None = None
            ) -> Budget | None:
    if caller is not None and type(expr) is cst.Name and (passed := caller.passed(expr.value)) is not None:
        # the count the factory is handed says its unit, else the parameter's name (`def build(opt, epochs)`)
        unit = count_unit(caller.ctx, passed, caller.before)
        if unit is not None:
            return Budget(passed, unit)
    unit = count_unit(ctx, expr, before)
    return Budget(expr, unit) if unit is not None else None


def count_unit(ctx: Context, expr: cst.BaseExpression, before: int | None, depth: int = 4) -> Unit | None:
    """What the number `expr` counts: "epochs" for a number of epochs (`args.epochs`, `cfg.num_epochs`,
    `cfg["epochs"]`, a local assigned one), "batches" for that number times another (`epochs * len(loader)`,
    divided by the accumulation or not); None otherwise."""
    if depth <= 0:
        return None
    kind = type(expr)
    if kind is cst.Name or kind is cst.Attribute:
        value, at = ctx.value_of(expr, before)
        if value is not expr:
            return count_unit(ctx, value, at, depth - 1)
        return "epochs" if _names_epochs(expr) else None
    if kind is cst.Subscript:
        return "epochs" if _names_epochs(expr) else None
    if kind is cst.Call and len(expr.args) == 1 and dotted_name(expr.func) in ("int", "math.ceil", "math.floor",
                                                                                "round"):
        return count_unit(ctx, expr.args[0].value, before, depth - 1)
    if kind is cst.BinaryOperation:
        operator = type(expr.operator)
        if operator is cst.Multiply:
            units = (count_unit(ctx, expr.left, before, depth - 1), count_unit(ctx, expr.right, before, depth - 1))
            other = expr.right if units[0] == "epochs" else expr.left if units[1] == "epochs" else None
            if other is not None and not (type(other) is cst.Integer and other.value == "1"):
                return "batches"
        elif operator in (cst.FloorDivide, cst.Divide) and count_unit(ctx, expr.left, before, depth - 1) == "batches":
            return "batches"  # the batches of all epochs over the accumulation steps
    return None


def _floored(ctx: Context, expr: cst.BaseExpression, before: int | None, depth: int = 4) -> tuple[str, str] | None:
    """The dataset and the batch size of a count of batches `len(dataset) // batch_size` (or `int(len(dataset) /
    batch_size)`) that `expr` is or multiplies (`epochs * (len(train_ds) // args.batch_size)`), as spelled."""
    if depth <= 0:
        return None
    kind = type(expr)
    if kind is cst.Name or kind is cst.Attribute:
        value, at = ctx.value_of(expr, before)
        return _floored(ctx, value, at, depth - 1) if value is not expr else None
    if kind is cst.Call and len(expr.args) == 1 and dotted_name(expr.func) in ("int", "math.floor"):
        inner = expr.args[0].value
        if type(inner) is cst.BinaryOperation and type(inner.operator) is cst.Divide:
            return _floored(ctx, inner.with_changes(operator=cst.FloorDivide()), before, depth - 1)
        return _floored(ctx, inner, before, depth - 1)
    if kind is not cst.BinaryOperation:
        return None
    if type(expr.operator) is cst.Multiply:
        return _floored(ctx, expr.left, before, depth - 1) or _floored(ctx, expr.right, before, depth - 1)
    left = expr.left
    if type(expr.operator) is cst.FloorDivide and type(left) is cst.Call and dotted_name(left.func) == "len" \
            and len(left.args) == 1 and not left.args[0].star:
        return ctx.code(left.args[0].value), ctx.code(expr.right)
    return None


def keeps_partial_batch(ctx: Context, loop: cst.CSTNode, floored: tuple[str, str]) -> bool:
    """`loop` goes over a `DataLoader` of the dataset and batch size `floored` names that keeps the last, partial
    batch of an epoch (no `drop_last=True`, no sampler of batches): `ceil(len / batch_size)` batches, one more than
    `len // batch_size` whenever the batch size does not divide the dataset."""
    if type(loop) is not cst.For:
        return False
    iterated = loop.iter
    while type(iterated) is cst.Call and dotted_name(iterated.func) in ("enumerate", "tqdm", "tqdm.tqdm") \
            and iterated.args:
        iterated = iterated.args[0].value
    with ctx.at(ctx.point_within(iterated) or ctx.module_point()):
        built = evaluator(ctx).value(iterated)  # `self.train_loader` its `__init__` built, too
    loader = built.call if isinstance(built, TorchObject) and built.qualname.endswith(".DataLoader") else None
    if loader is None or any(arg.star for arg in loader.args):
        return False
    given = _arguments(loader, ("dataset", "batch_size"))
    drop_last = given.get("drop_last")
    if "batch_sampler" in given or drop_last is not None and not (type(drop_last) is cst.Name
                                                                  and drop_last.value == "False"):
        return False
    dataset, batch_size = given.get("dataset"), given.get("batch_size")
    return dataset is not None and batch_size is not None \
        and (ctx.code(dataset), ctx.code(batch_size)) == floored


def _names_epochs(expr: cst.BaseExpression) -> bool:
    name = _key(expr) if type(expr) is cst.Subscript else dotted_name(expr)
    if name is None:
        return False
    word = name.rsplit(".", 1)[-1].lower()
    return "epoch" in word and not any(other in word for other in _NOT_EPOCHS)


def _key(expr: cst.Subscript) -> str | None:
    """The string key a config entry is read with (`cfg["epochs"]`, `cfg["train"]["num_epochs"]`)."""
    if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
        return None
    key = expr.slice[0].slice.value
    return key.evaluated_value if type(key) is cst.SimpleString and isinstance(key.evaluated_value, str) else None


def over_stepped(loop: cst.CSTNode, step: cst.Call) -> bool:
    """`loop` iterates the schedulers the step steps: `for scheduler in self.schedulers: scheduler.step()`."""
    receiver = step.func.value  # type: ignore[attr-defined]  # a schedule event is a `.step()` call
    return type(loop) is cst.For and type(receiver) is cst.Name and receiver.value in target_names(loop.target)


def checks_existence(test: cst.BaseExpression, subject: str | None) -> bool:
    """`scheduler is not None`, `scheduler`, `self.scheduler is not None`: the test asks whether there is one."""
    if type(test) is cst.Comparison and len(test.comparisons) == 1 \
            and type(test.comparisons[0].operator) is cst.IsNot \
            and type(test.comparisons[0].comparator) is cst.Name and test.comparisons[0].comparator.value == "None":
        test = test.left
    return subject is not None and dotted_name(test) == subject


def handed_budgets(ctx: Context, function: cst.FunctionDef, receiver: cst.BaseExpression, depth: int = 0
                   ) -> list[Budget]:
    """The budgets of the schedules `receiver` holds when it is handed over: a parameter of `function` by the calls
    of it (of this file or of the modules importing it), or `self.scheduler` by the constructions of the class
    whose `__init__` stores it (a callback built with its schedule), each read with its caller's names; a call
    handing something else adds none. A caller handing on a parameter of its own (`train_epoch(model, loader,
    optimizer, scheduler)` calling `train_batch(..., scheduler)`) is read at its own calls in turn."""
    found: list[Budget] = []

    def holds(caller: Context, passed: cst.BaseExpression) -> bool:
        value, before = caller.value_of(passed)
        budget = unpacked_budget(caller, passed)
        if budget is None and type(value) is cst.Call:
            budget = schedule_budget(caller, value, before)
        if budget is not None:
            found.append(budget)
        elif type(value) is cst.Name and caller.function is not None and depth < 2:
            binding = caller.binding(value)
            if binding is not None and binding.kind == "param" and binding.statement is caller.function:
                handed = handed_budgets(caller, caller.function, value, depth + 1)
                found.extend(handed)
                return bool(handed)
        return budget is not None

    if type(receiver) is cst.Name:
        if any(param.name.value == receiver.value for param in function.params.params):
            calls_passing(ctx, function, receiver.value, holds)
        return found
    class_def = ctx.class_of_method(function)
    stored = stored_parameter(ctx, receiver, class_def) if class_def is not None else None
    if stored is not None:
        for argument, point, reader in constructor_arguments(ctx, *stored) or ():
            with reader.at(point):
                holds(reader, argument)
    return found


def stepping_unit(training: TrainingLoop, event: Event) -> Unit | None:
    """How often the schedule step `event` runs: "batches" when the loop around it steps the optimizer on the same
    pass and goes over the data (not a loop over epochs nor a `range`), "epochs" when the loop's optimizer steps
    are all in a loop nested in it or in a loop of a helper it calls; None otherwise, and for a step under an
    `if` (other than `if scheduler is not None:` and, per batch, the modulo `if` of gradient accumulation). A
    callback's step (`def on_train_batch_end(self, trainer): self.scheduler.step()`) runs as often as the calls
    that run it on each callback, where every trainer running it agrees."""
    step = event.node
    loops = event.loops
    while loops and over_stepped(loops[-1], step):  # type: ignore[arg-type]
        loops = loops[:-1]
    guarded = any(not checks_existence(guard.test, event.subject) for guard, _ in event.guards) \
        or bool(event.skipped_by)
    if loops:
        return _unit_in(training, loops[-1], event.function, guarded, event.accumulation_guard is not None)
    if event.function is None or guarded:
        return None
    units = set()
    # a callback's method run on each callback, else a method or helper of the file run by its own calls
    # (`self.train_step(x, y)` in the batch loop of the trainer's `fit`)
    runs = training.runs_of(event.function) or [(training, site) for site in _called_at(training.ctx, event.function)]
    for caller, site in runs:
        around = caller.enclosing(site.loop) if site.loop is not None else ()
        while around and _over_callbacks(around[-1], site.node):
            around = around[:-1]
        if not around:
            return None
        units.add(_unit_in(caller, around[-1], site.function, _guarded(around[-1], site.node), False))
    return units.pop() if len(units) == 1 else None


def _called_at(ctx: Context, function: cst.FunctionDef) -> list[CallSite]:
    """The calls of `function` in its file, when all of them are known: `self.name(...)` of a method in its class
    (and calls on its certain instances), or a plain function's calls by its name; [] otherwise."""
    if ctx.class_of_method(function) is not None:
        found = method_callers(ctx, function)
    else:
        found = helper_callers(ctx, function)
    return [site for site, _ in found or ()]


def _unit_in(training: TrainingLoop, loop: cst.CSTNode, function: cst.FunctionDef | None, guarded: bool,
             accumulation: bool) -> Unit | None:
    """How often a schedule step in `loop` of `function` runs (see `stepping_unit`)."""
    beside, nested = False, False
    for other in training.in_loop(loop):
        if other.optimizer_step and other.function is function:
            if other.loops[-1] is loop:
                beside = True
            else:
                nested = True
    for site in training.local_calls_in(loop, function):
        for other in training.helper_events(site.node):
            if other.optimizer_step:
                inner = site.loop is not loop or bool(other.loops)
                beside, nested = beside or not inner, nested or inner
    if beside and not nested and _over_data(loop) and (not guarded or accumulation):
        return "batches"
    if nested and not beside and not guarded:
        return "epochs"
    return None


def _over_callbacks(loop: cst.CSTNode, call: cst.Call) -> bool:
    """`loop` goes over the callbacks `call` runs a method of: `for cb in self.callbacks: cb.on_batch_end(self)`,
    `getattr(cb, event)(self)`."""
    func = call.func
    if type(func) is cst.Call and func.args:
        func = func.args[0].value
    elif type(func) is cst.Attribute:
        func = func.value
    return type(loop) is cst.For and type(func) is cst.Name and func.value in target_names(loop.target)


def _guarded(loop: cst.CSTNode, call: cst.Call) -> bool:
    """An `if` of `loop`'s body holds `call`."""
    stack: list[tuple[cst.CSTNode, bool]] = [(loop.body, False)]  # type: ignore[attr-defined]
    while stack:
        node, under = stack.pop()
        if node is call:
            return under
        if type(node) in (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        under = under or type(node) is cst.If
        stack.extend((child, under) for child in children(node))
    return False


def _over_data(loop: cst.CSTNode) -> bool:
    """`for x, y in loader`, `for i, batch in enumerate(tqdm(loader))`: not `for epoch in ...`, nor a `range` of a
    count (`range(len(loader))` goes over the batches), nor a `while`."""
    if type(loop) is not cst.For:
        return False
    if any("epoch" in name.lower() for name in target_names(loop.target)):
        return False
    source = loop.iter
    while type(source) is cst.Call and last_name(source.func) in ("enumerate", "tqdm", "iter", "zip") \
            and source.args:
        source = source.args[0].value
    if type(source) is cst.Call and last_name(source.func) == "range":
        return len(source.args) == 1 and type(source.args[0].value) is cst.Call \
            and last_name(source.args[0].value.func) == "len"
    return "epoch" not in (dotted_name(source) or "").lower()
