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
(`model = Net()`, `self.block = Block(config)`) is run through its own `forward` (`shapecheck.shapes.forward`).
Sizes in a constructor's arguments are read with the evaluator as of the binding, so `nn.Linear(d_in, d_h)` and
`nn.Linear(d_h, d_out)` meet while `nn.Linear(128, 64)` and `nn.Linear(32, 10)` don't.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from typing import TYPE_CHECKING

from shapecheck.engine.context import Binding
from shapecheck.engine.syntax import dotted_name
from shapecheck.shapes import nn_modules
from shapecheck.shapes.values import Conflict
from shapecheck.shapes.nn_modules import UNKNOWN, Applied, Layer, Mismatch
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import Evaluator

# torch modules whose output may be a transposed view of fresh memory (batch_first RNNs, attention).
RETURNS_VIEWS = frozenset(f"torch.nn.{name}" for name in ("LSTM", "GRU", "RNN", "MultiheadAttention"))
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
ORDERED_DICT = frozenset({"collections.OrderedDict", "typing.OrderedDict"})
MAX_SPELLED = 80


@dataclass(frozen=True)
class Sequential(Layer):
    """`nn.Sequential(...)`: its layers applied in turn. `layers` pairs each constructor call with what it builds
    (None: a module the analysis doesn't know, whose output is some tensor)."""

    layers: tuple[tuple[cst.BaseExpression, Layer | None], ...]
    spelled: str = ""

    def apply(self, inputs):
        return self.run(inputs)[0]

    def run(self, inputs: tuple[Shape | None, ...]) -> tuple[Applied, cst.BaseExpression | None]:
        """The chain's result and, on a mismatch, the constructor of the layer that rejects its input."""
        x = _tensor(inputs[0] if inputs else None)
        for node, layer in self.layers:
            if x is None:
                return UNKNOWN, None
            if layer is None:
                x = Shape.unknown_rank(layout_known=False)
                continue
            applied = layer.apply((x,))
            if applied.mismatch is not None:
                mismatch = applied.mismatch
                return Applied(None, Mismatch(mismatch.has, mismatch.expects, layer.spelled, mismatch.detail)), node
            value = applied.value
            x = value if isinstance(value, Shape) else None if value is not None else \
                Shape.unknown_rank(layout_known=False)
        return Applied(x), None


def spelled(ev: Evaluator, node: cst.CSTNode) -> str:
    """A constructor call as the code writes it, on one line and short enough for a message."""
    text = " ".join(ev.ctx.code(node).split())
    text = text.replace("( ", "(").replace(" )", ")").replace(", )", ")")
    return text if len(text) <= MAX_SPELLED else text[:MAX_SPELLED - 4] + " ...)"


# --------------------------------------------------------------------------------------------- which module


def module_of(ev: Evaluator, callee: cst.BaseExpression) -> Layer | None:
    """The module a callee holds: a torch.nn layer, a Sequential, or a model class of this file."""
    found = _constructor(ev, callee)
    if found is None:
        return None
    constructor, binding = found
    layer = build(ev, constructor, binding)
    if isinstance(layer, Sequential) and binding is not None and _mutated(ev, callee):
        return None  # layers appended, inserted or replaced after it was built
    return layer


MUTATORS = frozenset({"append", "extend", "insert", "add_module", "register_module", "pop", "__setitem__",
                      "__delitem__"})


def _mutated(ev: Evaluator, callee: cst.BaseExpression) -> bool:
    """The class (for `self.x`) or function the callee lives in changes the container's layers somewhere:
    `x.append(...)`, `x.add_module(...)`, `x[i] = ...`, `del x[i]`."""
    root = ev.ctx.class_def if _is_self_attribute(callee) else ev.ctx._frame.node
    if root is None:
        return True
    containers = ev.mutated.get(id(root))
    if containers is None:
        names: set[str] = set()
        for node in ev.ctx.walk(root):
            kind = type(node)
            if kind is cst.Call and type(node.func) is cst.Attribute:
                if node.func.attr.value in MUTATORS:
                    names.add(dotted_name(node.func.value) or "")
            elif kind is cst.AssignTarget or kind is cst.AugAssign or kind is cst.Del:
                if type(node.target) is cst.Subscript:
                    names.add(dotted_name(node.target.value) or "")
        containers = ev.mutated[id(root)] = frozenset(names)
    return dotted_name(callee) in containers


def build(ev: Evaluator, constructor: cst.Call, binding: Binding | None) -> Layer | None:
    """The module a constructor call builds, reading its sizes where `binding` made it (None: as of now)."""
    memo = ev._memo
    key = ("layer", id(constructor), id(binding) if binding is not None else ev.now())
    if key not in memo:
        memo[key] = None  # a constructor that (through a model's forward) reads itself gives up
        memo[key] = _build(ev, constructor, binding)
    return memo[key]  # type: ignore[return-value]


