"""Shared facts about training loops, for SC201, SC202, SC203 and SC206.

Which calls are a backward pass, an optimizer step, a gradient reset or a train/eval switch; which statements update
a tensor from its own gradient; and `LoopFacts`, a record of where each of them sits (function, enclosing loops) so
a rule can ask in `finish()` what a loop does, including through helpers defined in the same file.

Not a rule: the registry only takes `Rule` subclasses, and there is none here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import libcst as cst

from shapecheck.engine import CallSite, Context
from shapecheck.engine.syntax import dotted_name, last_name

EventKind = Literal["backward", "step", "reset", "eval", "train"]
TRAINING: frozenset[EventKind] = frozenset({"backward", "step"})

# `optimizer`, `optim`, `opt`, `optG`, `opt_d`, `d_opt`, `optimizers[0]`: what projects call their optimizers.
# Not `options`, `opts.step` or `lr_scheduler.step()`, whose `step` means something else.
_OPTIMIZER_NAME = re.compile(r"[Oo]ptim|(?:^|_)[Oo]pt(?:$|_|\d|[A-Z])")
_OPTIMIZER_CLASSES = frozenset(
    {"SGD", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "ASGD", "LBFGS", "NAdam", "RAdam", "RMSprop", "Rprop",
     "SparseAdam", "Adafactor", "Lion", "Lamb", "LAMB", "LARS", "FusedAdam", "FusedLAMB", "Adam8bit", "AdamW8bit",
     "ZeroRedundancyOptimizer", "DistributedOptimizer"}
)
# `zero_grad()`, `_zero_grads(model)`, chainer-style `cleargrads()`, `reset_grad()`.
_RESET_NAME = re.compile(r"zero_?grad|clear_?grad|reset_?grad", re.IGNORECASE)
# In-place tensor methods an update `p -= lr * p.grad` is spelled with.
IN_PLACE_UPDATES = frozenset({"sub_", "add_", "addcdiv_", "addcmul_", "copy_"})
LIGHTNING_HOOKS = frozenset({"validation_step", "test_step", "predict_step"})


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
    value, _ = ctx.value_of(receiver)
    if type(value) is cst.Call:
        qualname = ctx.qualname(value.func) or ""
        constructor = _receiver_name(value.func) or ""
        if "sched" in qualname.lower() or "sched" in constructor.lower():
            return None
        if qualname.startswith("torch.optim.") or constructor in _OPTIMIZER_CLASSES:
            return receiver
    name = _receiver_name(receiver)
    if name is None or "sched" in name.lower() or not _OPTIMIZER_NAME.search(name):
        return None
    return None if ctx.is_foreign(receiver) else receiver


def is_reset_call(call: cst.Call) -> bool:
    """`opt.zero_grad()`, `model.zero_grad(set_to_none=True)`, `p.grad.zero_()`, `p.grad.data.zero_()`, a
    `zero_grads(model)` helper."""
    func = call.func
    if type(func) is cst.Name:
        return _is_reset_name(func.value)
    if type(func) is not cst.Attribute:
        return False
    name = func.attr.value
    if name == "zero_":
        receiver = func.value
        if type(receiver) is cst.Attribute and receiver.attr.value == "data":
            receiver = receiver.value
        return type(receiver) is cst.Attribute and receiver.attr.value == "grad"
    return _is_reset_name(name)


def _is_reset_name(name: str) -> bool:
    # Every reset name has "grad" or "Grad" in it: a substring test spares the regex on nearly every call.
    return "rad" in name and _RESET_NAME.search(name) is not None


def is_grad_target(target: cst.BaseExpression) -> bool:
    """`p.grad` as an assignment or `del` target: `p.grad = None` resets a gradient."""
    return type(target) is cst.Attribute and target.attr.value == "grad"


# Module methods that return the module itself: `model.to(device).train()` switches `model`.
_RETURNS_MODULE = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "eval",
                             "requires_grad_", "apply", "type"})


def mode_switch(ctx: Context, call: cst.Call) -> tuple[Literal["eval", "train"], str] | None:
    """("eval", "model") for `model.eval()` / `model.train(False)`, ("train", "model") for `model.train()` /
    `model.train(True)` / `model.train(mode)` / `model.to(device).train()`; None for anything else
    (`trainer.train(data)` has no model spelling to follow either)."""
    func = call.func
    if type(func) is not cst.Attribute:
        return None
    name = func.attr.value
    if name != "eval" and name != "train":
        return None
    receiver = func.value
    while type(receiver) is cst.Call and type(receiver.func) is cst.Attribute \
            and receiver.func.attr.value in _RETURNS_MODULE:
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


def _grad_free_decorator(decorator: cst.Decorator) -> bool:
    """`@smart_inference_mode()`, `@no_grad_wrapper`: a project's own wrapper around no_grad/inference_mode (the
    engine already knows torch's own)."""
    expr = decorator.decorator
    name = _receiver_name(expr.func if type(expr) is cst.Call else expr) or ""
    return "no_grad" in name or "inference_mode" in name


