"""What calling a module gives: the hook the evaluator asks when a call's callee is not a torch function
(`self.fc(x)`, `model(x)`, `self.blocks(x)`).

`call_result(ev, call, inputs)` returns the Shape (or, for modules that return tuples, an `Items`) of the call's
result, given the shapes of its positional arguments (None where unknown); None when the callee isn't understood.
`call_conflict(ev, call, inputs)` returns a Conflict when the module certainly rejects its input's shape.
`construction_conflict(ev, call)` returns one for an `nn.Sequential(...)` whose layers cannot follow each other
whatever its input (`nn.Linear(784, 128), nn.ReLU(), nn.Linear(256, 10)`).

Modules are found through bindings: `self.fc = nn.Linear(d, 1)` in `__init__` (only when the class assigns
`self.fc` once: a head that `reset_classifier` swaps is not known), `fc = nn.Linear(...)` at module or function
level, written inline, or in an `nn.Sequential` (positional or an `OrderedDict`). A model class of the same file
(`model = Net()`, `self.block = Block(config)`) is run through its own `forward` (`shapecheck.shapes.runs`).
Sizes in a constructor's arguments are read with the evaluator as of the binding, so `nn.Linear(d_in, d_h)` and
`nn.Linear(d_h, d_out)` meet while `nn.Linear(128, 64)` and `nn.Linear(32, 10)` don't.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from typing import TYPE_CHECKING

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, is_self_attribute
from shapecheck.engine.walker import walk
from shapecheck.objects.classes import class_facts
from shapecheck.objects.evaluator import ContainerForward
from shapecheck.objects.values import UNKNOWN, FunctionValue, Instance, Mapping, Seq, Site, TorchObject
from shapecheck.shapes import einops, last_batch, nn_modules, packing, runs
from shapecheck.shapes.values import Conflict, Items, Packed
from shapecheck.shapes.args import Args, Hidden
from shapecheck.shapes.container_use import only_held
from shapecheck.shapes.nn_modules import Applied, Layer, Mismatch
from shapecheck.shapes.nn_modules import UNKNOWN as UNAPPLIED
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.spelling import Spelled, spelled

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# torch modules whose output may be a transposed view of fresh memory (batch_first RNNs, attention).
RETURNS_VIEWS = frozenset(f"torch.nn.{name}" for name in (
    "LSTM", "GRU", "RNN", "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
    "TransformerDecoderLayer", "TransformerDecoder", "Transformer"))
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(unsafe_hash=True)
class Sequential(Layer):
    """`nn.Sequential(...)`: its layers applied in turn. `layers` pairs each constructor call with what it builds
    (None: a module the analysis doesn't know, whose output is some tensor)."""

    layers: tuple[tuple[cst.BaseExpression | None, Layer | None], ...]
    spelled: str | Spelled = ""

    def apply(self, inputs):
        return self.run(inputs)[0]

    def run(self, inputs: tuple[Shape | None, ...]) -> tuple[Applied, int | None]:
        """The chain's result and, on a mismatch, the position of the layer that rejects its input."""
        x: Shape | Items | None = _tensor(inputs[0] if inputs else None)
        for index, (_, layer) in enumerate(self.layers):
            # a tuple (an RNN's `(output, h_n)`) goes on only to a module of the project, whose forward unpacks it
            if x is None or isinstance(x, Items) and layer is not None and not isinstance(layer, runs.Model):
                return UNAPPLIED, None
            if layer is None:
                x = Shape.unknown_rank(layout_known=False)
                continue
            applied = layer.apply((x,))
            if applied.mismatch is not None:
                mismatch = applied.mismatch
                return Applied(None, Mismatch(mismatch.has, mismatch.expects, layer.spelled, mismatch.detail,
                                                      mismatch.path)), index
            value = applied.value
            x = value if isinstance(value, (Shape, Items)) else None if value is not None else \
                Shape.unknown_rank(layout_known=False)
        return Applied(x), None


# --------------------------------------------------------------------------------------------- which module


def module_of(ev: ShapeEvaluator, callee: cst.BaseExpression, before: int | None = None) -> Layer | None:
    """The module a callee holds: a torch.nn layer, a Sequential, or a model of the project."""
    if type(callee) not in (cst.Name, cst.Attribute, cst.Call, cst.Subscript):
        return None
    before = ev.now() if before is None else before
    value = ev.object(callee, before)
    layer = layer_of(ev, value)
    if isinstance(layer, Sequential) and before >= 0 and _mutated(ev, callee):
        return None  # layers appended, inserted or replaced after it was built
    return layer


def layer_of(ev: ShapeEvaluator, value: object) -> Layer | None:
    """The layer an object is, once per object: a torch.nn layer, a Sequential of known layers, a model; the
    layers of an `nn.Sequential` subclass that `super().forward` runs."""
    if isinstance(value, ContainerForward):
        return _subclass_layers(ev, value.instance)
    if not isinstance(value, (TorchObject, Instance)):
        return None
    key = ("layer", id(value))
    memo = ev._memo
    if key not in memo:
        memo[key] = None  # a model that (through its forward) calls itself gives up
        memo[key] = _layer_of(ev, value)
    return memo[key]  # type: ignore[return-value]


def model_of(ev: ShapeEvaluator, value: object) -> runs.Model | None:
    """The project model an object is (an instance of a class with its own `forward`), else None."""
    found = layer_of(ev, value) if isinstance(value, Instance) else None
    return found if isinstance(found, runs.Model) else None


def _layer_of(ev: ShapeEvaluator, value: TorchObject | Instance) -> Layer | None:
    if isinstance(value, Instance):
        if any(base in SEQUENTIAL for base in value.bases) and not _defines_forward(ev, value):
            return _subclass_layers(ev, value)
        return runs.model(ev, value)
    if value.call is None or value.site is None:
        return None  # an object known only by its class (an annotated parameter): its sizes are not
    if value.qualname in SEQUENTIAL:
        return _sequential(ev, value.items, (dotted_name(value.call.func) or ev.ctx.code(value.call.func)) + "(...)")
    site = value.site
    if value.qualname in einops.LAYERS:
        return einops.layer(value.qualname, value.call, lambda expr: site.read("value", expr),
                            lambda expr: site.read("size", expr), Spelled(site.evaluator.ctx, value.call))
    name = nn_modules.layer_name(value.qualname)
    if name is None:
        return None
    return nn_modules.read(name, value.call, lambda expr: site.read("size", expr),
                           Spelled(site.evaluator.ctx, value.call), lambda expr: layer_of(ev, site.read("value", expr)),
                           lambda expr: site.read("value", expr))


def _defines_forward(ev: ShapeEvaluator, value: Instance) -> bool:
    """An `nn.Sequential` subclass with a `forward` of its own (a Lua port's `ConcatTable` that runs each layer on
    the input) runs that, not the chain."""
    return any(class_facts(cls.ctx, cls.node).methods.get("forward") is not None for cls in ev.calls.mro(value.cls))


def kept_argument(value: TorchObject, attribute: str) -> object:
    """`self.outc.out_channels` of an `nn.Conv2d(base, n_classes, 1)`: the value of the argument the layer keeps
    under that name; UNKNOWN when the constructor does not write it out."""
    name = nn_modules.layer_name(value.qualname)
    if name is None or value.call is None or value.site is None:
        return UNKNOWN
    expr = nn_modules.kept_argument(name, value.call, attribute)
    return value.site.read("value", expr) if expr is not None else UNKNOWN


def parameter_of(ev: ShapeEvaluator, value: object, attribute: str) -> Shape | None:
    """A parameter of a torch.nn layer the code builds (`self.query_embed.weight` of an `nn.Embedding(n, d)` is
    (n, d)), when its constructor states the sizes."""
    if not isinstance(value, TorchObject) or value.call is None or value.site is None:
        return None
    name = nn_modules.layer_name(value.qualname)
    site = value.site
    dims = nn_modules.parameter(name, value.call, lambda expr: site.read("size", expr),
                                lambda expr: site.read("value", expr), attribute) if name is not None else None
    return Shape(dims, layout=tuple(range(len(dims))), dtype="float") if dims is not None else None


def _subclass_layers(ev: ShapeEvaluator, instance: Instance) -> Sequential | None:
    """The layers an `nn.Sequential` subclass runs: those handed to `super().__init__` or added by name, and also
    any module it sets as an attribute (`self.proj = nn.Linear(...)` joins the run, after them): with one of
    those, or an attribute that may be one, not known."""
    named = {key for key, _ in instance.items.items} if isinstance(instance.items, Mapping) else set()
    if any((value is UNKNOWN or _is_module(value)) and name not in named for name, value in instance.attrs.items()):
        return None
    return _sequential(ev, instance.items, instance.cls.name + "(...)")


def _is_module(value: object) -> bool:
    return isinstance(value, TorchObject) and value.qualname.startswith("torch.nn.") \
        or isinstance(value, Instance) and any(base.startswith("torch.nn.") for base in value.bases)


def _sequential(ev: ShapeEvaluator, items: Seq | Mapping | None, title: str) -> Sequential | None:
    if items is None or not items.complete:
        return None
    values = [v for _, v in items.items] if isinstance(items, Mapping) else list(items.items)
    layers = []
    for item in values:
        node = item.call if isinstance(item, TorchObject) else item.call if isinstance(item, Instance) else None
        layers.append((node, layer_of(ev, item)))
    return Sequential(tuple(layers), title)


MUTATORS = frozenset({"append", "extend", "insert", "add_module", "register_module", "pop", "__setitem__",
                      "__delitem__"})


def _mutated(ev: ShapeEvaluator, callee: cst.BaseExpression) -> bool:
    """The class (for `self.x`) or function the callee lives in changes the container's layers somewhere:
    `x.append(...)`, `x.add_module(...)`, `x[i] = ...`, `del x[i]`."""
    root = ev.ctx.class_def if is_self_attribute(callee) else ev.ctx._frame.node
    if root is None:
        return True
    containers = ev.mutated.get(id(root))
    if containers is None:
        ctx = ev.ctx
        found = ctx.module_fact("mutated containers", _mutated_in) if root is ctx.module else _mutated_in(root)
        containers = ev.mutated[id(root)] = found
    return dotted_name(callee) in containers


def _mutated_in(root: cst.CSTNode) -> frozenset[str]:
    """The dotted names of the containers `root`'s code changes the layers of."""
    names: set[str] = set()
    for node in walk(root):
        kind = type(node)
        if kind is cst.Call and type(node.func) is cst.Attribute:
            if node.func.attr.value in MUTATORS:
                names.add(dotted_name(node.func.value) or "")
        elif kind is cst.AssignTarget or kind is cst.AugAssign or kind is cst.Del:
            if type(node.target) is cst.Subscript:
                names.add(dotted_name(node.target.value) or "")
    return frozenset(names)


# ---------------------------------------------------------------------------------------------- the hooks


def _tensor(shape: Shape | None) -> Shape:
    """What a layer's input is when it returns at all: a tensor, of unknown shape when the analysis has none."""
    return shape if shape is not None else Shape.unknown_rank(layout_known=False)


def _with_parameters(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...], layer: Layer,
                     before: int) -> tuple:
    """The input, then the arguments the layer's forward takes after it that it reads (`hx`), by position or
    keyword: a tensor, a tuple of tensors (Items), or None where unknown; a flag as True, False or None."""
    if not layer.parameters:
        return inputs
    try:
        args = Args(call)
    except Hidden:
        return inputs[:1]
    found = []
    flags = dict(layer.flags)
    for index, name in enumerate(layer.parameters, 1):
        expr = args.get(index, name)
        if name in flags:
            found.append(nn_modules.flag(expr, flags[name], lambda e: ev.value(e, before)))
            continue
        value = ev.tensor(expr, before) if expr is not None else None
        found.append(value if value is not None or expr is None else ev.items_of(expr, before))
    return (inputs[0], *found)


