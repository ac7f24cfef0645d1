"""The training-loop analysis every loop rule reads: what a backward pass, an optimizer step, a gradient reset, a
train/eval switch, a scheduler step, a gradient clip or a `GradScaler.unscale_` looks like, and `TrainingLoop`, the
record of where each of them sits in the file, filled in by the engine's traversal and queried in a rule's `finish()`.

It follows objects by binding: a step knows the optimizer it steps and, where its construction is in view, the
modules whose `.parameters()` it holds; a `zero_grad()` knows whether it resets an optimizer or a module. Events keep
their source order (`order`), their function (None: module level, which is one body in source order, as a notebook
runs) and the loops around them, and same-file helpers are followed two calls deep with their subjects spelled as
the caller spells them. Train/eval state is a region, from `eval()` to the next `train()` of the same module in
source order (`eval_regions`), not a property of a whole scope.

Recording is cheap: the engine only looks at calls whose last name is one of a handful (`backward`, `step`,
`zero_grad`, `eval`, ...) and at assignments inside loops; everything else is computed when a rule asks.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, is_self_attribute, last_name, param_named
from shapecheck.engine.walker import walk
from shapecheck.loops.callbacks import Dispatch, callback_methods, dispatches, neighbours
from shapecheck.loops.first_party import base_methods, imported_functions
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import callers, every_call_passes, helper_callers
from shapecheck.objects.class_bases import own_class_bases
from shapecheck.objects.factories import built_returns, returned_by_factory
from shapecheck.objects.modules import RETURNS_SELF, is_module
from shapecheck.objects.project import PROJECT, imported_function
from shapecheck.objects.stored import assigned_pairs, stored_parameter, stored_parameters
from shapecheck.objects.values import FunctionValue

if TYPE_CHECKING:
    from shapecheck.engine.context import CallSite, Context

EventKind = Literal["backward", "step", "reset", "eval", "train", "schedule", "unscale", "clip"]
TRAINING: frozenset[EventKind] = frozenset({"backward", "step"})

# `optimizer`, `optim`, `opt`, `optG`, `opt_d`, `d_opt`, `optimizers[0]`: what projects call their optimizers.
# Not `options`, `opts.step` or `lr_scheduler.step()`, whose `step` means something else.
_OPTIMIZER_NAME = re.compile(r"[Oo]ptim|(?:^|_)[Oo]pt(?:$|_|\d|[A-Z])")
# The packages whose classes are no learning-rate schedulers, torch's outside `torch.optim.lr_scheduler`: a
# project class based on one of them (`abc.ABC`, `object`) steps as its own `step()` says.
_NO_SCHEDULER_PACKAGES = frozenset({*sys.stdlib_module_names, "torch"})
_OPTIMIZER_CLASSES = frozenset(
    {"SGD", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "ASGD", "LBFGS", "NAdam", "RAdam", "RMSprop", "Rprop",
     "SparseAdam", "Adafactor", "Lion", "Lamb", "LAMB", "LARS", "FusedAdam", "FusedLAMB", "Adam8bit", "AdamW8bit",
     "ZeroRedundancyOptimizer", "DistributedOptimizer"}
)
# `zero_grad()`, `_zero_grads(model)`, chainer-style `cleargrads()`, `reset_grad()`.
_RESET_NAME = re.compile(r"zero_?grad|clear_?grad|reset_?grad", re.IGNORECASE)
# In-place tensor methods an update `p -= lr * p.grad` is spelled with.
IN_PLACE_UPDATES = frozenset({"sub_", "add_", "addcdiv_", "addcmul_", "copy_"})


def text_of(ctx: Context, expr: cst.BaseExpression) -> str:
    """A comparable spelling of an expression: the dotted name when it is one, else its code."""
    return dotted_name(expr) or ctx.code(expr)


def _receiver_name(expr: cst.BaseExpression) -> str | None:
    """The identifier that names a receiver: `self.optimizer` -> "optimizer", `optimizers[0]` -> "optimizers"."""
    while type(expr) is cst.Subscript:
        expr = expr.value
    return last_name(expr) or None


def called_module(call: cst.Call) -> str | None:
    """The spelling of the module a call runs: "model" for `model(x)` and `model.forward(x)`, "self.net" for
    `self.net(x)`; None when what is called is no dotted name."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value == "forward":
        func = func.value
    return dotted_name(func)


def is_backward(ctx: Context, call: cst.Call) -> bool:
    """`loss.backward()`, `scaler.scale(loss).backward()`, `accelerator.backward(loss)`, `torch.autograd.backward(l)`.

    Not `dist_autograd.backward(context_id, ...)` (gradients live in the context, nothing accumulates), nor a class
    calling its own `self.backward(...)` (a hand-written network)."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "backward":
        return False
    receiver = func.value
    if type(receiver) is cst.Name:
        if receiver.value == "self":
            return False
        binding = ctx.binding(receiver)
        if binding is not None and binding.kind in ("import", "class"):
            return ctx.qualname(func) == "torch.autograd.backward"
    elif type(receiver) is cst.Attribute and ctx.qualname(receiver) is not None:
        return ctx.qualname(func) == "torch.autograd.backward"
    return not ctx.is_foreign(receiver)


def _is_scaler(ctx: Context, receiver: cst.BaseExpression) -> bool:
    name = _receiver_name(receiver)
    if name is not None and "scaler" in name.lower():
        return True
    value, _ = ctx.value_of(receiver)
    return type(value) is cst.Call and (_receiver_name(value.func) or "").endswith("GradScaler")


def stepped_optimizer(ctx: Context, call: cst.Call) -> cst.BaseExpression | None:
    """The optimizer a `.step(...)` call steps: `opt` for `opt.step()` / `opt.step(closure)` and for
    `scaler.step(opt)`; None for schedulers, environments, profilers, DeepSpeed engines and anything unsure."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "step":
        return None
    receiver = func.value
    if _is_scaler(ctx, receiver):
        return call.args[0].value if call.args else None
    return receiver if is_optimizer(ctx, receiver) else None


def is_optimizer(ctx: Context, expr: cst.BaseExpression) -> bool:
    """`expr` names an optimizer: it was built by `torch.optim.*` or a known optimizer class, or, when its
    construction is not in view, it is called like one (`optimizer`, `opt_d`, `optimizers[0]`, not a scheduler).
    An object of a project class torch's optimizer is no base of is none, whatever its name (MixMatch's
    `ema_optimizer = WeightEMA(model, ema_model)`, whose `step()` averages weights). The variable of a loop over
    optimizers is one: `o` of `for o in self.optimizers:`."""
    iterable = _iterated(ctx, expr)
    if iterable is not None:
        elements = _built_elements(ctx, iterable)
        if elements is not None:
            return all(is_optimizer(ctx, element) for element in elements)
        expr = iterable
    value, before = ctx.value_of(expr)
    if type(value) is cst.Call:
        qualname = ctx.qualname(value.func) or ""
        constructor = _receiver_name(value.func) or ""
        if "sched" in qualname.lower() or "sched" in constructor.lower():
            return False
        if qualname.startswith("torch.optim.") or constructor in _OPTIMIZER_CLASSES:
            return True
        if _torch_class(ctx, value, before, _is_optimizer_base) is False:
            return False
    name = _receiver_name(expr)
    if name is None or "sched" in name.lower() or not _OPTIMIZER_NAME.search(name):
        return False
    return not ctx.is_foreign(expr)