def runs_without_grad(ctx: Context, function: cst.FunctionDef | None, depth: int = 2) -> bool:
    """`function` runs with autograd off wherever this file calls it: it is decorated so, or it is called under
    `no_grad` or from a function that itself runs so (`depth` callers up). A method is matched to its calls by name
    only, and unrelated objects share method names (`optimizer.step()`, `scheduler.step()`), so one call of a
    method under `no_grad` is taken to be the one that reaches it. Complete in `finish()`."""
    if function is None:
        return False
    if any(_grad_free_decorator(decorator) for decorator in function.decorators):
        return True
    sites = ctx.calls_to(function.name.value)
    if not sites or depth <= 0:
        return False
    quiet = [site.grad_disabled or runs_without_grad(ctx, site.function, depth - 1) for site in sites]
    return any(quiet) if _is_method(function, sites) else all(quiet)


def _is_method(function: cst.FunctionDef, sites: list[CallSite]) -> bool:
    params = function.params.params
    return bool(params) and params[0].name.value in ("self", "cls") and any(
        type(site.node.func) is cst.Attribute for site in sites)


def statements_around(ctx: Context) -> tuple[Sequence[cst.BaseStatement], Sequence[cst.BaseStatement]] | None:
    """The statements before and after the simple statement line around the node being visited, in the block
    that holds it (an indented block or the module); None when there is no such line."""
    ancestors = ctx.ancestors
    for index in range(len(ancestors) - 1, 0, -1):
        if type(ancestors[index]) is cst.SimpleStatementLine:
            statement, block = ancestors[index], ancestors[index - 1]
            break
    else:
        return None
    if type(block) is not cst.IndentedBlock and type(block) is not cst.Module:
        return None
    body = block.body
    at = body.index(statement)
    return body[:at], body[at + 1:]


def in_test(ctx: Context) -> bool:
    """The code being visited is in a pytest/unittest `test_*` function, or in a function nested in one. A name is
    not enough: pytest collects `test_*` functions only from test files, unittest runs `TestCase` methods, and a
    `test_loop(dataloader, model, loss_fn)` in `train.py` is the tutorials' evaluation helper. Outside those, a
    `test_*` function is a test when it says so: an `assert` or `pytest` in its body."""
    ancestors = ctx.ancestors
    test_file = None
    for i, node in enumerate(ancestors):
        if type(node) is not cst.FunctionDef or not node.name.value.startswith("test_"):
            continue
        if test_file is None:
            test_file = is_test_file(ctx)
        if test_file or i >= 2 and type(ancestors[i - 2]) is cst.ClassDef and _is_test_case(ancestors[i - 2]):
            return True
        if any(type(n) is cst.Assert or type(n) is cst.Name and n.value == "pytest" for n in ctx.walk(node.body)):
            return True
    return False


def _is_test_case(class_def: cst.ClassDef) -> bool:
    return any(last_name(base.value).endswith("TestCase") for base in class_def.bases)


def is_test_file(ctx: Context) -> bool:
    """The file belongs to a test suite: pytest's file names, or a `tests/`, `test/` or `testing/` folder (test
    helpers such as `testing/model_test_case.py` have no test-like name of their own)."""
    *folders, name = ctx.filename.replace("\\", "/").split("/")
    return (name.startswith("test_") or name.endswith(("_test.py", "_tests.py")) or name == "conftest.py"
            or any(folder in ("tests", "test", "testing") for folder in folders))


def lightning_module(ctx: Context) -> bool:
    """The code being visited is in a LightningModule, whose trainer runs the loop (and grad mode) itself."""
    class_def = ctx.class_def
    return class_def is not None and any(
        (dotted_name(base.value) or "").endswith("LightningModule") for base in class_def.bases)


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    node: cst.CSTNode
    subject: str | None  # the model, optimizer or tensor it concerns, when it names one
    function: cst.FunctionDef | None
    loops: tuple[cst.CSTNode, ...]
    target: cst.BaseExpression | None = None  # the expression `subject` spells, where it was read off the code


