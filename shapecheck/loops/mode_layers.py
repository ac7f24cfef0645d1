"""Whether a module's output depends on its train or eval mode, as the code that builds it shows: a class of the
project, a torchvision network, an `nn.Sequential` naming a dropout or batch-norm layer, followed through the calls
that return the module itself, copies, `load_from_checkpoint`, factories and annotated parameters. A model whose only
mode layers are dropouts of rate 0 by default, built without passing a rate, is not (SC210).

Where a mode matters: the parameters an evaluation helper predicts with under `no_grad` (`predicted_with`), and the
methods a script calls on a new object before it predicts, which may switch its model's mode (`methods_run_before`)."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context, Point
from shapecheck.engine.syntax import last_name, param_annotation
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import may_leave_eval
from shapecheck.objects.factories import unpacked_from_factory
from shapecheck.objects.modules import RETURNS_SELF
from shapecheck.objects.torch_layers import dropout_rate, is_zero_literal
from shapecheck.objects.values import ClassValue, FunctionValue, Instance, Seq, TorchObject
from shapecheck.shapes.evaluator import evaluator

# Layers whose output depends on train/eval mode.
_MODE_LAYERS = ("Dropout", "BatchNorm", "dropout")
# torchvision model builders whose networks hold batch norm or dropout.
_TORCHVISION_FAMILIES = ("resnet", "resnext", "wide_resnet", "densenet", "mobilenet", "efficientnet", "inception",
                         "googlenet", "vgg", "alexnet", "squeezenet", "regnet", "shufflenet", "mnasnet")
# Methods that return the module itself: `Net().to(device)` is the `Net()`; not `.eval()`, after which the module
# built is in eval mode.
_SAME_MODULE = RETURNS_SELF - {"eval"}
_LOADED_IN_TRAIN_MODE = frozenset({"load_from_checkpoint"})


def mode_dependent_at(ctx: Context, expr: cst.BaseExpression, point: Point, depth: int = 0) -> bool:
    """`mode_dependent` of `expr` read at `point`: what a factory returns, an argument a construction passes."""
    with ctx.at(point):
        return mode_dependent(ctx, expr, depth)


def mode_dependent(ctx: Context, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """The module `expr` names was built here with dropout or batch norm in view (or by a factory it was
    unpacked from, a few factories deep: one may hand on another's)."""
    built, before = ctx.value_of(expr)
    while type(built) is cst.Call:
        if type(built.func) is cst.Attribute and built.func.attr.value in _SAME_MODULE:
            built, before = ctx.value_of(built.func.value, before)
        elif ctx.qualname(built.func) == "copy.deepcopy" and len(built.args) == 1:
            built, before = ctx.value_of(built.args[0].value, before)  # a copy keeps the layers
        elif type(built.func) is cst.Attribute and built.func.attr.value in _LOADED_IN_TRAIN_MODE \
                and type(built.func.value) is cst.Name:
            # `LitClassifier.load_from_checkpoint(path)`: an instance of the class, left in train mode (Lightning's
            # documentation calls `model.eval()` after it); its constructor's arguments are the checkpoint's
            built = cst.Call(func=built.func.value)
        else:
            break
    if type(built) is cst.Name:
        binding = ctx.binding(built, before)
        if binding is not None and binding.kind == "param":
            return _annotated_mode_dependent(ctx, built, binding.statement, before)  # type: ignore[arg-type]
        returned = unpacked_from_factory(ctx, binding) if binding is not None and depth < 3 else None
        return returned is not None and mode_dependent_at(ctx, *returned, depth + 1)
    if type(built) is not cst.Call:
        return False
    qualname = ctx.qualname(built.func) or ""
    if qualname.startswith("torchvision.models."):
        return qualname.rsplit(".", 1)[-1].startswith(_TORCHVISION_FAMILIES)
    if qualname in ("torch.nn.Sequential", "torch.nn.ModuleList"):
        return _mentions_mode_layer(ctx, built)
    if type(built.func) is cst.Attribute:
        kind = "import"  # `models.vgg11_bn(num_classes=10)` after `import models`: what the project module defines
    elif type(built.func) is cst.Name:
        binding = ctx.binding(built.func.value, before)
        if binding is None:
            kind = "import"  # `from models import *`: what the star import gives the name, as the objects floor tells
        elif binding.kind not in ("class", "import", "def"):
            return False
        else:
            kind, class_def = binding.kind, binding.statement
    elif type(built.func) is cst.Subscript:
        kind = "registry"  # `MODELS[args.model](...)`: the class the objects floor tells the key picks
    else:
        return False
    home, construction = ctx, built  # the module that defines the class, the call read here
    if kind != "class":
        # `from model import Net`: the class as its own module defines it; `build_model(cfg)`: the object a
        # function of the project returns, when the objects floor can tell
        called = evaluator(ctx).value(built.func, before)
        if isinstance(called, ClassValue):
            home, class_def = called.ctx, called.node
        else:
            if not isinstance(called, FunctionValue) or may_leave_eval(called.node):
                return False  # `def load(path): ...; model.eval(); return model`: it may come back in eval mode
            instance = evaluator(ctx).value(built, before)
            if isinstance(instance, TorchObject):
                return _torch_object_has_mode_layers(instance)
            if not isinstance(instance, Instance) or instance.generic or instance.call is None:
                return False
            home, class_def, built = instance.cls.ctx, instance.cls.node, instance.call
    if not ctx.analysis(_ModeLayers).of(home, class_def):
        # `VGG(make_layers(cfg, batch_norm=True))`: the layers a construction hands the class, as built
        return _holds_mode_layers(evaluator(ctx).value(construction, before))
    # `MLP(8, 32, 1)` of `def __init__(self, d_in, d_hidden, d_out, dropout=0.0)`: its only mode layers are
    # dropouts of p=0.0, which do nothing in train mode either.
    off = _dropouts_off_by_default(home, class_def)  # type: ignore[arg-type]
    return not off or any(_passes(built, class_def, name) for name in off)  # type: ignore[arg-type]


def _annotated_mode_dependent(ctx: Context, name: cst.Name, function: cst.FunctionDef, before: int | None) -> bool:
    """`def evaluate(model: MLP, loader)`: the annotation names a class of the project with dropout or batch
    norm whose dropouts are on without arguments (no construction is in view to pass a rate)."""
    if type(function) is not cst.FunctionDef or param_annotation(function, name.value) is None:
        return False
    instance = evaluator(ctx).value(name, before)
    if not isinstance(instance, Instance) or not instance.generic:
        return False
    home, class_def = instance.cls.ctx, instance.cls.node
    return ctx.analysis(_ModeLayers).of(home, class_def) and not _dropouts_off_by_default(home, class_def)


class _ModeLayers:
    """Whether each class mentions a layer with a train and an eval mode, found once a class."""

    def __init__(self, ctx: Context) -> None:
        self._found: dict[cst.CSTNode, bool] = {}

    def of(self, ctx: Context, class_def: cst.ClassDef) -> bool:
        found = self._found.get(class_def)
        if found is None:
            found = self._found[class_def] = _mentions_mode_layer(ctx, class_def)
        return found


def _dropouts_off_by_default(ctx: Context, class_def: cst.ClassDef) -> set[str]:
    """When every mode layer of the class is a dropout whose rate is a constructor parameter defaulting to 0
    (`nn.Dropout(dropout)`, `F.dropout(x, self.p)` with `self.p = p`), or a block's `dropout=` argument that hands
    on such a rate (`FeedForward(dim, dropout=ff_dropout)` with `ff_dropout=0.`), the names of those parameters;
    else empty."""
    init = next((node for node in ctx.walk(class_def) if type(node) is cst.FunctionDef
                 and node.name.value == "__init__"), None)
    if init is None:
        return set()
    zero_defaults = {param.name.value for param in init.params.params
                     if param.default is not None and is_zero_literal(param.default)}
    rates: set[str] = set()
    for node in ctx.walk(class_def):
        if type(node) is cst.Arg and node.keyword is not None and node.keyword.value.startswith(_MODE_LAYERS):
            rate = node.value.value if type(node.value) is cst.Name else None
        elif type(node) is cst.Call and (last_name(node.func) or "").startswith(_MODE_LAYERS):
            rate = dropout_rate(node)
        else:
            continue
        if rate is None or rate not in zero_defaults:
            return set()
        rates.add(rate)
    return rates


def _passes(construction: cst.Call, class_def: cst.ClassDef, name: str) -> bool:
    """The construction may pass `name`: by keyword, by position, or through `*args`/`**kwargs`."""
    init = next(node for node in class_def.body.body if type(node) is cst.FunctionDef and node.name.value == "__init__")
    positional = [param.name.value for param in init.params.params][1:]
    index = positional.index(name) if name in positional else len(construction.args) + 1
    return any(arg.star or arg.keyword is not None and arg.keyword.value == name for arg in construction.args) \
        or sum(arg.keyword is None for arg in construction.args) > index


def _torch_object_has_mode_layers(built: TorchObject) -> bool:
    """A torchvision network of a family with batch norm or dropout, or an `nn.Sequential(...)` naming one, as a
    function of the project built it."""
    if built.qualname.startswith("torchvision.models."):
        return built.qualname.rsplit(".", 1)[-1].startswith(_TORCHVISION_FAMILIES)
    if built.qualname in ("torch.nn.Sequential", "torch.nn.ModuleList") and built.call is not None \
            and built.site is not None:
        return _mentions_mode_layer(built.site.evaluator.ctx, built.call)
    return False


def _holds_mode_layers(value: object, depth: int = 0) -> bool:
    """`value` (the objects floor's) is, or holds among its attributes or layers, a batch norm, or a dropout whose
    rate the code states is not 0 (`nn.Dropout()`, `nn.Dropout(0.3)`): the layers `make_layers(cfg,
    batch_norm=True)` filled an `nn.Sequential(*layers)` with, handed to the model's constructor."""
    if depth > 4:
        return False
    if isinstance(value, TorchObject):
        name = value.qualname.rsplit(".", 1)[-1]
        if value.qualname.startswith("torch.nn.") and name.startswith("BatchNorm"):
            return True
        if value.qualname.startswith("torch.nn.") and name.startswith("Dropout") and value.call is not None:
            rate = [arg.value for arg in value.call.args if arg.keyword is None or arg.keyword.value == "p"]
            return not rate or type(rate[0]) in (cst.Integer, cst.Float) and not is_zero_literal(rate[0])
        held = value.items
    elif isinstance(value, Instance) and not value.tainted:
        held = value.items
        if any(_holds_mode_layers(attribute, depth + 1) for attribute in value.attrs.values()):
            return True
    else:
        return False
    layers = held.items if isinstance(held, Seq) else [layer for _, layer in held.items] if held is not None else []
    return any(_holds_mode_layers(layer, depth + 1) for layer in layers)


def _mentions_mode_layer(ctx: Context, node: cst.CSTNode) -> bool:
    """The class (or expression) names a dropout or batch-norm layer, other than one built and run on the spot
    (`nn.Dropout(d)(x)` in `forward`: a fresh module, in train mode whatever `eval()` did)."""
    fresh: set[int] = set()
    for inner in ctx.walk(node):
        if type(inner) is cst.Call and type(inner.func) is cst.Call:  # type: ignore[attr-defined]
            built = inner.func.func  # type: ignore[attr-defined]
            fresh |= {id(built), id(built.attr)} if type(built) is cst.Attribute else {id(built)}
    return any(id(inner) not in fresh and (type(inner) is cst.Name and inner.value.startswith(_MODE_LAYERS)
               or type(inner) is cst.Attribute and inner.attr.value.startswith(_MODE_LAYERS))
               for inner in ctx.walk(node))


def predicted_with(ctx: Context, function: cst.FunctionDef) -> set[str]:
    """The parameters of an evaluation helper (no backward pass) that it calls in a loop under `no_grad` /
    `inference_mode`, using what they return: `with torch.no_grad(): for x, y in loader: out = model(x)`."""
    if any(type(node) is cst.Call and last_name(node.func) == "backward" for node in walk(function)):
        return set()
    params = {param.name.value for param in (*function.params.posonly_params, *function.params.params)}
    discarded = {id(node.value) for node in walk(function) if type(node) is cst.Expr}
    disabled = [node.body for node in walk(function) if type(node) is cst.With and any(
        type(item.item) is cst.Call and ctx.qualname(item.item.func) in _NO_GRAD for item in node.items)]
    if any(type(decorator.decorator) is cst.Call and ctx.qualname(decorator.decorator.func) in _NO_GRAD
           for decorator in function.decorators):
        disabled.append(function.body)
    return {node.func.value for block in disabled for loop in walk(block) if type(loop) in (cst.For, cst.While)
            for node in walk(loop.body) if type(node) is cst.Call and type(node.func) is cst.Name
            and node.func.value in params and id(node) not in discarded}


_NO_GRAD = frozenset({"torch.no_grad", "torch.inference_mode"})


# What a script may do to a new object's model before predicting with it, leaving its mode as built.
_KEEPS_MODE = frozenset({"load_state_dict", "to", "cuda", "cpu", "float", "half", "double", "state_dict"})


def methods_run_before(ctx: Context, scope: cst.CSTNode, start: cst.CSTNode, end: cst.Call, name: str
                       ) -> set[str] | None:
    """The methods called on the object `name` in `scope` after the statement `start` binds it and before `end`
    (`name.fit(2)`); None when anything else reads it there (handed to a function, an attribute set, its model
    switched or trained: `name.model.eval()`), or when the two are not in that order."""
    started = False
    methods: set[str] = set()
    roots = {id(node) for node in ctx.walk(start)}  # the binding itself
    for node in ctx.walk(scope):
        if node is start:
            started = True
        elif node is end:
            return methods if started else None
        elif not started:
            continue
        elif type(node) is cst.Call and type(node.func) is cst.Attribute:
            chain = node.func.value
            if type(chain) is cst.Name and chain.value == name:
                methods.add(node.func.attr.value)
                roots.add(id(chain))
            elif type(chain) is cst.Attribute and type(chain.value) is cst.Name and chain.value.value == name \
                    and node.func.attr.value in _KEEPS_MODE:
                roots.add(id(chain.value))
        elif type(node) is cst.Name and node.value == name and id(node) not in roots:
            return None
    return None
