"""Shared by the loss and model rules: which activation produced a value, which class a model call runs, and an
argument-adding edit for fixes.

`activation_of(ctx, expr)` answers "is this a softmax / log_softmax / sigmoid output?" for every spelling
(`F.softmax(x, 1)`, `torch.sigmoid(x)`, `x.softmax(-1)`, `nn.Softmax(dim=1)(x)`, `self.act(x)` with
`self.act = nn.Sigmoid()`, an `nn.Sequential(...)` ending in one), through local names; with `models=True` it
also sees through a model defined in the file whose `forward` returns one (the engine records those returns,
`forward_returns(ctx)`). It reads bindings, never names: an attribute called `softmax` that holds an
`nn.LogSoftmax` is a log_softmax.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

import libcst as cst

from shapecheck.engine.context import FOREIGN_FRAMEWORKS, Binding, Context, Point
from shapecheck.engine.records import record
from shapecheck.engine.syntax import is_self_attribute, new_keyword_arg, param_annotation
from shapecheck.objects.callers import argument_of, instance_callers, method_calls, project_callers
from shapecheck.objects.classes import class_facts
from shapecheck.objects.model_outputs import forward_returns
from shapecheck.objects.project import resolved
from shapecheck.objects.command_line import command_line_defaults
from shapecheck.objects.modules import RETURNS_SELF
from shapecheck.objects.stored import constructor_arguments, stored_parameter
from shapecheck.objects.values import ClassValue, Const, Instance, Mapping, Opaque, Seq, TorchObject
from shapecheck.shapes.evaluator import evaluator

Kind = Literal["softmax", "log_softmax", "sigmoid"]
# "module": an activation module (`nn.Softmax(dim=1)`); "sequential": an `nn.Sequential` stack ending in one.
Form = Literal["function", "method", "module", "sequential", "model"]

FUNCTIONS: dict[str, Kind] = {
    "torch.softmax": "softmax", "torch.nn.functional.softmax": "softmax", "torch.special.softmax": "softmax",
    "torch.log_softmax": "log_softmax", "torch.nn.functional.log_softmax": "log_softmax",
    "torch.special.log_softmax": "log_softmax",
    "torch.sigmoid": "sigmoid", "torch.nn.functional.sigmoid": "sigmoid", "torch.special.expit": "sigmoid",
}
MODULES: dict[str, Kind] = {
    "torch.nn.Softmax": "softmax", "torch.nn.modules.activation.Softmax": "softmax",
    "torch.nn.LogSoftmax": "log_softmax", "torch.nn.modules.activation.LogSoftmax": "log_softmax",
    "torch.nn.Sigmoid": "sigmoid", "torch.nn.modules.activation.Sigmoid": "sigmoid",
}
METHODS: dict[str, Kind] = {"softmax": "softmax", "log_softmax": "log_softmax", "sigmoid": "sigmoid"}
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
# Tensor methods that change a shape, a dtype or a device but keep the values: probabilities stay probabilities
# (`output = output.to(device)` is still the model's softmax).
SAME_VALUES = frozenset({"view", "reshape", "squeeze", "unsqueeze", "flatten", "permute", "transpose", "contiguous",
                         "float", "double", "half", "to", "cpu", "cuda", "detach", "clone"})


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Activation:
    kind: Kind
    form: Form
    call: cst.Call  # the call that applies it; for "model", the model call
    inline: bool  # the call is written in the expression itself, not reached through a name


def activation_of(ctx: Context, expr: cst.BaseExpression, models: bool = False, depth: int = 0,
                  stored: bool = False) -> Activation | None:
    """The activation whose output `expr` is, or None; through local names and shape or dtype changes
    (`probs.view(-1, C)`, `torch.sigmoid(x).float()`). With `models`, also a model of this file whose `forward`
    returns one (every `return` agreeing), including one position of a tuple it returns (`a, p = model(x)`)."""
    value, before, inline = _values_kept(ctx, expr)
    index: int | str | None = None
    if models:
        value, before, index = _output_position(ctx, value, before)
    if type(value) is not cst.Call:
        return None
    inline = inline and index is None
    if index is None:
        applied = _applied(ctx, value, before)
        if applied is not None:
            return Activation(applied[0], applied[1], value, inline)
    if models:
        kind = model_output(ctx, value, before, index, depth, stored)
        if kind is not None:
            return Activation(kind, "model", value, inline)
    return None


def _values_kept(ctx: Context, expr: cst.BaseExpression) -> tuple[cst.BaseExpression, int | None, bool]:
    """What `expr` holds the values of, through local names, shape, dtype or device changes and tensor indexing
    (`probs.view(-1, C)`, `torch.sigmoid(x).float()`, `p[..., 4]`, `probs[:, 1:]`), with the binding counter to read
    it at and whether it is written in `expr` itself (no name in between)."""
    inline = True
    before: int | None = None
    for _ in range(8):
        value, before = ctx.value_of(expr, before)
        inline = inline and value is expr
        if type(value) is cst.Subscript and _tensor_indexing(value):
            expr = value.value
            continue
        func = value.func if type(value) is cst.Call else None
        if type(func) is not cst.Attribute or func.attr.value not in SAME_VALUES or ctx.qualname(func) is not None:
            break
        expr = func.value
    return value, before, inline


def _tensor_indexing(subscript: cst.Subscript) -> bool:
    """Indexing only a tensor (or an array) takes: a slice or `...` in it, or more than one index (`p[..., 4]`,
    `x[:, 0]`); `out[1]` and `out["conf"]` may pick from a tuple or a dict."""
    return len(subscript.slice) > 1 or any(
        type(element.slice) is cst.Slice
        or type(element.slice) is cst.Index and type(element.slice.value) is cst.Ellipsis
        for element in subscript.slice)


def activation_input(activation: Activation) -> cst.BaseExpression | None:
    """The tensor an inline activation call is applied to (`x` in `F.softmax(x, -1)`, `x.softmax(-1)`,
    `self.softmax(x)`), or None when the call can't be read plainly."""
    call = activation.call
    if activation.form == "method":
        return call.func.value if type(call.func) is cst.Attribute else None
    if activation.form == "model" or any(arg.star for arg in call.args):
        return None
    return first_argument(call, "input")


