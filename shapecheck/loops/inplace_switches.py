"""Layers a module switches to in place after building them: `for m in self.modules(): if isinstance(m, nn.ReLU):
m.inplace = True` (segmentation and detection backbones do it to save memory). The switch reaches every layer of
that kind in the module and in the modules it builds, so a `self.drop = nn.Dropout(p)` of a class another module of
the project builds and switches changes its input in place, as `nn.Dropout(p, inplace=True)` would (SC216).
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import is_true
from shapecheck.objects.callers import project_callers
from shapecheck.objects.torch_layers import dropout_off_by_default, torch_layer

# torch.nn layers whose `inplace` attribute their forward reads at each call.
IN_PLACE_CAPABLE = frozenset({
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "SiLU", "Mish", "Hardtanh", "Hardswish", "Hardsigmoid",
    "Threshold", "RReLU", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
})
_MODULE_WALKS = frozenset({"modules", "named_modules"})
# a class, the classes or factory functions that build it, and those that build them: a backbone's attention block
# is four levels below the model that switches its dropout (a Swin backbone: attention, block, stage, network, `SwinB()`)
_BUILDERS_DEPTH = 6


class InPlaceSwitches:
    """The layer kinds each class of the file switches to in place by a walk over its own `self.modules()`, made
    once a file (`ctx.analysis`)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._own: dict[int, frozenset[str]] = {}
        self._switched: dict[int, frozenset[str]] = {}

    def switched(self, class_def: cst.ClassDef) -> frozenset[str]:
        """`_switched_for` the class, with its builders, once a file."""
        found = self._switched.get(id(class_def))
        if found is None:
            found = self._switched[id(class_def)] = _switched_for(self.ctx, class_def, _BUILDERS_DEPTH, set())
        return found

    def own(self, class_def: cst.ClassDef) -> frozenset[str]:
        """The torch.nn layer names `class_def`'s methods set `inplace = True` on in a walk of `self.modules()`;
        a walk whose switch no `isinstance` test narrows switches every layer that has the flag."""
        found = self._own.get(id(class_def))
        if found is None:
            found = self._own[id(class_def)] = frozenset(
                kind for node in self.ctx.walk(class_def) if type(node) is cst.For
                for kind in _switched_by_walk(self.ctx, node))
        return found


def switched_in_place(ctx: Context, class_def: cst.ClassDef | None, constructions: list[cst.Call]) -> bool:
    """Every construction of a `self.x` of `class_def` builds a torch.nn layer with an `inplace` flag, not passed
    (`nn.Dropout(p)`), of a kind that the class itself, or a module class of the project building it (or one
    building that), switches to in place after building: calling `self.x` then changes its input."""
    if class_def is None or not constructions:
        return False
    kinds = set()
    for call in constructions:
        kind = torch_layer(ctx, call)
        if kind not in IN_PLACE_CAPABLE or any(arg.keyword is not None and arg.keyword.value == "inplace"
                                               for arg in call.args) or dropout_off_by_default(class_def, call):
            return False  # a dropout of rate 0 changes nothing, in place or not
        kinds.add(kind)
    return kinds <= ctx.analysis(InPlaceSwitches).switched(class_def)


def _switched_for(ctx: Context, definition: cst.ClassDef | cst.FunctionDef, depth: int, seen: set[int]
                  ) -> frozenset[str]:
    """The layer kinds switched to in place in what `definition` builds: a class by itself, and by the classes
    that build one in a method, directly or through a factory function (`self.backbone = swin_b()`), up to `depth`
    levels of builders."""
    seen.add(id(definition))
    switched = ctx.analysis(InPlaceSwitches).own(definition) if type(definition) is cst.ClassDef else frozenset()
    if depth == 0:
        return switched
    for caller in project_callers(ctx, definition) or ():
        function = caller.site.function
        if function is None:
            continue
        builder = caller.ctx.class_of_method(function) or function
        if id(builder) not in seen:
            switched |= _switched_for(caller.ctx, builder, depth - 1, seen)
    return switched


def _switched_by_walk(ctx: Context, loop: cst.For) -> frozenset[str]:
    """What `for m in self.modules():` (or `for name, m in self.named_modules():`) sets `m.inplace = True` on."""
    iterated = loop.iter
    if type(iterated) is not cst.Call or type(iterated.func) is not cst.Attribute \
            or iterated.func.attr.value not in _MODULE_WALKS or type(iterated.func.value) is not cst.Name \
            or iterated.func.value.value != "self":
        return frozenset()
    target = loop.target
    if type(target) is cst.Tuple and iterated.func.attr.value == "named_modules" and len(target.elements) == 2:
        target = target.elements[1].value
    if type(target) is not cst.Name:
        return frozenset()
    return _switched_in(ctx, loop.body.body, target.value, IN_PLACE_CAPABLE)


def _switched_in(ctx: Context, body: tuple[cst.BaseStatement, ...] | list, name: str,
                 kinds: frozenset[str]) -> frozenset[str]:
    """The kinds among `kinds` that `body` sets `name.inplace = True` on, through `if isinstance(name, ...)` tests
    that narrow them; any other test (or an `else`) switches nothing the analysis can name."""
    switched: frozenset[str] = frozenset()
    for statement in body:
        if type(statement) is cst.SimpleStatementLine:
            if any(_sets_inplace(small, name) for small in statement.body):
                switched |= kinds
        elif type(statement) is cst.If:
            narrowed = _isinstance_kinds(ctx, statement.test, name)
            if narrowed is not None:
                switched |= _switched_in(ctx, statement.body.body, name, kinds & narrowed)
    return switched


def _sets_inplace(small: cst.BaseSmallStatement, name: str) -> bool:
    if type(small) is not cst.Assign or len(small.targets) != 1 or not is_true(small.value):
        return False
    target = small.targets[0].target
    return type(target) is cst.Attribute and target.attr.value == "inplace" and type(target.value) is cst.Name \
        and target.value.value == name


def _isinstance_kinds(ctx: Context, test: cst.BaseExpression, name: str) -> frozenset[str] | None:
    """The torch.nn layer names an `isinstance(name, nn.ReLU)` test admits (a tuple of classes, or tests joined
    by `or`); None for any other test."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.Or:
        left, right = _isinstance_kinds(ctx, test.left, name), _isinstance_kinds(ctx, test.right, name)
        return None if left is None or right is None else left | right
    if type(test) is not cst.Call or type(test.func) is not cst.Name or test.func.value != "isinstance" \
            or len(test.args) != 2 or type(test.args[0].value) is not cst.Name or test.args[0].value.value != name:
        return None
    classes = test.args[1].value
    spelled = [element.value for element in classes.elements] if type(classes) is cst.Tuple else [classes]
    kinds = set()
    for expr in spelled:
        qualname = ctx.qualname(expr) or ""
        if not qualname.startswith("torch.nn.") or qualname.startswith("torch.nn.functional."):
            return None  # a class of the project or another library: what it admits is not known here
        kinds.add(qualname.rsplit(".", 1)[-1])
    return frozenset(kinds)