def _applied(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...], layer: Layer,
             before: int) -> Applied:
    if not isinstance(layer, runs.Model):
        return layer.apply(_with_parameters(ev, call, inputs, layer, before))
    positional, keywords = runs.positional_of(ev, call, before), runs.keywords_of(ev, call, before)
    applied = runs.run(layer, positional, keywords)
    if applied.mismatch is not None:
        return applied
    sizes = last_batch.short_sizes((*positional, *(keywords or {}).values()))
    if not sizes or not last_batch.on_every_pass(ev, call, before, sizes):
        return applied
    short = runs.run(layer, tuple(last_batch.on_last_batch(value, sizes) for value in positional),
                     None if keywords is None else
                     {name: last_batch.on_last_batch(value, sizes) for name, value in keywords.items()})
    if short.mismatch is None:
        return applied
    rows = ", ".join(sorted({str(size) for size in sizes.values()}))
    return Applied(applied.value, replace(short.mismatch, when=f"on the last batch, of {rows} rows, "))


def _by_keyword(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...], layer: Layer,
                before: int) -> tuple[Shape | None, ...]:
    """The inputs of a torch layer, its input passed by keyword (`attn(query=x, key=x, value=x)`) first."""
    if isinstance(layer, runs.Model) or not call.args or call.args[0].keyword is None:
        return inputs
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == layer.input_name:
            return (ev.tensor(arg.value, before),)
    return inputs