def stepped_scheduler(ctx: Context, call: cst.Call) -> cst.BaseExpression | None:
    """The learning-rate scheduler a bare `.step()` steps: built by `torch.optim.lr_scheduler.*` or a `*LR` /
    `*Scheduler` class, or named like one (`scheduler`, `lr_sched`). A step with arguments is left out:
    `ReduceLROnPlateau.step(val_loss)` and diffusion samplers' `scheduler.step(output, t, x)` are other things, and
    so is a class of the project's own that torch's scheduler is no base of (vq-vae-2's `CycleScheduler`, whose
    `step()` sets the rate of the coming update)."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "step" or call.args:
        return None
    receiver = func.value
    iterable = _iterated(ctx, receiver)  # `for scheduler in self.schedulers: scheduler.step()`
    if iterable is not None:
        elements = _built_elements(ctx, iterable)
        if elements is not None:
            return receiver if all(_scheduler_construction(ctx, *ctx.value_of(element)) for element in elements) \
                else None
        name = (_receiver_name(iterable) or "").lower()
        return receiver if "sched" in name and "noise" not in name and not ctx.is_foreign(iterable) else None
    built = _scheduler_construction(ctx, *ctx.receiver_value_of(receiver))
    if built is not None:
        return receiver if built else None
    name = (_receiver_name(receiver) or "").lower()
    return receiver if "sched" in name and "noise" not in name and not ctx.is_foreign(receiver) else None


def _iterated(ctx: Context, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """The iterable a `for` loop takes the name `expr` from: `self.optimizers` for `o` of `for o in
    self.optimizers:`; None for any other name or binding."""
    binding = ctx.binding(expr) if type(expr) is cst.Name else None
    if binding is None or binding.kind != "for" or type(binding.statement.target) is not cst.Name:  # type: ignore
        return None
    return binding.value


def _built_elements(ctx: Context, iterable: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """What a list the code writes out holds (`[opt_g, opt_d]`), or the one value a comprehension builds
    (`[StepLR(o, 2) for o in self.optimizers]`); None when neither is in view."""
    value, _ = ctx.value_of(iterable)
    if type(value) in (cst.List, cst.Tuple) and value.elements \
            and all(type(element) is cst.Element for element in value.elements):  # type: ignore[attr-defined]
        return [element.value for element in value.elements]  # type: ignore[attr-defined]
    if type(value) is cst.ListComp:
        return [value.elt]
    return None


def _scheduler_construction(ctx: Context, value: cst.BaseExpression, before: int | None) -> bool | None:
    """Whether `value` (its names read as of `before`) builds a learning-rate scheduler: True for
    `torch.optim.lr_scheduler.StepLR(opt, 2)`, a `*LR` / `*Scheduler` class or a project class based on torch's
    scheduler, False for a project class that is not (vq-vae-2's `CycleScheduler`), None for anything else."""
    if type(value) is not cst.Call:
        return None
    torch_scheduler = _torch_class(ctx, value, before, _is_scheduler_base)
    if torch_scheduler is not None:
        return torch_scheduler
    qualname = ctx.qualname(value.func) or ""
    constructor = _receiver_name(value.func) or ""
    if qualname.startswith("torch.optim.lr_scheduler.") or constructor.endswith(("LR", "Scheduler")):
        return True
    return True if _scheduler_factory(ctx, value) else None


def _scheduler_factory(ctx: Context, call: cst.Call) -> bool:
    """`call` runs a plain function of the file, or one the file imports from another module of the project, whose
    every `return` gives a scheduler it builds, through a local name bound to one on each branch (pix2pix's
    `get_scheduler(optimizer, opt)`: `scheduler = lr_scheduler.LambdaLR(...)` or `StepLR(...)` by the policy, then
    `return scheduler`)."""
    if type(call.func) is not cst.Name:
        return False
    name = call.func.value
    found = [(definition, ctx) for definition in ctx.functions.get(name, ())] if name in ctx.functions else [
        (definition, other) for imported, definition, other in imported_functions(ctx) if imported == name]
    if len(found) != 1 or found[0][1].class_of_method(found[0][0]) is not None:
        return False
    definition, reader = found[0]
    built = built_returns(definition)
    return built is not None and all(_builds_torch_scheduler(reader, value) for value in built)


def _builds_torch_scheduler(ctx: Context, value: cst.BaseExpression) -> bool:
    """`lr_scheduler.StepLR(optimizer, 10)`, read at the module level of the factory's file."""
    if type(value) is not cst.Call:
        return False
    with ctx.at(ctx.module_point()):
        return (ctx.qualname(value.func) or "").startswith("torch.optim.lr_scheduler.")


def _is_scheduler_base(base: str) -> bool:
    return base.startswith("torch.optim.lr_scheduler.")


def _is_optimizer_base(base: str) -> bool:
    return base.startswith("torch.optim.") and not _is_scheduler_base(base)


def own_object(ctx: Context, expr: cst.BaseExpression, torch_base: Callable[[str], bool]) -> bool:
    """`expr` holds None or an object of a class of the project that no torch class `torch_base` accepts (its
    LR scheduler, its optimizer) is a base of."""
    value, before = ctx.value_of(expr)
    if type(value) is cst.Name and value.value == "None":
        return True
    return type(value) is cst.Call and _torch_class(ctx, value, before, torch_base) is False


def _torch_class(ctx: Context, call: cst.Call, before: int | None, torch_base: Callable[[str], bool]) -> bool | None:
    """For the construction of a class of the project: whether a torch class `torch_base` accepts is among its
    bases; None for another callee, or a class with a base of another package (which may derive from torch's) or
    one not read."""
    bases = own_class_bases(ctx, call, before)
    if bases is None:
        return None
    if any(base is not None and torch_base(base) for base in bases):
        return True
    if any(base is None or base.split(".", 1)[0] not in _NO_SCHEDULER_PACKAGES for base in bases):
        return None
    return False


def parameter_owners(ctx: Context, optimizer: cst.BaseExpression) -> frozenset[str] | None:
    """The modules whose parameters an optimizer holds, read off its construction: {"model"} for
    `Adam(model.parameters())`, {"G", "D"} for `Adam(list(G.parameters()) + list(D.parameters()))`; None when the
    construction is not in view or names no module's parameters."""
    groups = owner_groups(ctx, optimizer)
    return frozenset().union(*groups) if groups is not None else None


def owner_groups(ctx: Context, optimizer: cst.BaseExpression) -> tuple[frozenset[str], ...] | None:
    """`parameter_owners` module by module, each with the `self.` attributes a trainer stores it as:
    ({"encoder", "self.encoder"}, {"decoder", "self.decoder"}) for `self.opt = Adam(chain(encoder.parameters(),
    decoder.parameters()))` with `self.encoder = encoder; self.decoder = decoder`."""
    construction, seq = ctx.value_of(optimizer)
    if type(construction) is not cst.Call:
        return None
    owners: set[str] = set()
    # the groups may be built beforehand (`params = [{"params": ...}, ...]; SGD(params)`): names are followed, as
    # of the construction, in the function that makes it (a trainer's `__init__` for its `self.opt`)
    binding = ctx.binding(optimizer)
    point = ctx.point_of(binding) if binding is not None and binding.value is construction else None
    # a trainer's `self.opt = self.configure_optimizers()`: what that method of the class (or a same-file function)
    # returns, read at its end
    built = returned_by_factory(ctx, construction, methods=True)
    if built is None:
        handed = _factory_owners(ctx, construction)
        if handed is not None:  # `self.opt = build_optimizer(cfg, self.model)` of another module
            return tuple(frozenset({owner} | _stored_as(ctx, optimizer, {owner})) for owner in sorted(handed))
    if built is not None:
        returned, point = built
        with ctx.at(point):
            construction, seq = ctx.value_of(returned)
        if type(construction) is not cst.Call:
            return None
    with ctx.at(point) if point is not None else nullcontext():
        read: list[tuple[cst.CSTNode, int | None]] = [(arg.value, seq) for arg in construction.args
                                                      if arg.keyword is None or arg.keyword.value == "params"]
        for _ in range(4):
            named = []
            for expr, before in read:
                for node in ctx.walk(expr):
                    if type(node) is cst.Call and type(node.func) is cst.Attribute \
                            and node.func.attr.value in ("parameters", "named_parameters"):
                        owners.add(dotted_name(node.func.value) or "")
                    elif type(node) is cst.Name or type(node) is cst.Attribute and is_self_attribute(node):
                        value, bound = ctx.value_of(node, before)  # type: ignore[arg-type]
                        if value is not node:
                            named.append((value, bound))
            read = named
    owners.discard("")
    return tuple(frozenset({owner} | _stored_as(ctx, optimizer, {owner})) for owner in sorted(owners)) or None


def _factory_owners(ctx: Context, call: cst.Call) -> set[str] | None:
    """The modules an optimizer factory is handed whose parameters every `return` of it optimizes: {"self.model"}
    for `build_optimizer(cfg, self.model)` of a function (of the file, or of a project module: `from optim import
    build_optimizer`) returning `torch.optim.Adam(model.parameters(), ...)` in one branch and `SGD(model
    .parameters(), ...)` in another; None when a `return` is anything else or names no parameter so."""
    func = call.func
    if type(func) is not cst.Name:
        return None
    definitions = ctx.functions.get(func.value, [])
    if len(definitions) == 1 and ctx.class_of_method(definitions[0]) is None:
        definition, where = definitions[0], ctx
    else:
        found = imported_function(ctx, func) if not definitions else None
        if found is None:
            return None
        definition, where = found
    params = {param.name.value for param in definition.params.params}
    bound = {name for node in walk(definition.body) if type(node) is cst.Assign
             for target in node.targets for name in ([target.target.value] if type(target.target) is cst.Name else [])}
    returns = [node.value for node in walk(definition.body) if type(node) is cst.Return]
    if not returns or any(type(node) in (cst.FunctionDef, cst.Lambda) for node in walk(definition.body)):
        return None
    handed: set[str] | None = None
    for value in returns:
        if type(value) is not cst.Call or not (where.qualname(value.func) or "").startswith("torch.optim."):
            return None
        named = {node.func.value.value for arg in value.args if arg.keyword is None or arg.keyword.value == "params"
                 for node in walk(arg.value) if type(node) is cst.Call and type(node.func) is cst.Attribute
                 and node.func.attr.value == "parameters" and type(node.func.value) is cst.Name}
        if not named or not named <= params or named & bound or handed is not None and named != handed:
            return None
        handed = named
    owners = set()
    for parameter in handed or ():
        passed = passed_argument(definition, call, parameter)
        spelled = dotted_name(passed) if passed is not None else None
        if spelled is None:
            return None
        owners.add(spelled)
    return owners or None


def _stored_as(ctx: Context, optimizer: cst.BaseExpression, owners: set[str]) -> set[str]:
    """The `self.` attributes a trainer's constructor stores its owners in, spelled as its methods spell them:
    with `self.model = model; self.opt = SGD(model.parameters())`, the loop's `self.model.zero_grad()` resets what
    `self.opt` steps, and with `self.opt = SGD(self.model.parameters())` a `model.zero_grad()` there does too."""
    binding = ctx.binding(optimizer)
    if binding is None or binding.value is None:
        return set()
    function = next((node for node in reversed(binding.path) if type(node) is cst.FunctionDef), None)
    if function is None:
        return set()
    stored: set[str] = set()
    for assigned, given in assigned_pairs(ctx, function.body):
        target, value = dotted_name(assigned), dotted_name(given)
        if target is None or value is None or not target.startswith("self."):
            continue
        for owner in owners:
            if owner == value or owner.startswith(value + "."):
                stored.add(target + owner[len(value):])
            elif owner == target or owner.startswith(target + "."):
                stored.add(value + owner[len(target):])
    return stored


def related(model: str, owner: str) -> bool:
    """`model` and `owner` name the same module or one holds the other (`model` and `model.head`)."""
    return model == owner or model.startswith(owner + ".") or owner.startswith(model + ".")


def runs_weights_of(ctx: Context, call: cst.Call, module: str, owner: str, before: int) -> bool:
    """`call`, which runs what `module` spells (`called_module`, as the reader spells it), computes with the weights
    of the module `owner` names: it runs `owner` itself or a module holding it (`model(x)` for an optimizer of
    `model.head`), or one attribute of it (a submodule, `model.encoder(x)`, or a method, `model.encode(x)`). A call
    further down (`self.model.tokenizer.encode(text)`) runs a method of what an attribute of the module holds,
    which may be a tokenizer, a config or a plain helper whose results carry no graph: only where that attribute is
    known to hold a module (read as of `before`)."""
    if not related(module, owner):
        return False
    if module == owner or owner.startswith(module + ".") or "." not in module[len(owner) + 1:]:
        return True
    func = call.func
    if type(func) is not cst.Attribute:
        return False
    # the shapes floor's evaluator, loaded only for these calls: most files' loop rules never ask
    from shapecheck.shapes.evaluator import evaluator

    return is_module(evaluator(ctx).value(func.value, before))


def is_scaled_backward(ctx: Context, call: cst.Call) -> bool:
    """`scaler.scale(loss).backward()`: the gradients it leaves are multiplied by the scaler's scale."""
    receiver = call.func.value  # type: ignore[attr-defined]
    return type(receiver) is cst.Call and type(receiver.func) is cst.Attribute \
        and receiver.func.attr.value == "scale" and _is_scaler(ctx, receiver.func.value)


_CLIPS = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_",
                    "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_value_"})