def _build(ev: Evaluator, constructor: cst.Call, binding: Binding | None) -> Layer | None:
    from shapecheck.shapes import forward

    qualname = ev.ctx.qualname(constructor.func)
    name = nn_modules.layer_name(qualname)
    if name is not None:
        return nn_modules.read(name, constructor, _size_reader(ev, binding), spelled(ev, constructor))
    if qualname in SEQUENTIAL:
        return _sequential(ev, constructor, binding)
    if qualname is None:
        return forward.model(ev, constructor, binding)
    return None


def _size_reader(ev: Evaluator, binding: Binding | None):
    if binding is None:
        return lambda expr: ev.dim_of(expr)
    return lambda expr: ev.dim_in(expr, binding)


def _constructor(ev: Evaluator, callee: cst.BaseExpression) -> tuple[cst.Call, Binding | None] | None:
    """The constructor call a callee was bound to, and the binding (None: written inline). The cheap questions
    come first: most callees are functions, not modules."""
    if type(callee) is cst.Call:
        return (callee, None) if _builds_module(ev, callee) else None
    is_name = type(callee) is cst.Name
    if not is_name and not _is_self_attribute(callee):
        return None
    binding = ev.ctx.binding(callee)
    if binding is None or binding.kind != "assign" or type(binding.value) is not cst.Call:
        return None
    constructor = _without_self_returning_calls(binding.value)
    if not _builds_module(ev, constructor):
        return None
    if binding.loop is not None and binding.loop is not ev.ctx.loop:
        return None  # bound in a loop: a different module each time round
    if is_name:
        shapes = ev
        if shapes.candidates(callee, shapes.now()) != [binding]:
            return None  # bound differently on different paths: not known for certain
    elif not _assigned_once(ev, callee.attr.value):  # type: ignore[attr-defined]
        return None
    return constructor, binding


# nn.Module methods that return the module itself: `Net().to(device)` is the `Net()` it was called on.
RETURNS_SELF = frozenset({"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval",
                          "requires_grad_", "to_empty"})


def _without_self_returning_calls(call: cst.Call) -> cst.Call:
    """`Net().to(device).eval()` -> `Net()`; any other call as it is."""
    func = call.func
    while type(func) is cst.Attribute and func.attr.value in RETURNS_SELF and type(func.value) is cst.Call:
        call = func.value
        func = call.func
    return call


def _builds_module(ev: Evaluator, call: cst.Call) -> bool:
    """A call of a torch.nn constructor or of a class of this file."""
    func = call.func
    if type(func) is cst.Name:
        binding = ev.ctx.binding(func)
        if binding is not None and binding.kind == "class":
            return True
    qualname = ev.ctx.qualname(func)
    return qualname is not None and qualname.startswith("torch.nn.")