def call_result(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...], before: int):
    layer = module_of(ev, call.func, before)
    if layer is None or not inputs:
        return None
    inputs = _by_keyword(ev, call, inputs, layer, before)
    sequence = _packed_input(ev, call, inputs, layer, before)
    if sequence is not None:
        given = _with_parameters(ev, call, inputs, layer, before)
        return packing.through_recurrent(layer, sequence, given[1] if len(given) > 1 else None).value
    if not isinstance(layer, runs.Model):  # a model's forward may take anything; a torch layer takes tensors
        inputs = (_tensor(inputs[0]), *inputs[1:])
    return _applied(ev, call, inputs, layer, before).value


def _packed_input(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...], layer: Layer,
                  before: int) -> Packed | None:
    """The packed batch a recurrent layer is given positionally (`self.rnn(packed)`), if that is what it holds."""
    if not isinstance(layer, nn_modules.Recurrent) or inputs[0] is not None or not call.args \
            or call.args[0].keyword is not None or call.args[0].star:
        return None
    found = ev.object(call.args[0].value, before)
    return found if isinstance(found, Packed) else None


def call_conflict(ev: ShapeEvaluator, call: cst.Call, inputs: tuple[Shape | None, ...],
                  before: int) -> Conflict | None:
    layer = module_of(ev, call.func, before)
    if layer is None or not inputs:
        return None
    inputs = _by_keyword(ev, call, inputs, layer, before)
    mismatch = _applied(ev, call, inputs, layer, before).mismatch
    if mismatch is None:
        return None
    if not isinstance(layer, runs.Model) and _rejects_anything(layer) and _shown_where_built(ev, call.func, before):
        return None  # it doesn't depend on the input: reported where the module is built
    callee = ev.ctx.code(call.func)
    argument = call.args[0].value
    named = ev.ctx.code(argument) if type(argument) in (cst.Name, cst.Attribute) else "the input"
    described = f"{named} is {inputs[0].render()}" if inputs[0] is not None else ""
    return Conflict("layer", call, tuple(shape for shape in inputs if shape is not None),
                    message(ev.ctx.code(call), described, callee, layer, mismatch), mismatch.path)