def names_in(expr: cst.CSTNode) -> list[str]:
    """The names an expression computes from, through calls, arithmetic and attribute chains, dotted ones too:
    `loss` in `scaler.scale(loss).backward()`, `losses` and `torch.stack` in `torch.stack(losses).sum()`, `d_real` in
    `g_target * torch.sum(d_real)`, `output` in `output["loss"].backward()`."""
    found: list[str] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is cst.Name:
            found.append(node.value)  # type: ignore[attr-defined]
        elif kind is cst.Attribute:
            stack.append(node.value)  # type: ignore[attr-defined]
            dotted = dotted_name(node)  # type: ignore[arg-type]
            if dotted is not None:
                found.append(dotted)
        elif kind is cst.Call:
            stack.append(node.func)  # type: ignore[attr-defined]
            stack.extend(arg.value for arg in node.args)  # type: ignore[attr-defined]
        elif kind is cst.BinaryOperation:
            stack.extend((node.left, node.right))  # type: ignore[attr-defined]
        elif kind is cst.UnaryOperation:
            stack.append(node.expression)  # type: ignore[attr-defined]
        elif kind is cst.Subscript:  # `output["loss"].backward()` backpropagates through `output`
            stack.append(node.value)  # type: ignore[attr-defined]
    return found


def is_step_call(node: cst.CSTNode) -> bool:
    """An optimizer's `.step()` call, as opposed to a hand-written update."""
    return type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "step"


def is_reset_call(call: cst.Call) -> bool:
    """`opt.zero_grad()`, `model.zero_grad(set_to_none=True)`, `p.grad.zero_()`, `p.grad.data.zero_()`,
    `p.grad.fill_(0)`, a `zero_grads(model)` helper."""
    func = call.func
    if type(func) is cst.Name:
        return _is_reset_name(func.value)
    if type(func) is not cst.Attribute:
        return False
    name = func.attr.value
    if name == "zero_" or name == "fill_" and len(call.args) == 1 and _is_zero(call.args[0].value):
        receiver = func.value
        if type(receiver) is cst.Attribute and receiver.attr.value == "data":
            receiver = receiver.value
        return type(receiver) is cst.Attribute and receiver.attr.value == "grad"
    return _is_reset_name(name)


def _is_zero(expr: cst.BaseExpression) -> bool:
    return type(expr) in (cst.Integer, cst.Float) and float(expr.value) == 0  # type: ignore[attr-defined]


def _is_reset_name(name: str) -> bool:
    # Every reset name has "grad" or "Grad" in it: a substring test spares the regex on nearly every call.
    return "rad" in name and _RESET_NAME.search(name) is not None


def is_grad_target(target: cst.BaseExpression) -> bool:
    """`p.grad` as an assignment or `del` target: `p.grad = None` resets a gradient."""
    return type(target) is cst.Attribute and target.attr.value == "grad"


def may_switch_mode(node: cst.CSTNode) -> bool:
    """`x.eval()` or `x.train(...)`, whatever `x` is: a call that may leave a module in either mode. What a question
    asks where it does not follow the receiver; `mode_switch` names the module where it can."""
    return type(node) is cst.Call and type(node.func) is cst.Attribute \
        and node.func.attr.value in _MODE_METHODS  # type: ignore[attr-defined]


def switches_mode(code: cst.CSTNode) -> bool:
    """Some call in `code` may switch a module's mode (`may_switch_mode`): a model a function returns after one
    (`def load(path): ...; model.eval(); return model`) may be in either mode."""
    return any(may_switch_mode(node) for node in walk(code))


def may_leave_eval(code: cst.CSTNode) -> bool:
    """Some call in `code` may switch a module to eval mode: `x.eval()`, or `x.train(...)` given anything but a
    literal `True` (`model.train(False)`, `model.train(mode)`). A training helper that only calls `model.train()`
    hands its model back in train mode."""
    for node in walk(code):
        if may_switch_mode(node):
            args = node.args  # type: ignore[attr-defined]
            if node.func.attr.value == "eval" or args and not (  # type: ignore[attr-defined]
                    len(args) == 1 and type(args[0].value) is cst.Name and args[0].value.value == "True"):
                return True
    return False


_MODE_METHODS = frozenset({"eval", "train"})


def mode_switch(ctx: Context, call: cst.Call) -> tuple[Literal["eval", "train"], str] | None:
    """("eval", "model") for `model.eval()` / `model.train(False)`, ("train", "model") for `model.train()` /
    `model.train(True)` / `model.train(mode)` / `model.to(device).train()`; None for anything else
    (`trainer.train(data)` has no model spelling to follow either)."""
    if not may_switch_mode(call):
        return None
    func = call.func
    name = func.attr.value  # type: ignore[attr-defined]
    receiver = func.value  # type: ignore[attr-defined]
    while type(receiver) is cst.Call and type(receiver.func) is cst.Attribute \
            and receiver.func.attr.value in RETURNS_SELF:
        receiver = receiver.func.value
    subject = dotted_name(receiver)
    if subject is None or ctx.is_foreign(receiver):
        return None
    if name == "eval":
        return ("eval", subject) if not call.args else None
    if not call.args:
        return "train", subject
    if len(call.args) > 1:
        return None
    arg = call.args[0]
    if arg.keyword is not None and arg.keyword.value != "mode":
        return None
    value = arg.value
    if type(value) is cst.Name and value.value == "False":
        return "eval", subject
    return "train", subject


def _restores_mode(ctx: Context, call: cst.Call, subject: str) -> bool:
    """`model.train(mode)` puts back the mode a name saved from the same module (`mode = model.training`)."""
    if len(call.args) != 1 or type(call.args[0].value) is not cst.Name:
        return False
    saved, _ = ctx.value_of(call.args[0].value)
    return type(saved) is cst.Attribute and saved.attr.value == "training" and dotted_name(saved.value) == subject


def grad_owners(ctx: Context, expr: cst.CSTNode) -> set[str]:
    """Spellings of the tensors whose `.grad` an expression reads: {"p"} for `lr * p.grad.data`, also through a
    local name (`g = p.grad` ... `lr * g`). A variable merely named `grad` is no gradient read."""
    owners: set[str] = set()
    for node in ctx.walk(expr):
        kind = type(node)
        if kind is cst.Attribute and node.attr.value == "grad":
            owners.add(text_of(ctx, node.value))
        elif kind is cst.Name:
            value, _ = ctx.value_of(node)
            if type(value) is cst.Attribute and value.attr.value == "data":
                value = value.value
            if type(value) is cst.Attribute and value.attr.value == "grad":
                owners.add(text_of(ctx, value.value))
    return owners