class LoopFacts:
    """The training events of one file with where they sit, recorded during the traversal; queried in `finish()`.

    A rule owns one, feeds it from `visit_For`/`visit_While` (`enter_loop`) and from the visits that find events
    (`record`), and asks it about loops and about the helpers a loop calls.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.events: list[Event] = []
        self._by_function: dict[cst.FunctionDef | None, list[Event]] = {}
        self._enclosing: dict[cst.CSTNode, tuple[cst.CSTNode, ...]] = {}
        self._sites_by_function: dict[cst.FunctionDef | None, list[CallSite]] | None = None
        self._locals: dict[cst.FunctionDef, set[str]] = {}
        self._helper_events: dict[tuple[cst.Call, int], list[Event]] = {}

    def enter_loop(self, node: cst.CSTNode) -> None:
        self._enclosing[node] = self.ctx.loops

    def record(self, kind: EventKind, node: cst.CSTNode, target: cst.BaseExpression | str | None = None) -> Event:
        subject = target if target is None or type(target) is str else text_of(self.ctx, target)
        event = Event(kind, node, subject, self.ctx.function, self.ctx.loops,
                      None if type(target) is str else target)
        self.events.append(event)
        self._by_function.setdefault(event.function, []).append(event)
        return event

    def record_call(self, call: cst.Call) -> Event | None:
        """Record `call` if it is a backward pass, an optimizer step, a gradient reset or a mode switch."""
        name = last_name(call.func)
        if not name:
            return None
        if name == "backward":
            return self.record("backward", call) if is_backward(self.ctx, call) else None
        if name == "step":
            optimizer = stepped_optimizer(self.ctx, call)
            return None if optimizer is None else self.record("step", call, optimizer)
        if name == "eval" or name == "train":
            switch = mode_switch(self.ctx, call)
            return None if switch is None else self.record(switch[0], call, switch[1])
        return self.record("reset", call) if is_reset_call(call) else None

    # ---------------------------------------------------------------------------------------------- queries

    def site_within(self, site: CallSite, loop: cst.CSTNode) -> bool:
        return site.loop is not None and loop in self._enclosing.get(site.loop, ())

    def in_loop(self, loop: cst.CSTNode) -> Iterator[Event]:
        return (event for event in self.events if loop in event.loops)

    def enclosing(self, loop: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
        """The loops around `loop` in its function, outermost first, `loop` itself last."""
        return self._enclosing[loop]

    def local_calls(self) -> dict[cst.FunctionDef | None, list[CallSite]]:
        """Call sites of functions defined in this file, by the function they are made in."""
        if self._sites_by_function is None:
            self._sites_by_function = {}
            for name in self.ctx.functions:
                for site in self.ctx.calls_to(name):
                    self._sites_by_function.setdefault(site.function, []).append(site)
        return self._sites_by_function

    def local_calls_in(self, loop: cst.CSTNode, function: cst.FunctionDef | None) -> Iterator[CallSite]:
        return (site for site in self.local_calls().get(function, ()) if self.site_within(site, loop))

    def helper_events(self, call: cst.Call, depth: int = 2) -> list[Event]:
        """The events of the same-file functions `call` may reach, `depth` calls deep, with subjects spelled as the
        caller would: `evaluate(net)` with `def evaluate(model): model.eval()` gives an eval event of "net"."""
        if depth <= 0:
            return []
        found = self._helper_events.get((call, depth))
        if found is not None:
            return found
        found = self._helper_events[call, depth] = []
        for definition in self.definitions_of(call):
            inner = list(self._by_function.get(definition, ()))
            for site in self.local_calls().get(definition, ()):
                inner += self.helper_events(site.node, depth - 1)
            for event in inner:
                subject = event.subject and self.caller_spelling(event.subject, definition, call)
                found.append(Event(event.kind, event.node, subject, event.function, event.loops))
        return found

    def definitions_of(self, call: cst.Call) -> tuple[cst.FunctionDef, ...]:
        """The functions of this file a call may run, matched by name: `f(...)`, `self.f(...)`, `obj.f(...)`."""
        name = dotted_name(call.func)
        return tuple(self.ctx.functions.get(name.rsplit(".", 1)[-1], ())) if name is not None else ()

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


def _bound_names(target: cst.BaseExpression) -> Iterator[str]:
    """The plain names an assignment target binds: `x`, `a, (b, *c)`; not `self.x` or `d[k]`."""
    if type(target) is cst.Name:
        yield target.value
    elif type(target) is cst.Tuple or type(target) is cst.List:
        for element in target.elements:
            yield from _bound_names(element.value)
    elif type(target) is cst.StarredElement:
        yield from _bound_names(target.value)