def _rejects_anything(layer: Layer) -> bool:
    return layer.apply((Shape.unknown_rank(),)).mismatch is not None


def _shown_where_built(ev: ShapeEvaluator, callee: cst.BaseExpression, before: int) -> bool:
    """Whether a module that rejects any input is reported where it is built: not when its sizes come from its
    owner's constructor arguments (`nn.BatchNorm1d(cfg.hidden)` of a model built with `Config()`), its own (an
    `nn.Sequential` subclass built with `LinearBNAct(64, 32)`) or a helper's (`build_mlp(8, [64, 32], 4)`), which
    the class or helper read on its own does not know."""
    value = ev.object(callee, before)
    if isinstance(value, Instance) and not value.generic:
        built = layer_of(ev, ev.generic_instance(value.cls))
        return built is not None and _rejects_anything(built)
    if type(callee) is not cst.Attribute:
        if isinstance(value, TorchObject) and value.site is not None and value.site.before < 0:
            return _shown_in_helper(value.site)
        return True
    owner = ev.object(callee.value, before)
    if not isinstance(owner, Instance) or owner.generic:
        return True
    generic = ev.generic_instance(owner.cls)
    built = layer_of(ev, generic.attrs.get(callee.attr.value)) if isinstance(generic, Instance) else None
    return built is not None and _rejects_anything(built)


def _shown_in_helper(site: Site) -> bool:
    """For a module a helper built in a call being run (`build_mlp(8, [64, 32], 4)`, its layers from the list it
    was given): whether the helper run on its own signature, as the construction check inside it sees it, builds
    one that rejects any input too."""
    evaluator = site.evaluator
    frame, _ = evaluator.frame_at(site.before)  # type: ignore[attr-defined]
    if type(frame.function) is not cst.FunctionDef or frame.owner is not None or frame.parent is not None:
        return True
    helper = FunctionValue(frame.function, evaluator.ctx)
    built = layer_of(evaluator, evaluator.calls.run(helper, evaluator.calls.generic_arguments(helper)).value)
    return built is not None and _rejects_anything(built)