def _strip_data(expr: cst.BaseExpression) -> tuple[cst.BaseExpression, bool]:
    """`p.data` -> (p, True); anything else -> (itself, False)."""
    if type(expr) is cst.Attribute and expr.attr.value == "data":
        return expr.value, True
    return expr, False


def _in_place_receiver(call: cst.Call) -> cst.BaseExpression:
    """The tensor a chain of in-place calls modifies: `p` for `p.mul_(1 - wd).add_(p.grad, alpha=-lr)`."""
    receiver = call.func.value  # type: ignore[attr-defined]
    while type(receiver) is cst.Call and type(receiver.func) is cst.Attribute \
            and receiver.func.attr.value.endswith("_"):
        receiver = receiver.func.value
    return receiver


def updated_tensor(ctx: Context, node: cst.CSTNode) -> tuple[cst.BaseExpression, bool] | None:
    """For a statement or call that updates a tensor in place from its own gradient (`p -= lr * p.grad`,
    `p.data.add_(p.grad, alpha=-lr)`, `p.data = p.data - lr * p.grad`): the tensor and whether the update goes
    through `.data`. None for anything else, e.g. a momentum buffer fed a gradient (`v.mul_(m).add_(p.grad)`)."""
    kind = type(node)
    if kind is cst.AugAssign:
        if type(node.operator) not in (cst.SubtractAssign, cst.AddAssign):
            return None
        target, through_data = _strip_data(node.target)
        source: cst.CSTNode = node.value
    elif kind is cst.Call:
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value not in IN_PLACE_UPDATES or not node.args:
            return None
        target, through_data = _strip_data(_in_place_receiver(node))
        source = node
    elif kind is cst.Assign:
        if len(node.targets) != 1:
            return None
        target, through_data = _strip_data(node.targets[0].target)
        if not through_data:
            return None
        source = node.value
    else:
        return None
    if is_grad_target(target):
        return None  # `p.grad += noise` edits a gradient, it is no update from one
    return (target, through_data) if text_of(ctx, target) in grad_owners(ctx, source) else None


def _grad_free_decorator(ctx: Context, decorator: cst.Decorator) -> bool:
    """`@smart_inference_mode()`, `@no_grad_wrapper`: a project's own wrapper around no_grad/inference_mode (the
    engine already knows torch's own), by its name or, for one defined in this file, by its body."""
    expr = decorator.decorator
    func = expr.func if type(expr) is cst.Call else expr
    name = _receiver_name(func) or ""
    if "no_grad" in name or "inference_mode" in name:
        return True
    return type(func) is cst.Name and any(_wraps_without_grad(ctx, definition)
                                          for definition in ctx.functions.get(func.value, ()))


def _wraps_without_grad(ctx: Context, decorator: cst.FunctionDef) -> bool:
    """`def nograd(f): def new_f(*args, **kwargs): with t.no_grad(): return f(*args, **kwargs)`: the decorator (or
    the factory of one) calls a function it was given with autograd off."""
    inside = {id(node) for node in ctx.walk(decorator)}
    given = {param.name.value for node in ctx.walk(decorator) if type(node) is cst.FunctionDef
             for param in node.params.params}
    return any(site.grad_disabled and id(site.node) in inside and type(site.node.func) is cst.Name
               for name in given for site in ctx.calls_to(name))


def runs_without_grad(ctx: Context, function: cst.FunctionDef | None, depth: int = 2) -> bool:
    """`function` runs with autograd off wherever this file calls it: it is decorated so, or it is called under
    `no_grad` or from a function that itself runs so (`depth` callers up). A method is matched to its calls by name
    only, and unrelated objects share method names (`optimizer.step()`, `scheduler.step()`), so one call of a
    method under `no_grad` is taken to be the one that reaches it. Complete in `finish()`."""
    if function is None:
        return False
    # Each call site asks again about its callers, so a helper called from many places is asked about many times
    # over: the answers stand while no call is added (`ctx._order` counts them).
    memo = training_loop(ctx)._without_grad
    key = (id(function), depth)
    found = memo.get(key)
    if found is None or found[0] != ctx._order:
        found = memo[key] = (ctx._order, _runs_without_grad(ctx, function, depth))
    return found[1]


def _runs_without_grad(ctx: Context, function: cst.FunctionDef, depth: int) -> bool:
    if any(_grad_free_decorator(ctx, decorator) for decorator in function.decorators):
        return True
    sites = ctx.calls_of(function)
    if not sites or depth <= 0:
        return False
    quiet = [site.grad_disabled or runs_without_grad(ctx, site.function, depth - 1) for site in sites]
    return any(quiet) if _is_method(function, sites) else all(quiet)


def _is_method(function: cst.FunctionDef, sites: list[CallSite]) -> bool:
    params = function.params.params
    return bool(params) and params[0].name.value in ("self", "cls") and any(
        type(site.node.func) is cst.Attribute for site in sites)




# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Event:
    """One training event where the traversal found it.

    `subject` spells what it concerns: the optimizer of a step or `zero_grad()`, the module of a switch or of
    `model.zero_grad()`, the tensor of a hand-written update, the scheduler of a scheduler step. `order` is its
    position among the file's calls (the same counter as `CallSite.order`), `seq` the binding counter when it was
    seen (a binding with `seq` up to it was made before it).
    """

    kind: EventKind
    node: cst.CSTNode
    subject: str | None
    function: cst.FunctionDef | None
    loops: tuple[cst.CSTNode, ...]
    target: cst.BaseExpression | None = None
    order: int = 0
    seq: int = 0  # the binding counter then: a binding with `seq <=` this was made before the event
    grad_disabled: bool = False
    # steps and optimizer resets: the modules whose parameters the optimizer holds, when known
    owners: frozenset[str] | None = None
    # steps: `owners` module by module, each with its other spellings (`owner_groups`), when known
    groups: tuple[frozenset[str], ...] | None = None
    optimizer: bool = False  # resets: `subject` is an optimizer, not a module
    # resets: what `subject` was assigned from, when that is a name (`model` for `self.model` with
    # `self.model = model`): optimizers built from `model.parameters()` spell their owners so
    alias: str | None = None
    scaled: bool = False  # backward passes: `scaler.scale(loss).backward()`
    # the `if` statements around it inside its innermost loop (or its function's body when it is in no loop),
    # outermost first, each with the branch it is in (the `if`'s body, or its `else`/`elif`): an event with none
    # runs on every iteration (every call)
    guards: tuple[tuple[cst.If, cst.CSTNode], ...] = ()
    # the `if ...: continue` statements before it in its innermost loop's body: it runs only when they let the
    # iteration through
    skipped_by: tuple[cst.If, ...] = ()
    # an event of another file's helper, placed at the call here that reaches it (`node`): the node in its own file
    origin: cst.CSTNode | None = None
    # switches to train mode: `model.train(mode)` of `mode = model.training`, putting back the mode it was in
    restores: bool = False

    @property
    def optimizer_step(self) -> bool:
        """An optimizer's `.step()`, here or in a helper of another file (`is_step_call`)."""
        return self.kind == "step" and is_step_call(self.origin or self.node)

    @property
    def accumulation_guard(self) -> cst.If | None:
        """The `if` around the event that counts iterations modulo k (`if (i + 1) % accum == 0:`), or that waits
        for a counter to reach k and starts it again (`if micro == accum: ...; micro = 0`), or the `if` before it
        that skips the rest of the iteration until then (`if micro < accum: continue`, with `micro = 0` after
        it): the event runs once every k iterations. None when there is none."""
        return next((guard for guard, branch in self.guards
                     if _counts_modulo(guard.test) or branch is guard.body and _restarts_counter(guard)), None) \
            or next((guard for guard in self.skipped_by
                     if _counts_modulo(guard.test) or self.loops and _waits_for_counter(guard, self.loops[-1])), None)


def _counts_modulo(test: cst.BaseExpression) -> bool:
    """The test compares a remainder: `(i + 1) % k == 0`, `step % accum != 0 and not last`."""
    stack: list[cst.CSTNode] = [test]
    while stack:
        node = stack.pop()
        if type(node) is cst.BinaryOperation and type(node.operator) is cst.Modulo:
            return type(node.left) is not cst.SimpleString  # not `"%d" % i`
        if type(node) in (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation, cst.BinaryOperation):
            stack.extend(node.children)
        elif type(node) is cst.ComparisonTarget:
            stack.append(node.comparator)  # type: ignore[attr-defined]
    return False


def _restarts_counter(guard: cst.If) -> bool:
    """`if n == k:` / `if n >= k:` whose body sets `n` back to 0: `n` counts up to k, and the body runs once every
    k counts."""
    test = guard.test
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) not in (cst.Equal, cst.GreaterThanEqual):
        return False
    counter = dotted_name(test.left)
    if counter is None:
        return False
    for statement in guard.body.body:
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if type(small) is cst.Assign and len(small.targets) == 1 and dotted_name(small.targets[0].target) == counter \
                    and type(small.value) is cst.Integer and small.value.value == "0":
                return True
    return False