def first_argument(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """The first positional argument, or the one passed as `keyword=`."""
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            return arg.value
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    return None


def _output_position(ctx: Context, value: cst.BaseExpression, before: int | None
                     ) -> tuple[cst.BaseExpression, int | None, int | str | None]:
    """`a, p = model(x)`, `model(x)[1]` and `out["exist"]` with `out = model(x)`: the call and the position (or the
    key) taken from what it returns."""
    if type(value) is cst.Name:
        binding = ctx.binding(value, before)
        if binding is not None and binding.kind == "unpack" and binding.index is not None and not binding.starred:
            return binding.value, binding.seq, binding.index
    elif type(value) is cst.Subscript and len(value.slice) == 1:
        element = value.slice[0].slice
        if type(element) is cst.Index and type(element.value) in (cst.Integer, cst.SimpleString):
            returned, before = ctx.value_of(value.value, before)
            return returned, before, element.value.evaluated_value  # type: ignore[attr-defined]
    return value, before, None


def _applied(ctx: Context, call: cst.Call, before: int | None) -> tuple[Kind, Form] | None:
    func = call.func
    qualname = ctx.qualname(func)
    if qualname is not None:
        kind = FUNCTIONS.get(qualname)
        return None if kind is None else (kind, "function")
    module, seq = construction_of(ctx, func, before)
    if module is not None:
        kind = module_kind(ctx, module)
        if kind is None and ctx.qualname(module.func) in SEQUENTIAL:
            kind = _listed_last_kind(ctx, func, before)  # `nn.Sequential(*layers)`
        if kind is not None:
            return kind, "sequential" if ctx.qualname(module.func) in SEQUENTIAL else "module"
        built = _built_by_function(ctx, module, seq)
        if built is not None and built.call is not None and built.site is not None:
            # read where the factory builds it; a stack of a list it fills (`nn.Sequential(*layers)` after
            # `layers.append(nn.Softmax(dim=1))`) from the layers the objects floor followed into the list
            kind = module_kind(built.site.evaluator.ctx, built.call) or _last_layer_kind(built)
            if kind is not None:
                return kind, "sequential" if built.qualname in SEQUENTIAL else "module"
    if type(func) is cst.Attribute and func.attr.value in METHODS:
        # `self.softmax(x)` whose binding we can't see is a method of the module, not of a tensor.
        if (type(func.value) is not cst.Name or func.value.value != "self") and not ctx.is_foreign(func.value):
            return METHODS[func.attr.value], "method"
    return None


def _built_by_function(ctx: Context, call: cst.Call, before: int | None) -> TorchObject | None:
    """The torch module a function of the project returns (`build_model(d, k)` returning an `nn.Sequential(...)`),
    as the objects floor follows the call."""
    if type(call.func) is not cst.Name:
        return None
    binding = ctx.binding(call.func, before)
    if binding is None or binding.kind not in ("def", "import"):
        return None
    built = evaluator(ctx).value(call, before)
    return built if isinstance(built, TorchObject) else None


def _listed_last_kind(ctx: Context, instance: cst.BaseExpression, before: int | None) -> Kind | None:
    """The kind of the activation a model built as `nn.Sequential(*layers)` ends in, when the statements before
    the assignment, in its own block, say what `layers` ends with: the last one touching the list puts the layer
    there for certain (`layers.append(nn.Softmax(dim=1))`, `layers += [..., nn.Sigmoid()]`, `layers = [...]`).
    A loop or a branch touching it last, or any other use of it, leaves the end unknown."""
    binding = ctx.binding(instance, before)
    if binding is None or binding.kind != "assign" or type(binding.value) is not cst.Call or not binding.value.args:
        return None
    last = binding.value.args[-1]
    if last.star != "*" or type(last.value) is not cst.Name:
        return None
    name = last.value.value
    path = binding.path
    for depth in range(len(path) - 2, -1, -1):
        block = path[depth]
        if type(block) is cst.IndentedBlock or type(block) is cst.Module:
            line = path[depth + 1]
            statements = block.body
            index = next((i for i, statement in enumerate(statements) if statement is line), None)
            if index is None:
                return None
            for statement in reversed(statements[:index]):
                touched, layer = _list_end(ctx, statement, name)
                if touched:
                    return module_kind(ctx, layer) if type(layer) is cst.Call else None
            return None
    return None


def _list_end(ctx: Context, statement: cst.CSTNode, name: str) -> tuple[bool, cst.BaseExpression | None]:
    """Whether `statement` touches the list `name`, and the element it then ends with for certain (None: unknown)."""
    if not any(type(node) is cst.Name and node.value == name for node in ctx.walk(statement)):
        return False, None
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return True, None
    small = statement.body[0]
    added: cst.BaseExpression | None = None
    if type(small) is cst.Expr and type(small.value) is cst.Call:
        call = small.value
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.value.value != name \
                or len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return True, None
        if func.attr.value == "append":
            return True, call.args[0].value
        added = call.args[0].value if func.attr.value == "extend" else None
    elif type(small) is cst.AugAssign and type(small.operator) is cst.AddAssign \
            and type(small.target) is cst.Name and small.target.value == name:
        added = small.value
    elif type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name \
            and small.targets[0].target.value == name:
        added = small.value
    if (type(added) is cst.List or type(added) is cst.Tuple) and added.elements \
            and type(added.elements[-1]) is cst.Element:
        return True, added.elements[-1].value
    return True, None


def _last_layer_kind(built: TorchObject) -> Kind | None:
    """The kind of the activation an `nn.Sequential` the objects floor built ends in, when every layer of it is
    known (`items` complete): its last layer, or the last of a stack nested there."""
    for _ in range(8):
        if built.qualname in MODULES:
            return MODULES[built.qualname]
        items = built.items
        if built.qualname not in SEQUENTIAL or type(items) not in (Seq, Mapping) or not items.complete \
                or not items.items:
            return None
        last = items.items[-1]
        if type(items) is Mapping:  # `nn.Sequential(OrderedDict([..., ("probs", nn.Softmax(dim=1))]))`
            last = last[1]
        if not isinstance(last, TorchObject):
            return None
        built = last
    return None


def module_kind(ctx: Context, construction: cst.Call) -> Kind | None:
    """`nn.Softmax(dim=1)` -> "softmax"; an `nn.Sequential(...)` takes the kind of its last layer."""
    for _ in range(8):
        qualname = ctx.qualname(construction.func)
        if qualname in MODULES:
            return MODULES[qualname]
        if qualname not in SEQUENTIAL or not construction.args:
            return None
        last = construction.args[-1]
        if last.star or last.keyword is not None or type(last.value) is not cst.Call:
            return None
        construction = last.value
    return None


# ------------------------------------------------------------------------------------------------------ losses

# Calls that return the module they are called on: `nn.CrossEntropyLoss(weight=w).to(device)` is still the loss. Not
# `.requires_grad_()`: a module it froze gives outputs with no graph, which the construction does not tell.
_SAME_MODULE = RETURNS_SELF - {"requires_grad_"}


def loss_of(ctx: Context, call: cst.Call, losses: frozenset[str]) -> str | None:
    """Which of `losses` (dotted names of functions and loss classes) `call` computes: `F.cross_entropy(...)`,
    `nn.CrossEntropyLoss()(...)`, `criterion(...)` / `self.criterion(...)` bound to one. None for any other call."""
    func = call.func
    kind = type(func)
    if kind is cst.Attribute:
        if type(func.value) is not cst.Name or func.value.value != "self":
            if func.attr.value not in _last_names(losses):
                return None  # a method of some object: not a loss module we can see
            qualname = ctx.qualname(func)
            return qualname if qualname in losses else None
    elif kind is cst.Name:
        qualname = ctx.qualname(func)
        if qualname is not None:
            return qualname if qualname in losses else None
    elif kind is not cst.Call:
        return None
    return built_loss(ctx, func, losses)


def built_loss(ctx: Context, instance: cst.BaseExpression, losses: frozenset[str], before: int | None = None,
               depth: int = 0) -> str | None:
    """The loss of `losses` the object `instance` refers to was built as (see `construction_of`): `nn.BCELoss()`,
    an entry of a dict of loss factories whose every entry agrees (`LOSSES[args.loss]()`), what a factory of the
    project returns when run with the call's arguments (`get_criterion("ce")` returning `nn.CrossEntropyLoss()` from
    the branch its name picks), or both branches of a conditional when they agree (`nn.BCEWithLogitsLoss() if
    args.loss == "bce" else nn.BCEWithLogitsLoss(pos_weight=w)`). None when it can't be told."""
    value, seq = ctx.value_of(instance, before)
    if type(value) is cst.IfExp:
        branches = {built_loss(ctx, branch, losses, seq, depth + 1) if depth < 2 else None
                    for branch in (value.body, value.orelse)}
        return branches.pop() if len(branches) == 1 else None
    if type(value) is cst.Name or type(value) is cst.Attribute:
        # the loss function itself handed on (`loss_fn = F.cross_entropy`), not a class a call would construct
        qualname = ctx.qualname(value)
        if qualname in losses and qualname.rsplit(".", 1)[-1][:1].islower():  # type: ignore[union-attr]
            return qualname
    construction, before = construction_of(ctx, instance, before)
    if construction is None:
        return None
    qualname = ctx.qualname(construction.func)
    if qualname is None and type(construction.func) is cst.Subscript:
        qualname = _registry_loss(ctx, construction.func, before)
    if qualname is None and type(construction.func) is cst.Call:
        qualname = _attribute_loss(ctx, construction.func, before)
    if qualname not in losses:
        built = evaluator(ctx).value(construction, before)
        qualname = built.qualname if isinstance(built, TorchObject) else None
    if qualname not in losses and type(construction.func) is cst.Name:
        qualname = _factory_loss_by_default(ctx, construction, before)
    return qualname if qualname in losses else None


def _factory_loss_by_default(ctx: Context, construction: cst.Call, before: int | None) -> str | None:
    """What a factory of the project returns (`get_criterion(args.loss)`, whose `if name == "bce":` picks the loss)
    in the run the program is written for: its string arguments the command line's defaults (see `_chosen_key`), as
    a registry's entry is read; None where no argument is such an option or the run gives no torch object."""
    ev = evaluator(ctx)
    args, chosen = [], False
    for arg in construction.args:
        string = _chosen_string(ctx, arg.value, before) if not arg.star else None
        if string is not None and not isinstance(ev.value(arg.value, before), Const):
            arg, chosen = arg.with_changes(value=cst.SimpleString(repr(string))), True
        args.append(arg)
    if not chosen:
        return None
    built = ev.value(construction.with_changes(args=args), before)
    return built.qualname if isinstance(built, TorchObject) else None


def loss_input(ctx: Context, call: cst.Call, losses: frozenset[str]) -> tuple[str, cst.BaseExpression] | None:
    """The loss of `losses` that `call` computes (see `loss_of`) and the tensor passed as its input (the first
    argument, or `input=`); None for any other call, or when the input can't be read."""
    loss = loss_of(ctx, call, losses)
    if loss is None:
        return None
    argument = first_argument(call, "input")
    return None if argument is None else (loss, argument)


@cache
def _last_names(losses: frozenset[str]) -> frozenset[str]:
    return frozenset(name.rsplit(".", 1)[1] for name in losses)


def construction_of(ctx: Context, instance: cst.BaseExpression, before: int | None = None
                    ) -> tuple[cst.Call | None, int | None]:
    """The call that built the object `instance` refers to, through local names, `self.attr`, the calls that
    return the module they're called on and deep copies, which build another of the same: `Net()` for `model`
    after `model = Net().to(device)` or `model = Net(); model = model.cuda()`, and for `best =
    copy.deepcopy(model)`. None when it can't be told."""
    expr: cst.BaseExpression = instance
    for _ in range(8):
        expr, before = ctx.value_of(expr, before)
        if type(expr) is not cst.Call:
            return None, before
        func = expr.func
        if type(func) is cst.Attribute and func.attr.value in _SAME_MODULE:
            expr = func.value
            continue
        if ctx.qualname(func) == "copy.deepcopy" and len(expr.args) == 1 and not expr.args[0].keyword:
            expr = expr.args[0].value
            continue
        return expr, before
    return None, before


# ------------------------------------------------------------------------------------------- losses handed in


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(unsafe_hash=True)
class Handed:
    """A criterion, a model or a model's output a function was handed: a parameter of a helper or of a module's
    `forward` (`class_def` None), or the parameter a class's constructor stored in the attribute a method uses."""

    function: cst.FunctionDef
    parameter: str
    class_def: cst.ClassDef | None = None

    def arguments(self, ctx: Context) -> list[tuple[cst.BaseExpression, Point, Context]] | None:
        """What the project passes for it, with the point to read the caller's names at and the context that point
        is in: at every call of the helper, or construction of the class, in this file or a module importing it;
        for a module's `forward`, at the calls of its instances that are certain (`criterion(preds, targets)` with
        `criterion = YoloLoss(n)`); for another method, at its calls on what is known to be an instance of its
        class (`self.net.loss(output, batch)` in a runner constructed with the model)."""
        if self.class_def is not None:
            return constructor_arguments(ctx, self.class_def, self.function, self.parameter)
        owner = ctx.class_of_method(self.function)
        if owner is None:
            callers = project_callers(ctx, self.function)
        elif self.function.name.value == "forward":
            callers = instance_callers(ctx, self.function)
        else:
            callers = method_calls(ctx, self.function, lambda reader, receiver: _is_instance(reader, receiver,
                                                                                             ClassValue(owner, ctx)))
        # an instance call binds `self` as a construction does
        passed = [argument_of(ctx, self.function, caller, self.parameter, constructor=owner is not None)
                  for caller in callers or ()]
        return None if not passed or None in passed else passed  # type: ignore[return-value]


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class HandedLoss:
    """A loss call whose criterion or model was handed in (`criterion(model(x), y)` in `def train(model, loader,
    criterion)`, `self.criterion(self.model(x), y)` in a trainer that stored what its constructor was given), for a
    rule's `finish` to resolve once the whole file's calls and constructions are known."""

    call: cst.Call
    criterion: str | Handed  # the loss when it is known at the call
    model: Handed | None  # None: the activation is in view at the call
    kind: Kind | None = None  # the activation in view
    form: Form | None = None
    # `model` hands in the model's output itself (`def forward(self, preds, targets)` of a loss module), taken at
    # this position or key (`preds["conf"]`) when not None
    output: bool = False
    key: int | str | None = None


def handed_loss(ctx: Context, call: cst.Call, loss: str | None) -> HandedLoss | None:
    """`call` as a loss whose criterion or model was handed in (`loss`: the loss `call` is known to compute here),
    when the other of the two is a known loss or an activation in view; None otherwise."""
    criterion = loss or handed_in(ctx, call.func)
    argument = first_argument(call, "input")
    if criterion is None or argument is None:
        return None
    if loss is None:
        activation = activation_of(ctx, argument, models=True)
        if activation is not None:
            return HandedLoss(call, criterion, None, activation.kind, activation.form)
    value, before, _ = _values_kept(ctx, argument)
    model = handed_in(ctx, value.func) if type(value) is cst.Call else None
    if model is not None:
        return HandedLoss(call, criterion, model)
    value, _, key = _output_position(ctx, value, before)
    output = handed_in(ctx, value) if type(value) is cst.Name else None
    return HandedLoss(call, criterion, output, output=True, key=key) if output is not None else None


def handed_in(ctx: Context, expr: cst.BaseExpression) -> Handed | None:
    """The helper parameter (`criterion` in `def train(model, criterion)`) or the constructor parameter a trainer
    stored (`self.criterion = criterion`) that `expr` reads; None for anything else."""
    function = ctx.function
    if type(expr) is cst.Name and function is not None:
        binding = ctx.binding(expr)
        if binding is not None and binding.kind == "param" and binding.statement is function:
            return Handed(function, expr.value)
        return None
    stored = stored_parameter(ctx, expr)
    return Handed(stored[1], stored[2], stored[0]) if stored is not None else None


def resolve_handed(ctx: Context, handed: HandedLoss, losses: frozenset[str]) -> tuple[str, Kind] | None:
    """The loss of `losses` a handed-in loss computes and the activation its input comes out of, when every call
    or construction that hands them in agrees: every criterion passed is built as the same loss, and every model
    passed is a model whose `forward` returns the same activation (see `model_output`); None otherwise."""
    criterion = handed.criterion
    if isinstance(criterion, Handed):
        passed = criterion.arguments(ctx)
        built = {_loss_built_at(*argument, losses) for argument in passed} if passed is not None else {None}
        if len(built) != 1 or None in built:
            return None
        criterion = built.pop()  # type: ignore[assignment]
    if handed.model is None:
        return (criterion, handed.kind) if handed.kind is not None else None  # type: ignore[return-value]
    models = handed.model.arguments(ctx)
    if handed.output:
        kinds = {_output_at(*argument, handed.key) for argument in models or ()}
    else:
        kinds = {_model_output_at(*argument) for argument in models or ()}
    if len(kinds) != 1 or None in kinds:
        return None
    return criterion, kinds.pop()  # type: ignore[return-value]


def _loss_built_at(argument: cst.BaseExpression, point: Point, reader: Context, losses: frozenset[str]) -> str | None:
    with reader.at(point):
        return built_loss(reader, argument, losses)


def _attribute_loss(ctx: Context, chosen: cst.Call, before: int | None) -> str | None:
    """`getattr(nn, args.loss)()`: the class of `torch.nn` the name picks in the run the program is written for, as
    a registry's key (see `_chosen_key`): a string the code states or the default of the command-line option."""
    args = chosen.args
    if type(chosen.func) is not cst.Name or chosen.func.value != "getattr" or ctx.binding(chosen.func) is not None \
            or len(args) != 2 or any(arg.keyword is not None or arg.star for arg in args):
        return None
    module = ctx.qualname(args[0].value)
    if module != "torch.nn":
        return None
    name = _chosen_string(ctx, args[1].value, before)
    return None if name is None or not name.isidentifier() else f"{module}.{name}"


def _registry_loss(ctx: Context, chosen: cst.Subscript, before: int | None) -> str | None:
    """`LOSSES[args.loss](pos_weight)`: the loss every entry of a dict literal of factories builds, whatever the
    key (`{"bce": lambda w: nn.BCEWithLogitsLoss(), "weighted": lambda w: nn.BCEWithLogitsLoss(pos_weight=w)}`, or
    the classes themselves); where they differ, the entry the key picks in the run the program is written for: a
    string the code states, or the default of the command-line option it is (`--loss`, `default="bcel"`), as the
    sizes read an option at its default. None when the entry can't be told or read."""
    registry, _ = ctx.value_of(chosen.value, before)
    if type(registry) is not cst.Dict or not registry.elements:
        return None
    built: dict[object, str | None] = {}
    for element in registry.elements:
        if type(element) is not cst.DictElement:
            return None  # `**others` may hold any factory
        factory = element.value
        if type(factory) is cst.Lambda:
            factory = factory.body.func if type(factory.body) is cst.Call else factory.body
        key = element.key.evaluated_value if type(element.key) is cst.SimpleString else element
        built[key] = ctx.qualname(factory)
    if len(set(built.values())) == 1:
        return next(iter(built.values()))
    key = _chosen_key(ctx, chosen, before)
    return built.get(key) if key is not None else None


def _chosen_key(ctx: Context, chosen: cst.Subscript, before: int | None) -> str | None:
    """The string key of `REGISTRY[key]` in the run the program is written for: a string the code states
    (`LOSSES["bce"]`, or a name bound to one), or the default of the command-line option it reads (`LOSSES[args.loss]`
    after `args = parser.parse_args()`); None otherwise."""
    if len(chosen.slice) != 1 or type(index := chosen.slice[0].slice) is not cst.Index:
        return None
    return _chosen_string(ctx, index.value, before)


def _chosen_string(ctx: Context, key: cst.BaseExpression, before: int | None) -> str | None:
    """The string `key` holds in the run the program is written for (see `_chosen_key`)."""
    ev = evaluator(ctx)
    value = ev.value(key, before)
    if isinstance(value, Const) and isinstance(value.value, str):
        return value.value
    if isinstance(value, Opaque):  # a parsed command line handed on whole (`fit(model, args)`): its option's default
        return value.choice
    if type(key) is cst.Attribute and type(key.value) is cst.Name:  # `args.loss` of the parse in this function
        options = command_line_defaults(ev, key.value, ev.now() if before is None else before)
        default = options.get(key.attr.value) if options is not None else None
        return default.value if isinstance(default, Const) and isinstance(default.value, str) else None
    return None


def _model_output_at(argument: cst.BaseExpression, point: Point, reader: Context) -> Kind | None:
    """The activation the model a caller passes ends in: a layer or a stack of them (`nn.Sequential(..., nn.Softmax(
    dim=1))`), or a model class whose `forward` returns one."""
    call = cst.Call(func=argument)
    with reader.at(point):
        applied = _applied(reader, call, None)
        if applied is not None:
            return applied[0] if applied[1] == "module" or applied[1] == "sequential" else None
        return model_output(reader, call, None, None)


def _is_instance(ctx: Context, receiver: cst.BaseExpression, owner: ClassValue) -> bool:
    """`receiver` is an instance of `owner`, which another module's reading of its file may hold as a tree of its
    own: the same class is the one of that name in that file."""
    found = model_class(ctx, receiver)
    if found is None or found.node is owner.node:
        return found is not None
    where = resolved(found.ctx.filename)
    return found.node.name.value == owner.node.name.value and where is not None \
        and where == resolved(owner.ctx.filename)


def model_class(ctx: Context, instance: cst.BaseExpression, before: int | None = None) -> ClassValue | None:
    """`project_class`, and the class of what a constructor stored from its parameter (`self.net = net`) when every
    construction of the class storing it hands an instance of the same project class (`Runner(LaneNet(), loader)`)."""
    found = project_class(ctx, instance, before)
    stored = stored_parameter(ctx, instance) if found is None else None
    if stored is None:
        return found
    classes = set()
    for argument, point, reader in constructor_arguments(ctx, stored[0], stored[1], stored[2]) or ():
        with reader.at(point):
            handed = project_class(reader, argument)
        classes.add(None if handed is None else (handed.node, handed.ctx))
    if len(classes) != 1 or None in classes:
        return None
    node, reader = classes.pop()  # type: ignore[misc]
    return ClassValue(node, reader)


def _output_at(argument: cst.BaseExpression, point: Point, reader: Context, key: int | str | None) -> Kind | None:
    """The activation a caller passes as a model's output (`loss, parts = criterion(model(images), targets)`), at
    `key` of it when the callee reads one (`preds["conf"]`)."""
    with reader.at(point):
        # read once the file's constructions are known: a model a runner stored from its constructor is followed
        return _kind(activation_of(reader, argument if key is None else _subscripted(argument, key), models=True,
                                   stored=True))


def _subscripted(value: cst.BaseExpression, key: int | str) -> cst.Subscript:
    """`value[key]`, for `_output_position` to read as a position or a key of what `value` holds."""
    index = cst.Integer(str(key)) if isinstance(key, int) else cst.SimpleString(repr(key))
    return cst.Subscript(value, [cst.SubscriptElement(cst.Index(index))])


# ---------------------------------------------------------------------------------------------- models in the file

MODULE_BASES = ("torch.nn.", "torch.jit.ScriptModule", "pytorch_lightning.", "lightning.")


def instance_class(ctx: Context, instance: cst.BaseExpression, before: int | None = None) -> cst.ClassDef | None:
    """The class of this file that `instance` is an instance of: `model` with `model = Net().to(device)`,
    `self.net` with `self.net = Net()`, `Net()`, and `self` inside `Net` itself."""
    if type(instance) is cst.Name and instance.value == "self":
        return ctx.class_def
    found = _constructor(ctx, instance, before)
    if found is None or found[1].kind != "class":
        return None
    return found[1].statement  # type: ignore[return-value]  # a "class" binding's statement is its ClassDef


def imported_class(ctx: Context, instance: cst.BaseExpression, before: int | None = None) -> ClassValue | None:
    """The class of one of the project's modules that `instance` was built from (`model = Net()` with `from model
    import Net`), as that module defines it."""
    found = _constructor(ctx, instance, before)
    if found is None or found[1].kind != "import":
        return None
    value = evaluator(ctx).value(found[0], found[2])
    return value if isinstance(value, ClassValue) else None


def project_class(ctx: Context, instance: cst.BaseExpression, before: int | None = None) -> ClassValue | None:
    """The project class `instance` is an instance of, with the context of the module defining it: one of this file
    (`self` in its methods, `self.net = Net()`), one imported (`model = Net()` with `from model import Net`), or the
    class a parameter is annotated with (`def __init__(self, model: FraudScorer)`, then `self.model = model`)."""
    class_def = instance_class(ctx, instance, before)
    if class_def is not None:
        return ClassValue(class_def, ctx)
    found = imported_class(ctx, instance, before) or _annotated_class(ctx, instance, before)
    if found is not None:
        return found
    # `self.net` set outside `__init__`, or `model = fit(Net(), x, y)` of a helper handing back what it is given
    value = evaluator(ctx).value(instance, before) if is_self_attribute(instance) or type(instance) is cst.Name \
        else None
    return value.cls if isinstance(value, Instance) and not value.tainted else None


def element_instances(ctx: Context, expr: cst.BaseExpression, before: int | None = None) -> list[Instance] | None:
    """The project objects a loop's name goes through (`for user in self.users:`, `[c.test() for c in clients]`):
    every element of the list it iterates, where each is an object of a project class the code builds; the list
    read where it is (`users = [User(i) for i in range(n)]`) or, for a trainer's attribute its constructor stores
    (`self.users = users`), the list every construction hands (`Server(model, [User(...) for ...])`). None when an
    element, or a construction, is not known."""
    binding = ctx.binding(expr, before) if type(expr) is cst.Name else None
    if binding is None or binding.kind not in ("for", "comp") or binding.value is None or binding.starred:
        return None
    listed = binding.value
    if binding.index is not None:  # `for i, agent in enumerate(self.agents):`
        elements = binding.unpacking_elements()
        listed = zipped_list(ctx, listed, binding.index, len(elements)) if elements is not None else None
        if listed is None:
            return None
    found = _instances(ctx, listed, binding.seq)
    if found is not None or type(listed) is not cst.Attribute:
        return found
    stored = stored_parameter(ctx, listed)
    passed = constructor_arguments(ctx, *stored) if stored is not None else None
    if passed is None:
        return None
    instances: list[Instance] = []
    for argument, point, reader in passed:
        with reader.at(point):
            found = _instances(reader, argument, None)
        if found is None:
            return None
        instances += found
    return instances


def zipped_list(ctx: Context, iterated: cst.BaseExpression, index: int, count: int) -> cst.BaseExpression | None:
    """The list the name at `index` of a loop target of `count` names goes through when the loop iterates a
    builtin `zip` of lists (`for n, loss in zip(counts, losses)`: `losses` for the second) or `enumerate` (`for i,
    agent in enumerate(agents)`: `agents` for the second, the first a counter); None otherwise."""
    if type(iterated) is not cst.Call or type(iterated.func) is not cst.Name or ctx.binding(iterated.func) is not None \
            or any(arg.keyword or arg.star for arg in iterated.args):
        return None
    lists = [arg.value for arg in iterated.args]
    if iterated.func.value == "enumerate" and len(lists) == 1 and count == 2:
        return lists[0] if index == 1 else None
    return lists[index] if iterated.func.value == "zip" and len(lists) == count else None


def _instances(ctx: Context, listed: cst.BaseExpression, before: int | None) -> list[Instance] | None:
    """The objects the list `listed` holds, where it is known and holds nothing else: each element read, or, past
    those, what every further one is; a comprehension building one class's objects (`[User(i, data) for i, data
    in enumerate(splits)]`, however many there are) holds those of the elements it read."""
    value = evaluator(ctx).value(listed, before)
    if not isinstance(value, Seq):
        return None
    items = list(value.items)
    if not value.complete:
        if value.each is not None:
            items.append(value.each)
        elif not _constructions_listed(ctx, listed, before):
            return None
    if not items or not all(isinstance(item, Instance) and not item.tainted for item in items) \
            or len({id(item.cls.node) for item in items}) != 1:  # type: ignore[union-attr]
        return None
    return items  # type: ignore[return-value]


def _constructions_listed(ctx: Context, listed: cst.BaseExpression, before: int | None) -> bool:
    """`listed` is, or names, a list comprehension whose element is a call (`[User(i, data) for ...]`): every
    element is what that one call builds."""
    if type(listed) is cst.Name:
        binding = ctx.binding(listed, before)
        listed = binding.value if binding is not None and binding.kind == "assign" else None  # type: ignore[assignment]
    return type(listed) is cst.ListComp and type(listed.elt) is cst.Call


def _constructor(ctx: Context, instance: cst.BaseExpression, before: int | None
                 ) -> tuple[cst.Name, Binding, int | None] | None:
    """The name `instance` was built by calling (`Net` for `model = Net().to(device)`), its binding, and the
    binding counter to read it at."""
    construction, seq = construction_of(ctx, instance, before)
    if construction is None or type(construction.func) is not cst.Name:
        return None
    binding = ctx.binding(construction.func, seq)
    return None if binding is None else (construction.func, binding, seq)


def is_torch_module_class(ctx: Context, class_def: cst.ClassDef, depth: int = 0, imported: bool = False) -> bool:
    """The class derives from an `nn.Module` (or a Lightning module), directly or through classes of this file;
    with `imported`, through the project's classes of other modules too (`class BYOL(BaseMomentumMethod)` of
    `solo.methods.base`, a `pl.LightningModule`). `torch.autograd.Function` subclasses are not modules; neither are
    classes whose bases can't be seen."""
    for base in class_def.bases:
        qualname = ctx.qualname(base.value)
        if qualname is not None:
            if qualname.startswith(MODULE_BASES):
                return True
            if imported and depth == 0 and _project_module_class(ctx, base.value):
                return True
            continue
        if type(base.value) is cst.Name and depth < 8:
            binding = ctx.binding(base.value)
            if binding is not None and binding.kind == "class":
                if is_torch_module_class(ctx, binding.statement, depth + 1, imported):  # type: ignore[arg-type]
                    return True
    return False


def _project_module_class(ctx: Context, base: cst.BaseExpression) -> bool:
    """`base` names a class of another module of the project whose bases, followed through the project, include a
    torch or Lightning module."""
    ev = evaluator(ctx)
    value = ev.object(base, ev.now())
    return isinstance(value, ClassValue) and any(name.startswith(MODULE_BASES) for name in ev.calls.torch_bases(value))


def is_foreign_value(ctx: Context, expr: cst.BaseExpression) -> bool:
    """Like `ctx.is_foreign`, but through `self.attr` bindings too (`self.net = cv2.dnn.readNet(...)`)."""
    value, before = ctx.value_of(expr)
    return ctx.framework_of(value, before) in FOREIGN_FRAMEWORKS


def model_output(ctx: Context, call: cst.Call, before: int | None, index: int | str | None, depth: int = 0,
                 stored: bool = False) -> Kind | None:
    """The activation kind of `call`'s output (at `index` of the tuple it returns, or under the key `index` of the
    dict it returns) when `call` runs a model of
    this file or of one of the project's modules it imports, and every `return` of its `forward` agrees
    (`shapecheck.objects.model_outputs`, read in the module that defines the class); else None."""
    class_def = instance_class(ctx, call.func, before)
    if class_def is None:
        imported = imported_class(ctx, call.func, before) or _annotated_class(ctx, call.func, before) \
            or (model_class(ctx, call.func, before) if stored and is_self_attribute(call.func) else None)
        if imported is None:
            return None
        ctx, class_def = imported.ctx, imported.node
    returns = forward_returns(ctx).of(class_def)
    if not returns or depth > 4:
        return None
    kinds = set()
    for returned in returns:
        if not returned.settled:
            return None
        value = returned.value
        if index is not None and type(value) not in (cst.Dict, cst.Tuple):
            value = _subscripted(value, index)  # `return self.head(x)`: the key of what the head returns
        elif isinstance(index, str):
            value = _keyed(value, index)  # type: ignore[assignment]
            if value is None:
                return None
        elif index is not None:
            if type(value) is not cst.Tuple or len(value.elements) <= index:
                return None
            value = value.elements[index].value
        elif type(value) is cst.Tuple:
            return None
        with ctx.at(returned.point):
            kinds.add(_kind(activation_of(ctx, value, models=True, depth=depth + 1, stored=stored)))
    return kinds.pop() if len(kinds) == 1 else None


def _keyed(returned: cst.BaseExpression, key: str) -> cst.BaseExpression | None:
    """The value under `key` in a dict literal a `forward` returns (`{"seg": ..., "exist": ...}`)."""
    if type(returned) is not cst.Dict:
        return None
    for element in returned.elements:
        if type(element) is not cst.DictElement:
            return None  # `**rest` may hold the key
        if type(element.key) is cst.SimpleString and element.key.evaluated_value == key:
            return element.value
    return None


def _annotated_class(ctx: Context, expr: cst.BaseExpression, before: int | None) -> ClassValue | None:
    """The project class a parameter is annotated with (`def loss_fn(model: Classifier, x, y)`)."""
    if type(expr) is not cst.Name:
        return None
    binding = ctx.binding(expr, before)
    if binding is None or binding.kind != "param" or type(binding.statement) is not cst.FunctionDef \
            or param_annotation(binding.statement, expr.value) is None:
        return None
    value = evaluator(ctx).value(expr, before)
    return value.cls if isinstance(value, Instance) else None


def _kind(activation: Activation | None) -> Kind | None:
    return None if activation is None else activation.kind


# ------------------------------------------------------------------------------------------------------- fixes


def with_keyword(call: cst.Call, keyword: str, value: str) -> cst.Call:
    """`call` with `keyword=value` appended, keeping a trailing comma's layout (one argument per line stays so)."""
    new = new_keyword_arg(keyword, cst.parse_expression(value))
    args = list(call.args)
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    if isinstance(last.comma, cst.Comma):  # a trailing comma: the new argument goes on its own line like the rest
        between = args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else None
        args[-1] = last.with_changes(comma=between or cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(new.with_changes(comma=last.comma))
    else:
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(new)
    return call.with_changes(args=args)


# Calls whose result is a plain number or tensor, never a module: `NAT = log(2)`, `int(dim * mult)`.
_PLAIN_CALL_ROOTS = ("math.", "torch.")
_PLAIN_BUILTINS = frozenset({"int", "float", "bool", "str", "len", "min", "max", "round", "abs", "tuple", "range"})
_REGISTERING = frozenset({"register_parameter", "add_module", "register_module"})


_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# torch.nn layers whose `weight` is a parameter however they are built (a norm layer's may be None: `affine=False`).
_WEIGHTED_LAYERS = frozenset({"Linear", "Bilinear", "LazyLinear", "Embedding", "EmbeddingBag", "Conv1d", "Conv2d",
                              "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "PReLU"})


def holds_no_parameters(ctx: Context, class_def: cst.ClassDef) -> bool:
    """A class of this file deriving from `nn.Module` alone whose attributes are all plain values (numbers, flags,
    tensors: `self.bits = bits` with `bits = 1`, buffers): it has no parameters, so running it records no graph of
    its own. False whenever an attribute could hold a module or a parameter (a parameter without a default, a call
    of an unknown function, `setattr`)."""
    if not class_def.bases or any(ctx.qualname(base.value) not in ("torch.nn.Module", "torch.nn.modules.module.Module")
                                  for base in class_def.bases):
        return False
    facts = class_facts(ctx, class_def)
    if facts.dynamic or facts.class_attributes:
        return False
    for method in facts.methods.values():
        defaults = {param.name.value: param.default for param in method.params.params}
        for node in ctx.walk(method.body):
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _REGISTERING:
                return False
            if type(node) is cst.Assign and any(is_self_attribute(t.target) for t in node.targets) \
                    and not _plain(ctx, node.value, defaults, 0):
                return False
            if type(node) in (cst.AugAssign, cst.AnnAssign) and is_self_attribute(node.target):
                return False
    return True


def module_parameter(ctx: Context, attribute: cst.Attribute, before: int | None = None) -> bool:
    """`model.coeffs` (or `self.coeffs` in a method) where `model` is an instance of a project module class whose
    every assignment of `self.coeffs` is an `nn.Parameter(...)` of its own, or the `weight` of a torch layer that
    always has one (`model.fc.weight` of `nn.Linear`): a leaf that requires grad."""
    if attribute.attr.value == "weight":
        layer = evaluator(ctx).value(attribute.value, before)
        return isinstance(layer, TorchObject) and layer.qualname.startswith("torch.nn.") \
            and layer.qualname.rsplit(".", 1)[1] in _WEIGHTED_LAYERS
    owner = project_class(ctx, attribute.value, before)
    if owner is None or not is_torch_module_class(owner.ctx, owner.node):
        return False
    facts, name = class_facts(owner.ctx, owner.node), attribute.attr.value
    if facts.dynamic or name in facts.class_attributes or name in facts.item_writers:
        return False
    found = False
    for method in facts.writers.get(name, ()):
        for node in owner.ctx.walk(facts.methods[method].body):
            targets = [target.target for target in node.targets] if type(node) is cst.Assign \
                else [node.target] if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For) else []
            for target in targets:
                if not any(is_self_attribute(part) and part.attr.value == name  # type: ignore[attr-defined]
                           for part in owner.ctx.walk(target)):
                    continue
                value = node.value if type(node) is cst.Assign else None
                if type(value) is not cst.Call or len(targets) != 1 or not is_self_attribute(target) \
                        or owner.ctx.qualname(value.func) not in _PARAMETER_CLASSES:
                    return False
                found = True
    return found


def _plain(ctx: Context, expr: cst.BaseExpression, defaults: dict[str, cst.BaseExpression | None], depth: int) -> bool:
    """`expr` is a number, string, flag or tensor for certain: literals, arithmetic of them, a parameter whose default
    is one (not None), a module-level constant, a call of `math` / non-`nn` torch / a number builtin."""
    if depth > 4:
        return False
    kind = type(expr)
    if kind in (cst.Integer, cst.Float, cst.SimpleString) or kind is cst.Name and expr.value in ("True", "False"):
        return True
    if kind is cst.BinaryOperation:
        return _plain(ctx, expr.left, defaults, depth + 1) and _plain(ctx, expr.right, defaults, depth + 1)
    if kind is cst.UnaryOperation:
        return _plain(ctx, expr.expression, defaults, depth + 1)
    if kind is cst.Name:
        if expr.value in defaults:
            default = defaults[expr.value]
            return default is not None and _plain(ctx, default, {}, depth + 1)
        constant = _module_constant(ctx, expr.value)
        return constant is not None and _plain(ctx, constant, {}, depth + 1)
    if kind is cst.Call:
        qualname = ctx.qualname(expr.func)
        if qualname is None:
            return type(expr.func) is cst.Name and expr.func.value in _PLAIN_BUILTINS
        return qualname.startswith(_PLAIN_CALL_ROOTS) and not qualname.startswith("torch.nn.") \
            and not any(arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in expr.args)
    return False


def _module_constant(ctx: Context, name: str) -> cst.BaseExpression | None:
    """The value of `NAME = value`, the one module-level assignment of `name`."""
    found = [small.value for statement in ctx.module.body if type(statement) is cst.SimpleStatementLine
             for small in statement.body if type(small) is cst.Assign
             and any(type(t.target) is cst.Name and t.target.value == name for t in small.targets)]
    return found[0] if len(found) == 1 else None