def construction_conflict(ev: ShapeEvaluator, call: cst.Call) -> Conflict | None:
    """An `nn.Sequential(...)` whose layers can't follow each other, whatever its input: the conflict is at the
    layer that rejects what the one before it gives."""
    if ev.ctx.qualname(call.func) in SEQUENTIAL:
        sequential = layer_of(ev, ev.object(call, ev.now()))
        # layers a loop gathered (`layers += [nn.Linear(prev, h), ...]`): as a run of the function has them
        for version in ev.certain_runs(call) if sequential is None else ():
            sequential = layer_of(ev, ev.object(call, version))
            if sequential is not None:
                break
    elif _builds_sequential_subclass(ev, call):  # `super().__init__(nn.Linear(...), ...)`: the same chain
        sequential = _sequential(ev, ev.container_items(call, ev.now()), ev.ctx.class_def.name.value + "(...)")
    else:
        return None
    if not isinstance(sequential, Sequential):
        return None
    applied, index = sequential.run((Shape.unknown_rank(),))
    node = sequential.layers[index][0] if index is not None else None
    if applied.mismatch is None or node is None or only_held(ev.ctx, call):
        return None
    assert index is not None
    written = _as_written(call, sequential)
    before = _previous_layer(ev, sequential, index, written)
    at = written[index] if written is not None else node
    has = applied.mismatch.has
    text = f"`{spelled(ev.ctx, at)}` expects {applied.mismatch.expects}, but the layers before it give {has}"
    if before is not None:
        text += f" (`{before}`)"
    return Conflict("layer", at, (), text)


def _builds_sequential_subclass(ev: ShapeEvaluator, call: cst.Call) -> bool:
    """Whether a call is `super().__init__(...)` in a class that subclasses `nn.Sequential`."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "__init__" or type(func.value) is not cst.Call \
            or dotted_name(func.value.func) != "super":
        return False
    class_def = ev.ctx.class_def
    return class_def is not None and any(ev.ctx.qualname(base.value) in SEQUENTIAL for base in class_def.bases) \
        and "forward" not in class_facts(ev.ctx, class_def).methods


def _as_written(call: cst.Call, sequential: Sequential) -> list[cst.BaseExpression] | None:
    """The arguments of `nn.Sequential(...)` that gave its layers, one each (`conv_dw(128, 128, 2)`, whose layer a
    helper built elsewhere); None when a starred or `OrderedDict` argument hides which is which."""
    args = call.args
    if len(args) != len(sequential.layers) or any(arg.star or arg.keyword is not None for arg in args):
        return None
    return [arg.value for arg in args]


def _previous_layer(ev: ShapeEvaluator, sequential: Sequential, index: int,
                    written: list[cst.BaseExpression] | None) -> str | None:
    """The nearest layer before the one at `index` that decides the size it rejects (shape-keeping layers
    skipped), as the `nn.Sequential(...)` call writes it where it can."""
    for position in range(index - 1, -1, -1):
        layer = sequential.layers[position][1]
        if layer is None:
            return None
        if not isinstance(layer, nn_modules.SameShape):
            return spelled(ev.ctx, written[position]) if written is not None else str(layer.spelled)
    return None


def message(code: str, described: str, callee: str, layer: Layer, mismatch: Mismatch) -> str:
    """"`self.fc2(h)`: h is (B, 64): 64 features (last dim), but `self.fc2` = nn.Linear(32, 10) expects 32"."""
    subject = f"{described}: " if described else ""
    if mismatch.detail:
        return f"`{code}`: {subject}{mismatch.when}then in {mismatch.detail}"
    if mismatch.inner:
        where = f"in `{callee}` = {layer.spelled}, `{mismatch.inner}` expects {mismatch.expects}"
    else:
        where = f"`{callee}` = {layer.spelled} expects {mismatch.expects}"
    return f"`{code}`: {subject}{mismatch.has}, but {where}"


def returns_views(value: object) -> bool:
    """The module may return a transposed view of its output (batch_first RNNs, attention): its layout is unknown."""
    return isinstance(value, TorchObject) and value.qualname in RETURNS_VIEWS