def _waits_for_counter(guard: cst.If, loop: cst.CSTNode) -> bool:
    """`if n < k: continue` (or `!=`) in a loop that sets `n` back to 0 after it: the rest of the body runs once
    every k counts."""
    test = guard.test
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) not in (cst.LessThan, cst.NotEqual):
        return False
    counter = dotted_name(test.left)
    return counter is not None and any(
        type(node) is cst.Assign and len(node.targets) == 1 and dotted_name(node.targets[0].target) == counter
        and type(node.value) is cst.Integer and node.value.value == "0" for node in walk(loop))


def _skips(guard: cst.CSTNode) -> bool:
    """`if ...: continue` without an `else`: the rest of the loop's body is skipped when the test holds."""
    if type(guard) is not cst.If or guard.orelse is not None or type(guard.body) is not cst.IndentedBlock:
        return False
    last = guard.body.body[-1] if guard.body.body else None
    return type(last) is cst.SimpleStatementLine and type(last.body[-1]) is cst.Continue


# The last names of the calls that may be events: the engine looks no further at any other call.
EVENT_CALLS = frozenset({"backward", "step", "eval", "train", "unscale_", "clip_grad_norm_", "clip_grad_value_",
                         "zero_", "fill_"})
# the record's own events on each object of a collection (`for opt in self.optimizers: opt.step()`), and module
# calls, are no callbacks
_NOT_DISPATCHED = EVENT_CALLS | {"zero_grad", "forward", "__call__", "to", "cuda", "cpu", "parameters"}