def _is_self_attribute(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"


def _assigned_once(ev: Evaluator, attribute: str) -> bool:
    """The enclosing class assigns `self.<attribute>` in exactly one place (and never through `setattr`)."""
    class_def = ev.ctx.class_def
    if class_def is None:
        return False
    counts = _attribute_assignments(ev, class_def)
    return counts.get(attribute) == 1 and "*" not in counts


_ASSIGNMENTS: dict[int, tuple[cst.ClassDef, dict[str, int]]] = {}


def _attribute_assignments(ev: Evaluator, class_def: cst.ClassDef) -> dict[str, int]:
    """How many times each `self.x` is assigned in the class; "*" counts `setattr(self, ...)` and
    `self.__dict__` writes, which may assign anything."""
    cached = _ASSIGNMENTS.get(id(class_def))
    if cached is not None and cached[0] is class_def:
        return cached[1]
    counts: dict[str, int] = {}
    for node in ev.ctx.walk(class_def):
        kind = type(node)
        targets: list[cst.BaseExpression] = []
        if kind is cst.Assign:
            targets = [target.target for target in node.targets]  # type: ignore[attr-defined]
        elif kind in (cst.AnnAssign, cst.AugAssign):
            targets = [node.target]  # type: ignore[attr-defined]
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            if node.func.value in ("setattr", "delattr"):
                counts["*"] = 1
        elif kind is cst.Attribute and node.attr.value == "__dict__":  # type: ignore[attr-defined]
            counts["*"] = 1
        while targets:
            target = targets.pop()
            if type(target) in (cst.Tuple, cst.List):
                targets.extend(element.value for element in target.elements)  # type: ignore[attr-defined]
            elif _is_self_attribute(target):
                name = target.attr.value  # type: ignore[attr-defined]
                counts[name] = counts.get(name, 0) + 1
    if len(_ASSIGNMENTS) > 256:
        _ASSIGNMENTS.clear()
    _ASSIGNMENTS[id(class_def)] = (class_def, counts)
    return counts


def _sequential(ev: Evaluator, constructor: cst.Call, binding: Binding | None) -> Sequential | None:
    items = _sequential_items(ev, constructor)
    if items is None:
        return None
    layers = []
    for item in items:
        layer = build(ev, item, binding) if type(item) is cst.Call else None
        layers.append((item, layer))
    return Sequential(tuple(layers), ev.ctx.code(constructor.func) + "(...)")


def _sequential_items(ev: Evaluator, constructor: cst.Call) -> list[cst.BaseExpression] | None:
    """The layers of `nn.Sequential(a, b)` or `nn.Sequential(OrderedDict([("a", a), ...]))`; None when hidden
    (`*layers`, a dict built elsewhere)."""
    args = constructor.args
    if any(arg.star or arg.keyword is not None for arg in args):
        return None
    if len(args) == 1 and type(args[0].value) is cst.Call:
        inner = args[0].value
        if ev.ctx.qualname(inner.func) in ORDERED_DICT:
            if len(inner.args) != 1 or type(inner.args[0].value) not in (cst.List, cst.Tuple):
                return None
            pairs = []
            for element in inner.args[0].value.elements:  # type: ignore[attr-defined]
                pair = element.value
                if type(element) is cst.StarredElement or type(pair) is not cst.Tuple or len(pair.elements) != 2:
                    return None
                pairs.append(pair.elements[1].value)
            return pairs
    return [arg.value for arg in args]


# ---------------------------------------------------------------------------------------------- the hooks


def _tensor(shape: Shape | None) -> Shape:
    """What a layer's input is when it returns at all: a tensor, of unknown shape when the analysis has none."""
    return shape if shape is not None else Shape.unknown_rank(layout_known=False)


def call_result(ev: Evaluator, call: cst.Call, inputs: tuple[Shape | None, ...]):
    from shapecheck.shapes import forward

    layer = module_of(ev, call.func)
    if layer is None or not inputs:
        return None
    if not isinstance(layer, forward.Model):  # a model's forward may take anything; a torch layer takes tensors
        inputs = tuple(_tensor(shape) for shape in inputs)
    return layer.apply(inputs).value


def call_conflict(ev: Evaluator, call: cst.Call, inputs: tuple[Shape | None, ...]) -> Conflict | None:
    from shapecheck.shapes import forward

    layer = module_of(ev, call.func)
    if layer is None or not inputs:
        return None
    mismatch = layer.apply(inputs).mismatch
    if mismatch is None:
        return None
    if not isinstance(layer, forward.Model) and \
            layer.apply(tuple(Shape.unknown_rank() for _ in inputs)).mismatch is not None:
        return None  # it doesn't depend on the input: reported where the module is built
    callee = ev.ctx.code(call.func)
    argument = call.args[0].value
    named = ev.ctx.code(argument) if type(argument) in (cst.Name, cst.Attribute) else "the input"
    described = f"{named} is {inputs[0].render()}" if inputs[0] is not None else ""
    return Conflict("layer", call, tuple(shape for shape in inputs if shape is not None),
                    message(ev.ctx.code(call), described, callee, layer, mismatch))


def construction_conflict(ev: Evaluator, call: cst.Call) -> Conflict | None:
    """An `nn.Sequential(...)` whose layers can't follow each other, whatever its input: the conflict is at the
    layer that rejects what the one before it gives."""
    if ev.ctx.qualname(call.func) not in SEQUENTIAL:
        return None
    sequential = _sequential(ev, call, None)
    if sequential is None:
        return None
    applied, node = sequential.run((Shape.unknown_rank(),))
    if applied.mismatch is None or node is None:
        return None
    before = _previous_layer(sequential, node)
    has = applied.mismatch.has
    text = f"`{spelled(ev, node)}` expects {applied.mismatch.expects}, but the layers before it give {has}"
    if before is not None:
        text += f" (`{before}`)"
    return Conflict("layer", node, (), text)


def _previous_layer(sequential: Sequential, node: cst.BaseExpression) -> str | None:
    """The nearest layer before `node` that decides the size it rejects (shape-keeping layers skipped)."""
    previous = None
    for item, layer in sequential.layers:
        if item is node:
            return previous
        if layer is None or not isinstance(layer, nn_modules.SameShape):
            previous = layer.spelled if layer is not None else None
    return previous


def message(code: str, described: str, callee: str, layer: Layer, mismatch: Mismatch) -> str:
    """"`self.fc2(h)`: h is (B, 64): 64 features (last dim), but `self.fc2` = nn.Linear(32, 10) expects 32"."""
    subject = f"{described}: " if described else ""
    if mismatch.detail:
        return f"`{code}`: {subject}then in {mismatch.detail}"
    if mismatch.inner:
        where = f"in `{callee}` = {layer.spelled}, `{mismatch.inner}` expects {mismatch.expects}"
    else:
        where = f"`{callee}` = {layer.spelled} expects {mismatch.expects}"
    return f"`{code}`: {subject}{mismatch.has}, but {where}"


def returns_views(ev: Evaluator, constructor: cst.Call) -> bool:
    """The module may return a transposed view of its output (batch_first RNNs, attention): its layout is unknown."""
    return ev.ctx.qualname(constructor.func) in RETURNS_VIEWS