class TrainingLoop:
    """The training events of one file with where they sit. It is one of the engine's visitors, shown every node
    before the rules are; rules query it (`training_loop(ctx)`) in `finish()`, when the whole file has been seen."""

    title = "training-loop analysis"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.events: list[Event] = []
        self._by_function: dict[cst.FunctionDef | None, list[Event]] = {}
        self._by_loop: dict[cst.CSTNode, list[Event]] = {}  # the loops' rules ask each loop's events many times
        self._enclosing: dict[cst.CSTNode, tuple[cst.CSTNode, ...]] = {}
        self._sites_by_function: dict[cst.FunctionDef | None, list[CallSite]] | None = None
        self._locals: dict[cst.FunctionDef, set[str]] = {}
        self._helper_events: dict[tuple[cst.Call, int], list[Event]] = {}
        # function -> (the events recorded when asked, `body_events`'s answer): several rules' `finish` ask it of
        # the same bodies (SC203 of every body that calls a helper, once per region too)
        self._body_events: dict[cst.FunctionDef | None, tuple[int, list[Event]]] = {}
        self._handed_owners: dict[int, frozenset[str] | None] = {}
        self._sites_in: dict[cst.FunctionDef | None, list[CallSite]] | None = None
        # (id(function), depth) -> (the calls seen when asked, `runs_without_grad`'s answer)
        self._without_grad: dict[tuple[int, int], tuple[int, bool]] = {}
        # functions and methods of the project's modules this file calls by name, each with its module's record
        self._imported: dict[str, list[cst.FunctionDef]] | None = None
        self._owners: dict[cst.FunctionDef, TrainingLoop] = {}
        self._dispatches: dict[cst.Call, Dispatch] | None = None
        self._callbacks: dict[str, tuple[cst.FunctionDef, ...]] = {}

    # ------------------------------------------------------------------ recording: one of the engine's visitors

    def visit_For(self, node: cst.For) -> None:
        self._enclosing[node] = self.ctx.loops

    visit_While = visit_For

    def visit_Call(self, node: cst.Call) -> None:
        name = last_name(node.func)
        # Every reset name has "rad" in it (`zero_grad`, `clear_grads`): a substring test spares the rest on most
        # calls.
        if name in EVENT_CALLS or name in IN_PLACE_UPDATES or "rad" in name:
            self._call(node, name)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.ctx.loops:
            self._update(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(is_grad_target(target.target) for target in node.targets):
            self._grad_reset(node)
        elif self.ctx.loops:
            self._update(node)

    def visit_Del(self, node: cst.Del) -> None:
        if is_grad_target(node.target):
            self._grad_reset(node)

    def _record(self, kind: EventKind, node: cst.CSTNode, target: cst.BaseExpression | str | None = None,
                **facts: object) -> Event:
        ctx = self.ctx
        subject = target if target is None or type(target) is str else text_of(ctx, target)
        event = Event(kind, node, subject, ctx.function, ctx.loops, None if type(target) is str else target,
                      ctx._order, ctx._seq, ctx.grad_disabled, guards=self._guards(), skipped_by=self._skips(),
                      **facts)  # type: ignore[arg-type]
        self.events.append(event)
        self._by_function.setdefault(event.function, []).append(event)
        for loop in event.loops:
            self._by_loop.setdefault(loop, []).append(event)
        return event

    def _guards(self) -> tuple[tuple[cst.If, cst.CSTNode], ...]:
        """The `if` statements around the node being visited, up to its innermost loop or function, each with the
        branch the node is in."""
        guards = []
        ancestors = self.ctx.ancestors
        for at in range(len(ancestors) - 2, -1, -1):
            node = ancestors[at]
            kind = type(node)
            if kind is cst.If:
                guards.append((node, ancestors[at + 1]))
            elif kind is cst.For or kind is cst.While or kind is cst.FunctionDef or kind is cst.ClassDef:
                break
        return tuple(reversed(guards))

    def _skips(self) -> tuple[cst.If, ...]:
        """The `if ...: continue` statements before the node being visited in the blocks around it, up to its
        innermost loop."""
        skips: list[cst.If] = []
        ancestors = self.ctx.ancestors
        for at in range(len(ancestors) - 2, -1, -1):
            node = ancestors[at]
            kind = type(node)
            if kind is cst.For or kind is cst.While or kind is cst.FunctionDef or kind is cst.ClassDef:
                break
            if kind is cst.IndentedBlock:
                inside = ancestors[at + 1]
                for statement in node.body:  # type: ignore[attr-defined]
                    if statement is inside:
                        break
                    if _skips(statement):
                        skips.append(statement)  # type: ignore[arg-type]
        return tuple(skips)

    def _call(self, call: cst.Call, name: str) -> None:
        """Record `call` (whose last name is `name`) if it is a training event."""
        ctx = self.ctx
        if name == "backward":
            # autograd's backward returns None: `z, log_det = flow.backward(z)` is a model's own inverse pass
            if is_backward(ctx, call) and type(ctx.parent) is cst.Expr:
                self._record("backward", call, scaled=is_scaled_backward(ctx, call))
        elif name == "step":
            optimizer = stepped_optimizer(ctx, call)
            if optimizer is not None:
                groups = owner_groups(ctx, optimizer)
                self._record("step", call, optimizer, groups=groups,
                             owners=frozenset().union(*groups) if groups is not None else None)
            else:
                scheduler = stepped_scheduler(ctx, call)
                if scheduler is not None:
                    self._record("schedule", call, scheduler)
        elif name == "eval" or name == "train":
            switch = mode_switch(ctx, call)
            if switch is not None:
                self._record(switch[0], call, switch[1], restores=_restores_mode(ctx, call, switch[1]))
        elif name == "unscale_":
            self._record("unscale", call)
        elif name == "clip_grad_norm_" or name == "clip_grad_value_":
            if ctx.qualname(call.func) in _CLIPS:
                self._record("clip", call)
        elif name in IN_PLACE_UPDATES:
            if ctx.loops:
                self._update(call)
        elif is_reset_call(call):
            func = call.func
            owner = func.value if type(func) is cst.Attribute and func.attr.value not in ("zero_", "fill_") else None
            if owner is None or type(owner) is cst.Call:
                self._record("reset", call)
            else:
                value, _ = ctx.value_of(owner)
                alias = dotted_name(value) if value is not owner else None
                optimizer = is_optimizer(ctx, owner)
                self._record("reset", call, owner, optimizer=optimizer, alias=alias,
                             owners=parameter_owners(ctx, owner) if optimizer else None)

    def _update(self, node: cst.CSTNode) -> None:
        """Record a hand-written update of a tensor from its own gradient (`p -= lr * p.grad`) as a step."""
        found = updated_tensor(self.ctx, node)
        if found is not None:
            self._record("step", node, found[0])

    def _grad_reset(self, node: cst.CSTNode) -> None:
        """`p.grad = None`, `del p.grad`."""
        self._record("reset", node)

    # ---------------------------------------------------------------------------------------------- queries

    def event_at(self, node: cst.CSTNode) -> Event | None:
        """The event recorded for the node being visited, for a rule's `visit_*` (the engine records first)."""
        events = self.events
        return events[-1] if events and events[-1].node is node else None

    def site_within(self, site: CallSite, loop: cst.CSTNode) -> bool:
        return site.loop is not None and loop in self._enclosing.get(site.loop, ())

    def in_loop(self, loop: cst.CSTNode) -> Iterator[Event]:
        return iter(self._by_loop.get(loop, ()))

    def in_function(self, function: cst.FunctionDef | None) -> list[Event]:
        """The events of a function's own body (None: of module-level code), in source order."""
        return self._by_function.get(function, [])

    def enclosing(self, loop: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
        """The loops around `loop` in its function, outermost first, `loop` itself last."""
        return self._enclosing[loop]

    def loop_events(self, loop: cst.CSTNode, function: cst.FunctionDef | None) -> list[Event]:
        """The events of one iteration of `loop`: its own, and those of the same-file helpers it calls, placed at
        the call (their `order` is the call's)."""
        found = list(self.in_loop(loop))
        for site in self.local_calls_in(loop, function):
            found += [replace(event, order=site.order, loops=self.enclosing(site.loop))  # type: ignore[arg-type]
                      for event in self.helper_events(site.node)]
        return found

    def covers(self, reset: Event, step: Event, stepped: set[str]) -> bool:
        """Whether `reset` may clear the gradients `step` applies. It does not when it resets another optimizer
        stepped in the same loop (`stepped`: the subjects of those steps) that holds none of the step's modules
        (InfoGAN's `info_optimizer` over G and D is reset by `D_optimizer` and `G_optimizer`), or a module the
        step's optimizer is known not to hold; anything unsure covers."""
        if reset.subject is None or step.subject is None or reset.subject == step.subject:
            return True
        owners = self.owners_of(step)
        if reset.optimizer:
            return reset.subject not in stepped or reset.owners is not None and owners is not None and any(
                related(mine, theirs) for mine in reset.owners for theirs in owners)
        if owners is None:
            return True
        return any(related(subject, owner) for subject in (reset.subject, reset.alias) if subject is not None
                   for owner in owners)

    def resets_all(self, resets: list[Event], step: Event, stepped: set[str]) -> bool:
        """Whether `resets` together clear the gradients `step` applies: one that clears them whole (its optimizer's,
        or one whose reach can't be told), or resets of modules that reach every module its optimizer holds. An
        autoencoder trainer's `self.encoder.zero_grad()` before stepping an optimizer over the encoder and the
        decoder leaves the decoder's gradients adding up."""
        mine = [reset for reset in resets if self.covers(reset, step, stepped)]
        if step.groups is None or any(reset.subject is None or reset.optimizer or reset.subject == step.subject
                                      for reset in mine):
            return bool(mine)
        return bool(mine) and all(any(related(name, owner) for reset in mine for name in (reset.subject, reset.alias)
                                      if name is not None for owner in group) for group in step.groups)

    def owners_of(self, step: Event) -> frozenset[str] | None:
        """The modules whose parameters the optimizer of `step` holds: its `owners`, or for a trainer handed its
        optimizers (`Trainer(G, D, g_opt, d_opt)` of `g_opt = Adam(G.parameters())`, with `self.G = generator`
        and `self.g_opt = g_optimizer`), those its constructions' optimizers hold, as the trainer stores them
        ({"self.G"}); for a function handed them (`update(actor, critic, actor_opt, critic_opt)`), as its
        parameters name them ({"critic"}). Asked after the traversal, when the calls are known."""
        if step.owners is not None or step.target is None or step.function is None:
            return step.owners
        key = id(step.node)
        if key not in self._handed_owners:
            self._handed_owners[key] = self._handed(step.target, step.function) \
                or self._inherited_owners(step.target, step.function)
        return self._handed_owners[key]

    def _inherited_owners(self, optimizer: cst.BaseExpression, function: cst.FunctionDef) -> frozenset[str] | None:
        """What the optimizer a subclass's method steps holds, where a base class's constructor builds it
        (`self.opt = self.configure_optimizer()` in `BaseTrainer.__init__`, of this module or of another) and the
        subclass binds it nowhere: read there, as the base's methods spell it (`self.model`)."""
        class_def = self.ctx.class_of_method(function)
        if class_def is None or not is_self_attribute(optimizer) or self.ctx.binding(optimizer) is not None:
            return None
        attribute = optimizer.attr.value  # type: ignore[attr-defined]
        for init, where in base_methods(self.ctx, class_def, "__init__"):
            targets = [target.target for node in where.walk(init.body) if type(node) is cst.Assign
                       for target in node.targets if is_self_attribute(target.target)
                       and target.target.attr.value == attribute]  # type: ignore[attr-defined]
            point = where.point_after(init)
            if len(targets) != 1 or point is None:
                return None
            with where.at(point):
                return parameter_owners(where, targets[0])
        return None

    def handed_own_object(self, event: Event) -> bool:
        """What `event` steps is a parameter of its plain function that every call hands None or an object of a
        project class torch's scheduler (for a step, torch's optimizer) is no base of: vq-vae-2's `train(epoch,
        loader, model, optimizer, scheduler, device)`, called with `scheduler = CycleScheduler(...)`; MixMatch's
        `train(..., optimizer, ema_optimizer, ...)` with `ema_optimizer = WeightEMA(...)`. Asked after the
        traversal."""
        function, target = event.function, event.target
        if event.origin is not None or function is None or type(target) is not cst.Name:
            return False
        name = target.value
        if all(param.name.value != name for param in function.params.params) or name in self._assigned_in(function):
            return False
        torch_base = _is_optimizer_base if event.kind == "step" else _is_scheduler_base
        return every_call_passes(self.ctx, function, name,
                                 lambda reader, argument: own_object(reader, argument, torch_base))

    def _handed(self, optimizer: cst.BaseExpression, function: cst.FunctionDef) -> frozenset[str] | None:
        class_def = self.ctx.class_of_method(function)
        if class_def is None:  # `def update(actor, critic, actor_opt, critic_opt)`: the function's parameters
            names = {param.name.value for param in function.params.params}
            if type(optimizer) is not cst.Name or optimizer.value not in names \
                    or optimizer.value in self._assigned_in(function):
                return None
            definition, parameter, constructor = function, optimizer.value, False
            sites, kept = helper_callers(self.ctx, function), [(name, name) for name in names]
        else:
            stored = stored_parameter(self.ctx, optimizer, class_def)
            if stored is None:
                return None
            class_def, definition, parameter = stored
            sites, constructor = callers(self.ctx, class_def.name.value), True
            kept = stored_parameters(self.ctx, definition)
        params = definition.params.params[1:] if constructor else definition.params.params
        owners: set[str] = set()
        for site, point in sites or ():
            passed = {param.name.value: passed_argument(definition, site.node, param.name.value, constructor)
                      for param in params}
            # which parameter each module comes in by: `G` handed as `generator`
            handed = {dotted_name(argument): name for name, argument in passed.items() if argument is not None}
            argument = passed.get(parameter)
            if argument is None:
                return None
            with self.ctx.at(point):
                theirs = parameter_owners(self.ctx, argument)
            if theirs is None:
                return None
            # the module, or a submodule of one, handed in (`Adam(model.netD.parameters())` with `model` handed as
            # `model`): the parameter it comes in by and the attributes below it
            reached = [(handed[prefix], owner[len(prefix):]) for owner in theirs
                       for prefix in [max((h for h in handed if h is not None
                                           and (owner == h or owner.startswith(h + "."))), key=len, default=None)]
                       if prefix is not None]
            if len(reached) != len(theirs):
                return None  # the optimizer holds a module the function is not handed: its reach is unknown here
            mine = {attribute + below for by, below in reached for attribute, name in kept if name == by}
            if not mine:
                return None
            owners |= mine
        return frozenset(owners) or None

    def body_events(self, function: cst.FunctionDef | None) -> list[Event]:
        """The events one run of a body goes through, in source order: its own, and those of the same-file helpers
        it calls, placed at the call (`order`, `function` and `loops` are the call's, the subject as the caller
        spells it). The list is shared by those who ask: read it, do not change it."""
        known = self._body_events.get(function)
        if known is not None and known[0] == len(self.events):
            return known[1]
        found = list(self.in_function(function))
        switches = {event.node: event for event in found}
        for site in self.local_calls().get(function, ()):
            own = switches.get(site.node)
            if own is not None:
                if own.kind != "backward" or not self._runs_project_method(site):
                    continue  # `encoder.train(False)` is no call of this file's `def train(...)`
                # `self.amp.backward(loss)` of a project class: its method's `scaler.scale(loss).backward()` runs
                found.remove(own)
            loops = self.enclosing(site.loop) if site.loop is not None else ()
            found += [replace(event, order=site.order, function=function, loops=loops)  # type: ignore[arg-type]
                      for event in self.helper_events(site.node) if event.function is not function]
        found.sort(key=lambda event: event.order)
        self._body_events[function] = (len(self.events), found)
        return found

    def _runs_project_method(self, site: CallSite) -> bool:
        """The call runs a method of a class of the project, as the objects floor reads what it calls where the
        call's function ends (`self.amp` that the constructor binds to `MixedPrecision()`)."""
        from shapecheck.shapes.evaluator import evaluator  # as `runs_weights_of`: asked of few calls
        point = self.ctx.point_after(site.function) if site.function is not None else self.ctx.module_point()
        if point is None:
            return False
        with self.ctx.at(point):
            return isinstance(evaluator(self.ctx).value(site.node.func), FunctionValue)

    def bodies_with(self, test: Callable[[Event], bool]) -> set[cst.FunctionDef | None]:
        """The bodies one run of which goes through an event `test` accepts, in their own statements or in a helper
        they call (`body_events`): a trainer's `train_step` whose `self._backward(loss)` runs the scaled backward
        pass, a loop whose callback hook (`callback.on_after_backward(self)`) resets the gradients."""
        found = {event.function for event in self.events if test(event)}
        for function, sites in self.local_calls().items():
            if function not in found and any(test(event) for site in sites for event in self.helper_events(site.node)):
                found.add(function)
        return found

    def eval_regions(self, function: cst.FunctionDef | None) -> list[tuple[Event, int]]:
        """Each switch to eval mode in a body, its own or in a helper it calls (`body_events`), with where its
        region ends: the `order` of the next switch of the same module back to train mode in source order, or past
        the end of the body."""
        events = self.body_events(function)
        own = {id(event) for event in self.in_function(function)}  # the rest are helpers', placed at their calls
        regions = []
        for at, event in enumerate(events):
            # a helper that saves the mode and puts it back (SlowFast's `get_model_stats`: `model_mode =
            # model.training`, `model.eval()`, ..., `model.train(model_mode)`) leaves the model in the mode it found
            if event.kind != "eval" or id(event) not in own and any(
                    later.restores and later.subject == event.subject and later.order == event.order
                    and id(later) not in own for later in events[at + 1:]):
                continue
            end = next((later.order for later in events[at + 1:]
                        if later.kind == "train" and later.subject == event.subject
                        and not (later.restores and id(later) not in own)), self.ctx._order + 1)
            regions.append((event, end))
        return regions

    def mode_switches(self) -> list[Event]:
        """Every switch of a module's mode the file makes: its own, and those of the helpers it calls (its own or
        the project's) that name a module, as the file spells it (`evaluate(net)` with `def evaluate(model):
        model.eval()` switches `net`)."""
        helpers = (event for sites in self.local_calls().values() for site in sites
                   for event in self.helper_events(site.node) if event.subject is not None)
        return [event for event in (*self.events, *helpers) if event.kind == "eval" or event.kind == "train"]

    def local_calls(self) -> dict[cst.FunctionDef | None, list[CallSite]]:
        """Call sites of functions defined in this file or brought in by its first-party imports
        (`imported_helpers`), by the function they are made in."""
        if self._sites_by_function is None:
            self._sites_by_function = {}
            for name in (*self.ctx.functions, *self.imported_helpers()):
                for site in self.ctx.calls_to(name):
                    self._sites_by_function.setdefault(site.function, []).append(site)
            # `cb.on_epoch_start(self)` for each callback, where the file defines no method of that name
            for dispatch in self.dispatches().values():
                if dispatch.method is not None and dispatch.method not in self.ctx.functions \
                        and dispatch.method not in self.imported_helpers():
                    self._sites_by_function.setdefault(dispatch.site.function, []).append(dispatch.site)
            for sites in self._sites_by_function.values():
                sites.sort(key=lambda site: site.order)
        return self._sites_by_function

    def local_calls_in(self, loop: cst.CSTNode, function: cst.FunctionDef | None) -> Iterator[CallSite]:
        return (site for site in self.local_calls().get(function, ()) if self.site_within(site, loop))

    def helper_events(self, call: cst.Call, depth: int = 2) -> list[Event]:
        """The events of the functions `call` may reach, `depth` calls deep, with subjects spelled as the caller
        would: `evaluate(net)` with `def evaluate(model): model.eval()` gives an eval event of "net". The functions
        are this file's, or its first-party imports' (`helpers_of`); an event of another file is placed at `call`
        (its `node`), the point of this file that reaches it."""
        if depth <= 0:
            return []
        found = self._helper_events.get((call, depth))
        if found is not None:
            return found
        found = self._helper_events[call, depth] = []
        for definition in self.helpers_of(call):
            owner = self.owner_of(definition)
            inner = [event for event in owner._by_function.get(definition, ())
                     if self._reached(event, definition, call)]
            for site in owner.local_calls().get(definition, ()):
                inner += owner.helper_events(site.node, depth - 1)
            # `self._call_hooks("before_step")` running `getattr(hook, event)()` for each hook
            for dispatch in owner.dispatches().values():
                named = _string(passed_argument(definition, call, dispatch.parameter)) \
                    if dispatch.parameter is not None and dispatch.site.function is definition else None
                if named:
                    for method in owner.callbacks(named):
                        # what a callback's event concerns is spelled in the callback's names, not the trainer's
                        inner += [replace(event, node=call, origin=event.origin or event.node, subject=None)
                                  for event in owner.owner_of(method)._by_function.get(method, ())]
            for event in inner:
                subject = None if owner.rebound_before(event, definition) else \
                    event.subject and self.caller_spelling(event.subject, definition, call)
                moved = {} if owner is self else {"node": call, "origin": event.origin or event.node}
                if event.kind == "step" and event.owners is None and owner is self and subject is not None \
                        and type(event.target) is cst.Name and event.function is definition:
                    # `self._optimize(self.critic_opt, critic_loss)` with `def _optimize(self, optimizer, loss)`
                    # stepping `optimizer`: what the optimizer the call hands holds
                    passed = passed_argument(definition, call, event.target.value)
                    owners = parameter_owners(self.ctx, passed) if passed is not None else None
                    moved = {**moved, "owners": owners} if owners is not None else moved
                found.append(replace(event, subject=subject, target=None, **moved))
        return found

    def rebound_before(self, event: Event, definition: cst.FunctionDef) -> bool:
        """Whether `definition`, a function of this file, rebinds the name `event`'s subject starts with before the
        event: after `model = deepcopy(model)`, `model.eval()` switches the copy, not the module the caller handed
        (Person_reID's adversarial `ODFA(model, inputs)`)."""
        root = event.subject.partition(".")[0] if event.subject else None
        if root is None or root not in self._assigned_in(definition):
            return False
        point = self.ctx.point_after(definition)
        if point is None:
            return True
        with self.ctx.at(point):
            binding = self.ctx.binding(root, event.seq + 1)
        return binding is None or binding.kind != "param"

    def _reached(self, event: Event, definition: cst.FunctionDef, call: cst.Call) -> bool:
        """False when an `if` around the event tests a flag parameter that `call` sets so the event's branch does
        not run: `run_epoch(loader, train=False)` never reaches `if train: loss.backward()`. A flag the helper
        rebinds, or the call spreads `*args` over, is unknown, and the event counts."""
        for guard, branch in event.guards:
            flag = self._flag(guard.test, definition, call)
            if flag is not None and flag is not (branch is guard.body):
                return False
        return True

    def _flag(self, test: cst.BaseExpression, definition: cst.FunctionDef, call: cst.Call) -> bool | None:
        """The truth of `param` or `not param` as `call` sets the parameter, by a literal `True`/`False` it
        passes or the definition's default; None when the test is another expression or the value unknown."""
        negated = type(test) is cst.UnaryOperation and type(test.operator) is cst.Not
        name = test.expression if negated else test  # type: ignore[attr-defined]
        if type(name) is not cst.Name or any(arg.star for arg in call.args) \
                or name.value in self._assigned_in(definition):
            return None
        value = passed_argument(definition, call, name.value)
        if value is None:
            param = param_named(definition, name.value)
            value = param.default if param is not None else None
        if type(value) is not cst.Name or value.value not in ("True", "False"):
            return None
        return (value.value == "True") is not negated

    def helpers_of(self, call: cst.Call) -> tuple[cst.FunctionDef, ...]:
        """`definitions_of(call)`, or where this file defines no function of that name, those its first-party
        imports bring in (`from utils import evaluate`; `trainer.fit()` with `from trainer import Trainer`)."""
        found = self.definitions_of(call)
        name = dotted_name(call.func) if not found else None
        if name is None:
            return found
        imported = self.imported_helpers().get(name.rsplit(".", 1)[-1])
        if imported:
            return tuple(imported)
        dispatch = self.dispatches().get(call)
        return self.callbacks(dispatch.method) if dispatch is not None and dispatch.method is not None else ()

    def dispatches(self) -> dict[cst.Call, Dispatch]:
        """The file's calls that run a method of each callback a loop goes over (`loops.callbacks`), by call."""
        if self._dispatches is None:
            self._dispatches = {dispatch.site.node: dispatch for dispatch in dispatches(self.ctx, _NOT_DISPATCHED)} \
                if self._enclosing else {}
        return self._dispatches

    def dispatched_at(self, method: cst.FunctionDef) -> list[tuple[TrainingLoop, CallSite]]:
        """Where the trainers of the modules beside this file (`loops.callbacks.neighbours`) run the callback method
        `method` on each of their callbacks, with their records: the dispatch `cb.on_epoch_start(self)`, or the
        calls of a dispatcher running `getattr(cb, event)(...)` that pass the method's name
        (`self._emit("on_epoch_start")`)."""
        if self.ctx.class_of_method(method) is None:
            return []
        name = method.name.value
        found: list[tuple[TrainingLoop, CallSite]] = []
        for near in (True, False):
            # a trainer names the method (`cb.on_epoch_start(`) or passes it to its dispatcher (`"on_epoch_start"`)
            for other in neighbours(self.ctx, name, near):
                found += training_loop(other)._runs_of(name)
            if found:
                break
        return found

    def runs_of(self, method: cst.FunctionDef) -> list[tuple[TrainingLoop, CallSite]]:
        """Where the trainers of this file, and failing them those beside it (`dispatched_at`), run the callback
        method `method` on each of their callbacks."""
        if self.ctx.class_of_method(method) is None:
            return []
        return self._runs_of(method.name.value) or self.dispatched_at(method)

    def _runs_of(self, name: str) -> list[tuple[TrainingLoop, CallSite]]:
        found: list[tuple[TrainingLoop, CallSite]] = []
        for dispatch in self.dispatches().values():
            dispatcher = dispatch.site.function
            if dispatch.method == name:
                found.append((self, dispatch.site))
            elif dispatch.parameter is not None and dispatcher is not None:
                found += [(self, site) for site in self.ctx.calls_of(dispatcher)
                          if _string(passed_argument(dispatcher, site.node, dispatch.parameter)) == name]
        return found

    def callbacks(self, method: str) -> tuple[cst.FunctionDef, ...]:
        """The callbacks' methods named `method` (`loops.callbacks.callback_methods`), each recorded with its
        module's record."""
        found = self._callbacks.get(method)
        if found is None:
            pairs = callback_methods(self.ctx, method)
            for definition, other in pairs:
                if other is not self.ctx:
                    self._owners[definition] = training_loop(other)
            found = self._callbacks[method] = tuple(definition for definition, _ in pairs)
        return found

    def imported_helpers(self) -> dict[str, list[cst.FunctionDef]]:
        """The functions and methods of the project's modules this file imports and calls by a name it does not
        define, by name; read only for a file with loops, where a helper's events are placed."""
        if self._imported is None:
            self._imported = {}
            if self._enclosing:
                for name, definition, other in imported_functions(self.ctx):
                    self._imported.setdefault(name, []).append(definition)
                    self._owners[definition] = training_loop(other)
        return self._imported

    def owner_of(self, definition: cst.FunctionDef) -> TrainingLoop:
        """The record of the file that defines `definition`: this one, or an imported module's."""
        return self._owners.get(definition, self)

    def runs_in(self, definition: cst.FunctionDef) -> Iterator[tuple[CallSite, str]]:
        """The calls of a module by name with autograd on in a function's own body (`model(x)`, `self.net(x)`),
        with the module's spelling; the function may be an imported module's."""
        for site in self.owner_of(definition).calls_in(definition):
            callee = called_module(site.node)
            if callee is not None and not site.grad_disabled:
                yield site, callee

    def helper_runs(self, call: cst.Call, model: str, depth: int = 2) -> cst.Call | None:
        """The call in a same-file function `call` reaches (`depth` calls deep) that runs `model` as the caller
        spells it, with autograd on: `accuracy(net, x)` with `def accuracy(m, x): return m(x).argmax(1)` gives
        `m(x)`. None when there is none, or when the helper wants gradients (it runs a backward pass). A call the
        helper makes only when the model is in train mode (under `if m.training:`) is not one an eval-mode caller
        runs."""
        if depth <= 0:
            return None
        for definition in self.definitions_of(call):
            if any(event.kind in ("backward", "step") for event in self.in_function(definition)) \
                    or runs_without_grad(self.ctx, definition, 0):
                continue
            for site in self.calls_in(definition):
                if site.grad_disabled:
                    continue
                callee = called_module(site.node)
                if callee is not None and self.caller_spelling(callee, definition, call) == model \
                        and not self._only_in_training(definition, site.node, callee):
                    return site.node
                if self.definitions_of(site.node):
                    inner = self.helper_runs(site.node, self.callee_spelling(model, definition, call) or model,
                                             depth - 1)
                    if inner is not None:
                        return inner
        return None

    def _only_in_training(self, definition: cst.FunctionDef, node: cst.CSTNode, module: str) -> bool:
        """`node` runs only while `module` is in train mode: in the body of `if module.training:`, or in the `else`
        of `if not module.training:` (DPR's `_do_biencoder_fwd_pass`, whose other branch runs the model under
        `no_grad`)."""
        for branch in self.ctx.walk(definition.body):
            if type(branch) is not cst.If:
                continue
            negated = type(branch.test) is cst.UnaryOperation and type(branch.test.operator) is cst.Not
            test = branch.test.expression if type(branch.test) is cst.UnaryOperation else branch.test
            if type(test) is not cst.Attribute or test.attr.value != "training" or self.ctx.code(test.value) != module:
                continue
            part = branch.orelse if negated else branch.body
            if part is not None and any(inner is node for inner in self.ctx.walk(part)):
                return True
        return False

    def calls_in(self, function: cst.FunctionDef | None) -> list[CallSite]:
        """Every call site in a function's own body (None: module level), in source order."""
        if self._sites_in is None:
            self._sites_in = {}
            for sites in self.ctx.calls.values():
                for site in sites:
                    self._sites_in.setdefault(site.function, []).append(site)
            for sites in self._sites_in.values():
                sites.sort(key=lambda site: site.order)
        return self._sites_in.get(function, [])

    def callee_spelling(self, model: str, definition: cst.FunctionDef, call: cst.Call) -> str | None:
        """How `definition` spells what its caller passes as `model` at `call` (the parameter it binds to)."""
        params = definition.params
        positional = [param.name.value for param in (*params.posonly_params, *params.params)]
        if type(call.func) is cst.Attribute and positional[:1] in (["self"], ["cls"]):
            positional = positional[1:]
        for index, arg in enumerate(call.args):
            if arg.star or dotted_name(arg.value) != model:
                continue
            if arg.keyword is not None:
                return arg.keyword.value
            if index < len(positional):
                return positional[index]
        return None

    def definitions_of(self, call: cst.Call) -> tuple[cst.FunctionDef, ...]:
        """The functions of this file a call may run, matched by name: `f(...)` a function, `self.f(...)` and
        `obj.f(...)` a method (`model.train()` is no call of this file's `def train(...)`)."""
        name = dotted_name(call.func)
        if name is None:
            return ()
        method = type(call.func) is cst.Attribute
        return tuple(definition for definition in self.ctx.functions.get(name.rsplit(".", 1)[-1], ())
                     if (self.ctx.class_of_method(definition) is not None) == method)

    def caller_spelling(self, subject: str, definition: cst.FunctionDef, call: cst.Call) -> str | None:
        """How the caller of `definition` spells `subject`: its argument for a parameter, the call's receiver for
        `self`, the same name for a global; None for the helper's own locals and for a parameter the caller leaves
        to its default."""
        root, _, rest = subject.partition(".")
        params = definition.params
        positional = [param.name.value for param in (*params.posonly_params, *params.params)]
        keyword_only = {param.name.value for param in params.kwonly_params}
        if root not in positional and root not in keyword_only:
            return None if root in self._assigned_in(definition) else subject
        is_method = type(call.func) is cst.Attribute and positional[:1] in (["self"], ["cls"])
        if is_method and root == positional[0]:
            receiver = dotted_name(call.func.value)  # type: ignore[attr-defined]
            return receiver and receiver + subject[len(root):]
        if is_method:
            positional = positional[1:]
        argument: cst.BaseExpression | None = None
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            if arg.keyword is None and index < len(positional) and positional[index] == root:
                argument = arg.value
            elif arg.keyword is not None and arg.keyword.value == root:
                argument = arg.value
        spelled = dotted_name(argument) if argument is not None else None
        return spelled and (spelled + "." + rest if rest else spelled)

    def _assigned_in(self, definition: cst.FunctionDef) -> set[str]:
        """Names a function binds in its body: its locals, which mean nothing to its callers."""
        names = self._locals.get(definition)
        if names is None:
            names = set()
            for node in self.ctx.walk(definition.body):
                kind = type(node)
                if kind is cst.AssignTarget or kind is cst.For or kind is cst.AugAssign or kind is cst.AnnAssign \
                        or kind is cst.NamedExpr:
                    names.update(_bound_names(node.target))
                elif kind is cst.AsName:
                    names.update(_bound_names(node.name))
            self._locals[definition] = names
        return names


def _string(argument: cst.BaseExpression | None) -> str | None:
    """The text of a plain string literal argument: "on_epoch_start" for `self._emit("on_epoch_start")`."""
    value = argument.evaluated_value if type(argument) is cst.SimpleString else None
    return value if type(value) is str else None


def _bound_names(target: cst.BaseExpression) -> Iterator[str]:
    """The plain names an assignment target binds: `x`, `a, (b, *c)`; not `self.x` or `d[k]`."""
    if type(target) is cst.Name:
        yield target.value
    elif type(target) is cst.Tuple or type(target) is cst.List:
        for element in target.elements:
            yield from _bound_names(element.value)
    elif type(target) is cst.StarredElement:
        yield from _bound_names(target.value)


def training_loop(ctx: Context) -> TrainingLoop:
    """The file's training-loop record."""
    return ctx.analysis(TrainingLoop)


PROJECT.record_with(TrainingLoop)
