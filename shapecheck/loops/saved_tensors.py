"""Tensors autograd saved for backward and the in-place ops that change one before the backward pass reads it
(SC216): which ops save their input or their output (`loops.autograd_saves`), which local values take part in
autograd, and a flow of each body, statement by statement, that follows both to a backward pass, a model's output, or
a helper's result that a caller sends into one. `SavedTensors.spoiled` finds them in a file; the rule words them.

Modules "handed" a graph tensor are read across the file and the project's modules that import it (`handed_graph`):
SSD's L2Norm divides its input in place, and only the model that calls it on a convolution's output tells that the
input is in the graph.

The flow of a body (`_Flow`) is not the engine's `engine.flow`: that one answers which binding of a name may reach a
read, from the paths the traversal holds, and carries nothing from one statement to the next. SC216 carries state
along the body (which names hold graph tensors, which saved ones, which were changed in place), reads a loop body
twice (what one iteration saves, the next may change), skips the blocks autograd is off in and takes the branch of
an `if self.training:` that training runs: an interpretation of the body that `engine.flow` does not do."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import field
from pathlib import Path

import libcst as cst

from shapecheck.engine.context import CallSite, Context, Point
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk
from shapecheck.loops.autograd_saves import (
    DETACHING, IN_PLACE_FUNCTIONS, IN_PLACE_METHODS, MULTI_VIEW, MULTI_VIEW_METHODS, NOT_DIFFERENTIABLE, PRODUCT_METHODS, PRODUCTS, SAVES_INPUT_LAYERS,
    SAVES_OUTPUT, SAVES_OUTPUT_LAYERS, SAVES_OUTPUT_METHODS,
)
from shapecheck.loops.inplace_switches import switched_in_place
from shapecheck.loops.surroundings import lightning_class
from shapecheck.objects.arguments import passed_argument, receiving_parameter
from shapecheck.objects.callers import Caller, helper_callers, imported_callers, method_callers
from shapecheck.objects.executor import target_names
from shapecheck.objects.modules import is_module
from shapecheck.objects.project import PROJECT, importers_through_packages, resolved, split_relative
from shapecheck.objects.stored import attribute_path, constructor_arguments, stored_root
from shapecheck.objects.torch_layers import WEIGHTED, torch_layer
from shapecheck.objects.values import ClassValue, Instance, Seq, TorchObject
from shapecheck.shapes.activations import instance_class, is_torch_module_class
from shapecheck.shapes.evaluator import evaluator

TRAINING_LOOP = "shapecheck.loops.training_loop"  # read through `sys.modules`: see `_runs_backward`
# Builtins whose result holds the tensors they are given.
_CARRIERS = frozenset({"map", "list", "tuple"})
_GRAD_OFF = frozenset({"torch.no_grad", "torch.inference_mode", "torch.set_grad_enabled"})


@record
class _Saved:
    """A local tensor autograd saved: the op that saved it, and the names whose value leads a backward pass to
    that op (the op's output for an output it saved, the consumer's result for an input it saved)."""

    op: cst.CSTNode
    output: bool  # the op saved its output (`exp`), not its input (`mul`)
    witnesses: set[str]
    # `op` returned several views of a tensor in the graph (`gates.chunk(3, 1)`): autograd refuses an in-place op on
    # any of them, saved or not
    views: bool = False


@record
class Spoiled:
    """An in-place op on a saved tensor, waiting for a backward pass (or a model's output) through the op."""

    node: cst.CSTNode
    name: str
    saved: _Saved
    witnesses: set[str] = field(default_factory=set)


class SavedTensors:
    """The saved-tensor analysis of one file (`ctx.analysis(SavedTensors)`), read in a rule's `finish`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def spoiled(self, mutating: Iterable[cst.FunctionDef | None], code: str, report: Callable[[Spoiled], None]
                ) -> None:
        """`report` each in-place op on a saved tensor that a backward pass (or a model's output) reads after it,
        once, reading the bodies (None: the module level) with an in-place op, then those that call a function whose
        result leads back to one. `code`, the rule's, names the parts of the work the editor server keeps."""
        spoils = _Spoils()
        mutating = dict.fromkeys(mutating)
        for function in mutating:  # first the functions, whose results callers may send into backward
            if function is not None:
                self._flow(function, spoils, "mutating", code, report)
        later = {site.function for name in spoils.returning for site in self.ctx.calls_to(name)}
        if None in mutating:
            later.add(None)
        for function in later:
            self._flow(function, spoils, "later", code, report)
        for name in list(spoils.returning):  # and the callers in the modules importing a helper (`train.py`)
            for function in self.ctx.functions.get(name, []):
                for other, caller in {(id(c.site.function), id(c.ctx)): (c.ctx, c.site.function)
                                      for c in self.importer_calls(function)}.values():
                    flow = _Flow(other.analysis(SavedTensors), caller, spoils, report)
                    flow.run(caller.body.body if caller is not None else
                             [s for s in other.module.body if type(s) not in (cst.FunctionDef, cst.ClassDef)])

    def importer_calls(self, function: cst.FunctionDef) -> list[Caller]:
        """The calls of a module-level function of the file in the project's modules importing it, found once."""
        answers = self.ctx.analysis(_ImporterCalls).answers
        if id(function) not in answers:
            module_level = self.ctx.class_of_method(function) is None and function in self.ctx.module.body
            answers[id(function)] = (imported_callers(self.ctx, function.name.value) or []) if module_level else []
        return answers[id(function)]

    def _flow(self, function: cst.FunctionDef | None, spoils: _Spoils, turn: str, code: str,
              report: Callable[[Spoiled], None]) -> None:
        """The flow of one body (None: the module-level code, the longest of a script). Outside a class it is a
        part of `finish` that the editor server keeps between edits (`Context.finish_part`) while the body, what the
        file's calls say of its parameters, whether it trains, and what the flows before it found (the helpers
        returning a spoiled graph, the ops reported) are the same."""
        flow = _Flow(self, function, spoils, report)
        if flow.class_def is not None:  # a method's flow reads the constructions of its class (`_handed_model`)
            flow.run(function.body.body)  # type: ignore[union-attr]
            return
        body = function.body.body if function is not None else \
            tuple(s for s in self.ctx.module.body if type(s) not in (cst.FunctionDef, cst.ClassDef))
        # Only the nodes of `body` or of `returning` may be reported here: the ids of `reported` that matter are of
        # nodes `given` holds, so they name the same nodes from one edit to the next.
        returning = tuple((name, tuple((found.node, found.name, found.saved.op, found.saved.output) for found in
                                       helpers)) for name, helpers in spoils.returning.items())
        given = (tuple(body), flow.forward, flow.trains, frozenset(flow.graph), returning, frozenset(spoils.reported))

        def work() -> tuple[frozenset[int], tuple[Spoiled, ...]]:
            flow.spoils = alone = _Spoils()
            alone.reported = set(spoils.reported)
            alone.returning = {name: list(found) for name, found in spoils.returning.items()}
            flow.run(body)
            name = function.name.value if function is not None else ""
            return frozenset(alone.reported - spoils.reported), \
                tuple(alone.returning.get(name, ())[len(spoils.returning.get(name, ())):])

        reported, returned = self.ctx.finish_part((code, function, turn), given, work)
        spoils.reported |= reported
        if returned:
            spoils.returning.setdefault(function.name.value, []).extend(returned)  # type: ignore[union-attr]

    def handed_graph(self, class_def: cst.ClassDef, forward: cst.FunctionDef) -> set[str]:
        """The parameters of `forward` that some call of an instance of `class_def` in the file (else in a module
        importing it), with autograd on, hands a tensor in the graph: `self.l2norm(x)` in another module's
        `forward`, `x = self.features(images)` (SSD's L2Norm, which divides its input in place)."""
        answers = self.ctx.analysis(_HandedInputs).answers
        if id(class_def) in answers:
            return answers[id(class_def)] or set()
        answers[id(class_def)] = None
        handed = self._probe(forward, class_def, lambda ctx, value: _constructs(ctx, value, class_def))
        if not handed:
            handed = self._handed_by_importers(class_def, forward)
        answers[id(class_def)] = handed
        return handed

    def _probe(self, forward: cst.FunctionDef, class_def: cst.ClassDef | None,
               builds: Callable[[Context, cst.Call], bool]) -> set[str]:
        """The parameters of `forward` that a call in this file of a module `builds` makes hands a graph tensor."""
        handed: set[str] = set()
        params = [param.name.value for param in forward.params.params[1:]]
        for site in self._instance_calls(class_def, builds):
            arguments = {id(argument): param for param in params
                         if (argument := passed_argument(forward, site.node, param, constructor=True)) is not None}
            if not arguments:
                continue
            flow = _Flow(self, site.function, _Spoils(), None)
            flow.probes = arguments
            top = [s for s in self.ctx.module.body if type(s) not in (cst.FunctionDef, cst.ClassDef)]
            flow.run(site.function.body.body if site.function is not None else top)
            handed |= flow.handed
        return handed

    def _handed_by_importers(self, class_def: cst.ClassDef, forward: cst.FunctionDef) -> set[str]:
        """`handed_graph` read in the project's modules that import this one, directly or through the packages
        whose `__init__` re-exports it: SSD's `models/ssd.py` keeping `self.L2Norm = L2Norm(512, 20)` from
        `layers/modules/l2norm.py` (`from layers import *`) and calling it on a convolution's output. Only a module
        the importer builds by the class's imported name and keeps as `self.x` counts."""
        name = class_def.name.value
        def passes_on(_: str, text: str) -> bool:  # a package `__init__` that may re-export the class
            return name in text or "import *" in text

        found = importers_through_packages(self.ctx.filename, passes_on, partial=True)  # some importer hands it
        # those past the last level followed are kept too: an importer found may import the class from one
        packages = [path for path, text, _ in found or () if os.path.basename(path) == "__init__.py"
                    and passes_on(path, text)]
        chain = {resolved(self.ctx.filename), *map(resolved, packages)}
        importers = [path for path, text, _ in found or () if os.path.basename(path) != "__init__.py" and name in text]
        handed: set[str] = set()
        for path in importers:
            other = PROJECT.context(Path(path), frozenset({"*"}))
            if other is not None:
                handed |= other.analysis(SavedTensors)._probe(
                    forward, None, lambda ctx, value: _imports_class(ctx, value, name, chain))
        return handed

    def _instance_calls(self, class_def: cst.ClassDef | None, builds: Callable[[Context, cst.Call], bool]
                        ) -> Iterator[CallSite]:
        """The calls, with autograd on, of a module another class keeps as `self.x` (every value it assigns there
        `builds`), or of a name built as one of `class_def`."""
        ctx = self.ctx
        calls = ctx.analysis(_ModuleCalls)
        for site, found in calls.sites():
            if type(found) is list:
                if all(builds(ctx, value) for value in found):
                    yield site
            elif class_def is not None and calls.instance_class(site, found) is class_def:
                yield site

    def constructions(self, class_def: cst.ClassDef | None, func: cst.BaseExpression) -> list[cst.Call]:
        """The calls `class_def` assigns to `self.x` for `func` spelled `self.x`; empty when `func` is no `self.x`
        or one of the values is not a call."""
        return _constructions(self.ctx, class_def, func)

    def attributes(self, class_def: cst.ClassDef) -> dict[str, list[cst.BaseExpression]]:
        return self.ctx.analysis(_SelfAttributes).of(class_def)


def _constructions(ctx: Context, class_def: cst.ClassDef | None, func: cst.BaseExpression) -> list[cst.Call]:
    """`SavedTensors.constructions`."""
    if class_def is None or type(func) is not cst.Attribute or type(func.value) is not cst.Name \
            or func.value.value != "self":
        return []
    values = ctx.analysis(_SelfAttributes).of(class_def).get(func.attr.value, [])
    return values if all(type(value) is cst.Call for value in values) else []  # type: ignore[return-value]


class _ModuleCalls:
    """The file's calls, with autograd on, that may call a module instance, found once a file (`handed_graph`
    asks for each module class it probes, and each ask went through every call of the file), in the order of
    `Context.calls`: a call of a module a class keeps as `self.x`, with the calls the class assigns there, and a
    call of a name, with the point the name is read at."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._found: list[tuple[CallSite, list[cst.Call] | Point]] | None = None
        # id(call) -> the class of the file the called name is an instance of: the same for every class probed
        self._classes: dict[int, cst.ClassDef | None] = {}

    def sites(self) -> list[tuple[CallSite, list[cst.Call] | Point]]:
        """Asked in `finish` only, when every call is known."""
        if self._found is None:
            ctx = self.ctx
            found: list[tuple[CallSite, list[cst.Call] | Point]] = []
            for sites in ctx.calls.values():
                for site in sites:
                    func = site.node.func
                    if site.grad_disabled:
                        continue
                    if type(func) is cst.Attribute:
                        owner = ctx.class_of_method(site.function) if site.function is not None else None
                        values = _constructions(ctx, owner, func)
                        if values:
                            found.append((site, values))
                    elif type(func) is cst.Name:
                        point = ctx.point_after(site.function) if site.function is not None else ctx.module_point()
                        if point is not None:
                            found.append((site, point))
            self._found = found
        return self._found

    def instance_class(self, site: CallSite, point: Point) -> cst.ClassDef | None:
        """`instance_class` of the name `site` calls, read at `point` (as `sites` gives them)."""
        key = id(site.node)
        if key not in self._classes:
            with self.ctx.at(point):
                self._classes[key] = instance_class(self.ctx, site.node.func)
        return self._classes[key]


class _ImporterCalls:
    """`SavedTensors.importer_calls`, once a function: id(function) -> the calls."""

    def __init__(self, ctx: Context) -> None:
        self.answers: dict[int, list[Caller]] = {}


class _HandedInputs:
    """The parameters of a module class's `forward` that a call of one of its instances hands a graph tensor,
    worked out once a class: (class) -> the parameters; None while the class is being worked out (recursion)."""

    def __init__(self, ctx: Context) -> None:
        self.answers: dict[int, set[str] | None] = {}


class _HandedModels:
    """Whether every construction of a trainer hands it a weighted module where its method spells one
    (`self.model.fc`), asked once a file: (class, spelling) -> the answer."""

    def __init__(self, ctx: Context) -> None:
        self.answers: dict[tuple[int, str], bool] = {}


class _SelfAttributes:
    """What each class of the file assigns to each `self.x` in its methods, found once a class."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._found: dict[int, dict[str, list[cst.BaseExpression]]] = {}

    def of(self, class_def: cst.ClassDef) -> dict[str, list[cst.BaseExpression]]:
        found = self._found.get(id(class_def))
        if found is None:
            found = self._found[id(class_def)] = {}
            for node in self.ctx.walk(class_def.body):
                if type(node) is cst.Assign and len(node.targets) == 1:
                    target = node.targets[0].target
                    if type(target) is cst.Attribute and type(target.value) is cst.Name \
                            and target.value.value == "self":
                        found.setdefault(target.attr.value, []).append(node.value)
        return found


def _saves_its_input(ctx: Context, value: cst.Call, depth: int = 0) -> bool:
    """The module `value` builds keeps the tensor it is called on for backward: a layer with weights (for their
    gradient), an `nn.Sequential` whose first layer does, or a module class of the file (or imported from the
    project's modules) whose `forward` hands its input, before anything rebinds it, straight to such a layer of its
    own (a feed-forward block's
    `self.fc2(self.act(self.fc1(x)))`, an MLP-Mixer's `x += self.channel_mix(x)` then spoils what `fc1` kept)."""
    layer = torch_layer(ctx, value)
    if layer == "Sequential":
        first = value.args[0] if value.args else None
        return first is not None and first.keyword is None and not first.star and type(first.value) is cst.Call \
            and depth < 4 and _saves_its_input(ctx, first.value, depth + 1)
    if layer is not None:
        return layer in SAVES_INPUT_LAYERS
    binding = ctx.binding(value.func) if type(value.func) is cst.Name else None
    if binding is None or depth >= 4:
        return False
    if binding.kind == "class":
        class_def: cst.ClassDef = binding.statement  # type: ignore[assignment]
    elif binding.kind == "import":  # `FeedForward(d, 4 * d)` of `from .layers import FeedForward`
        found = evaluator(ctx).value(value.func)
        if not isinstance(found, ClassValue) or type(found.node) is not cst.ClassDef:
            return False
        ctx, class_def = found.ctx, found.node
    else:
        return False
    if not is_torch_module_class(ctx, class_def):
        return False
    forward = next((node for node in class_def.body.body
                    if type(node) is cst.FunctionDef and node.name.value == "forward"), None)
    params = forward.params.params if forward is not None else ()
    if len(params) < 2:
        return False
    given = params[1].name.value
    for statement in forward.body.body:  # type: ignore[union-attr]
        if type(statement) is not cst.SimpleStatementLine:
            return False  # under a branch or a loop, the layer may not see it on every call
        for node in walk(statement):
            if type(node) is cst.Call and node.args and node.args[0].keyword is None and not node.args[0].star \
                    and type(node.args[0].value) is cst.Name and node.args[0].value.value == given \
                    and (built := _constructions(ctx, class_def, node.func)) \
                    and all(_saves_its_input(ctx, inner, depth + 1) for inner in built):
                return True
        if given in {name for small in statement.body for name in _assigned_names(small)}:
            return False
    return False


def _assigned_names(small: cst.BaseSmallStatement) -> list[str]:
    if type(small) is cst.Assign:
        return [name for target in small.targets for name in target_names(target.target)]
    if type(small) in (cst.AugAssign, cst.AnnAssign):
        return list(target_names(small.target))  # type: ignore[attr-defined]
    return []


def _constructs(ctx: Context, value: cst.Call, class_def: cst.ClassDef) -> bool:
    """`value` calls the class `class_def` by its name: `L2Norm(512)`."""
    binding = ctx.binding(value.func) if type(value.func) is cst.Name else None
    return binding is not None and binding.kind == "class" and binding.statement is class_def


def _imports_class(ctx: Context, value: cst.Call, name: str, chain: set[Path | None]) -> bool:
    """`value` calls the class `name` by the name it is imported as from one of the module files `chain` (the
    class's own, the packages re-exporting it): `L2Norm(512, 20)` after `from layers import L2Norm`, or after
    `from layers import *` when nothing else binds the name."""
    binding = ctx.binding(value.func) if type(value.func) is cst.Name else None
    if binding is None and type(value.func) is cst.Name and value.func.value == name:
        modules = [(len(node.relative), dotted_name(node.module) if node.module is not None else "")
                   for node in ctx.module.body if type(node) is cst.SimpleStatementLine
                   for node in node.body if type(node) is cst.ImportFrom and isinstance(node.names, cst.ImportStar)]
    elif binding is not None and binding.kind == "import" and binding.qualname \
            and split_relative(binding.qualname)[1].rpartition(".")[2] == name:
        level, dotted = split_relative(binding.qualname)
        modules = [(level, dotted.rpartition(".")[0])]
    else:
        return False
    for level, module in modules:
        found = PROJECT.module_file(ctx.filename, module or "", level) if module is not None else None
        if found is not None and resolved(found) in chain:
            return True
    return False


def _output_layer(value: object) -> str | None:
    """The torch.nn layer class that makes a built module's output: the layer itself, or an `nn.Sequential`'s last
    one when its layers are known."""
    while isinstance(value, TorchObject):
        name = value.qualname.rsplit(".", 1)[-1]
        if name != "Sequential":
            return name if value.qualname.startswith("torch.nn.") else None
        items = value.items
        if not isinstance(items, Seq) or not items.complete or not items.items:
            return None
        value = items.items[-1]
    return None


def _weighted(value: object) -> bool:
    """A module the objects floor built that has weights: a model class of the project, a weighted torch.nn
    layer, or an `nn.Sequential`."""
    if isinstance(value, Instance):
        return is_module(value)
    return isinstance(value, TorchObject) and value.qualname.rsplit(".", 1)[-1] in (*WEIGHTED, "Sequential") \
        and is_module(value)


def _einsum_operands(args: list[cst.BaseExpression]) -> list[cst.BaseExpression]:
    """The tensors of `torch.einsum(equation, a, b)` or `torch.einsum(equation, [a, b])`."""
    if len(args) == 2 and type(args[1]) in (cst.List, cst.Tuple):
        return [element.value for element in args[1].elements]  # type: ignore[attr-defined]
    return args[1:]


def _basic_index(node: cst.CSTNode, receiver: cst.Name) -> bool:
    """The subscript of `receiver` that `node` modifies in place through a method (`x[0].mul_(2)`,
    `x[:, 1:].clamp_(0)`) takes a view: integers and slices only. An assignment to a subscript (`x[mask] = 0`)
    writes into `receiver` whatever the index."""
    if type(node) is not cst.Call:
        return True
    subscript = node.func.value  # type: ignore[attr-defined]
    while type(subscript) is cst.Call and type(subscript.func) is cst.Attribute:
        subscript = subscript.func.value
    return type(subscript) is cst.Subscript and _basic_slices(subscript)


# Tensor methods whose result is always a view of the receiver, and those that are a view of a contiguous one (the
# output of an op is): an in-place op on the result writes into the receiver.
_VIEWING = frozenset({"view", "view_as", "squeeze", "unsqueeze", "unflatten", "narrow", "select", "transpose",
                      "permute", "t", "expand", "expand_as", "movedim"})
_VIEWING_CONTIGUOUS = frozenset({"reshape", "reshape_as", "flatten"})
_NONCONTIGUOUS = frozenset({"transpose", "permute", "t", "expand", "expand_as", "movedim", "narrow", "select"})


def _view_base(value: cst.BaseExpression) -> cst.BaseExpression:
    """The expression `value` is certainly a view of, through the viewing methods applied to it
    (`torch.sigmoid(h).squeeze(-1)` -> `torch.sigmoid(h)`); `value` itself when it is none."""
    chain: list[str] = []
    base = value
    while type(base) is cst.Call and type(base.func) is cst.Attribute \
            and base.func.attr.value in _VIEWING | _VIEWING_CONTIGUOUS:
        chain.append(base.func.attr.value)
        base = base.func.value
    moved = False
    for method in reversed(chain):  # from the op outwards: a reshape after a transpose copies
        if method in _VIEWING_CONTIGUOUS and moved:
            return value
        moved = moved or method in _NONCONTIGUOUS
    return base


def _basic_slices(subscript: cst.Subscript) -> bool:
    """`subscript` takes a view: integers and slices only (`x[mask]` is a copy)."""
    return all(type(element.slice) is cst.Slice or type(element.slice) is cst.Index
               and type(element.slice.value) is cst.Integer for element in subscript.slice)


def _reads(expr: cst.CSTNode) -> set[str]:
    """The variable names an expression reads (not attribute names or keywords)."""
    names: set[str] = set()
    skip: set[int] = set()
    for node in walk(expr):
        kind = type(node)
        if kind is cst.Name:
            if id(node) not in skip:
                names.add(node.value)  # type: ignore[attr-defined]
        elif kind is cst.Attribute:
            skip.add(id(node.attr))  # type: ignore[attr-defined]
        elif kind is cst.Arg and node.keyword is not None:  # type: ignore[attr-defined]
            skip.add(id(node.keyword))  # type: ignore[attr-defined]
    return names


class _Spoils:
    """What the flows of one file work out together: the spoiled saves reported, and function name -> the spoiled
    saves its result leads back to, for its callers' backward passes."""

    def __init__(self) -> None:
        self.reported: set[int] = set()
        self.returning: dict[str, list[Spoiled]] = {}


class _Flow:
    """One body read statement by statement: which local tensors take part in autograd, which of them autograd
    saved, and the in-place ops that spoiled a saved one, until a backward pass or the model's output confirms."""

    def __init__(self, tensors: SavedTensors, function: cst.FunctionDef | None, spoils: _Spoils,
                 report: Callable[[Spoiled], None] | None, graph: set[str] | None = None) -> None:
        self.tensors = tensors
        self.spoils = spoils
        # None: a caller's body read only for what it hands a module (`handed_graph`): nothing is reported
        self.report = report
        self.ctx = tensors.ctx
        self.function = function
        self.class_def = self.ctx.class_of_method(function) if function is not None else None
        self.forward = function is not None and function.name.value == "forward" and self.class_def is not None \
            and is_torch_module_class(self.ctx, self.class_def)
        # a LightningModule's `training_step`: its trainer backpropagates the loss the step returns
        self.stepped = function is not None and function.name.value == "training_step" \
            and self.class_def is not None and lightning_class(self.class_def)
        self.trains = _runs_backward(self.ctx, function)
        # `graph`: the parameters taken as graph tensors, instead of those the calls of the function hand one
        self.graph: set[str] = self._graph_parameters() if graph is None else graph
        self.modules: set[str] = set()
        self.saved: dict[str, _Saved] = {}
        # names of lists or tuples every element of which is a saved output (`rates = [torch.exp(a), ...]`): an
        # in-place op on an element (`rates[0].add_(...)`) spoils it, one on the name (`rates += [...]`) is no
        # tensor op
        self.containers: set[str] = set()
        # the variables of the loops being read, each with what it goes over (`for layer in self.layers`)
        self.iterated: dict[str, cst.BaseExpression] = {}
        self.spoiled: list[Spoiled] = []
        self.following: set[cst.FunctionDef] = set()  # the helpers `_keeps_graph` is reading, against recursion
        # read for `handed_graph`: the arguments (by id) of a module's call, each with the `forward` parameter it
        # binds, and the parameters handed a graph tensor
        self.probes: dict[int, str] = {}
        self.handed: set[str] = set()

    # ------------------------------------------------------------------------------------------------ the body

    def run(self, body: Sequence[cst.CSTNode]) -> None:
        if self.function is not None and any(_grad_off_decorator(self.ctx, d) for d in self.function.decorators):
            return
        self._block(body)

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        for statement in body:
            kind = type(statement)
            if kind is cst.SimpleStatementLine:
                for small in statement.body:  # type: ignore[attr-defined]
                    self._small(small)
            elif kind is cst.With:
                if not any(self._grad_off(item.item) for item in statement.items):  # type: ignore[attr-defined]
                    self._block(statement.body.body)  # type: ignore[attr-defined]
            elif kind is cst.If:
                training = _training_test(statement.test)  # type: ignore[attr-defined]
                if training is not False:
                    self._block(statement.body.body)  # type: ignore[attr-defined]
                orelse = statement.orelse  # type: ignore[attr-defined]
                while orelse is not None and training is None:
                    self._block(orelse.body.body)
                    orelse = getattr(orelse, "orelse", None)
                if training is False and orelse is not None:
                    self._block(orelse.body.body)
                if training is True and _returns(statement.body.body):  # type: ignore[attr-defined]
                    return  # what follows `if self.training: ... return` runs in inference only
            elif kind in (cst.For, cst.While):
                # twice: what one iteration saves late, the next may change in place early (a running state
                # `S += k * v` that `q @ S` saved in the iteration before)
                for _ in range(2):
                    if kind is cst.For:
                        self._rebind(list(target_names(statement.target)), None)  # type: ignore[attr-defined]
                        if type(statement.target) is cst.Name:  # type: ignore[attr-defined]
                            self.iterated[statement.target.value] = statement.iter  # type: ignore[attr-defined]
                    self._block(statement.body.body)  # type: ignore[attr-defined]
            elif kind is cst.Try:
                self._block(statement.body.body)  # type: ignore[attr-defined]
                for handler in statement.handlers:  # type: ignore[attr-defined]
                    self._block(handler.body.body)

    def _small(self, node: cst.CSTNode) -> None:
        if self.probes:
            for inner in self.ctx.walk(node):
                if id(inner) in self.probes and self.is_graph(inner):  # type: ignore[arg-type]
                    self.handed.add(self.probes[id(inner)])
        kind = type(node)
        if kind is cst.Assign or kind is cst.AnnAssign and node.value is not None:  # type: ignore[attr-defined]
            targets = [t.target for t in node.targets] if kind is cst.Assign else [node.target]  # type: ignore
            names = [name for target in targets for name in target_names(target)]
            self._flows(names, node.value, keep=False)  # type: ignore[attr-defined]
            self._saves(node.value, set(names))  # type: ignore[attr-defined]
            for target in targets:
                if type(target) is cst.Subscript:
                    self._in_place(node, target.value)
                    if type(target.value) is cst.Name:  # `x[:] = x + h`: `x` leads back wherever the value does
                        self._flows([target.value.value], node.value, keep=True)  # type: ignore[attr-defined]
            self._calls(node.value)  # type: ignore[attr-defined]
            self._rebind(names, node.value)  # type: ignore[attr-defined]
        elif kind is cst.AugAssign:
            target = node.target  # type: ignore[attr-defined]
            names = list(target_names(target))
            self._saves(node.value, set(names))  # type: ignore[attr-defined]
            self._calls(node.value)  # type: ignore[attr-defined]
            if type(target) is cst.Subscript:
                self._in_place(node, target.value)
            elif names:
                self._in_place(node, target)
                self._flows(names, node.value, keep=True)  # type: ignore[attr-defined]
                if self.is_graph(node.value):  # type: ignore[attr-defined]
                    self.graph.update(names)  # `state += k * v`: a zeros buffer now holds the graph's values
        elif kind is cst.Expr:
            value = node.value  # type: ignore[attr-defined]
            if type(value) is cst.Call and type(value.func) is cst.Attribute and type(value.func.value) is cst.Name:
                self._saves(value, {value.func.value.value})  # `outs.append(q * state)`: `outs` leads to the product
            self._calls(value)
        elif kind is cst.Return and node.value is not None:  # type: ignore[attr-defined]
            self._returns(node.value)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------------------------------- what is saved

    def _saves(self, value: cst.BaseExpression, targets: set[str]) -> None:
        """Record the local tensors the ops of `value` save, with `targets` (what the statement assigns) as the
        names that lead back to those ops."""
        for node in self.ctx.walk(value):
            kind = type(node)
            if kind is cst.BinaryOperation:
                self._operator(node, targets)  # type: ignore[arg-type]
            elif kind is cst.Call:
                self._saving_call(node, targets)  # type: ignore[arg-type]

    def _operator(self, node: cst.BinaryOperation, targets: set[str]) -> None:
        operator = type(node.operator)
        left, right = node.left, node.right
        if operator is cst.Multiply or operator is cst.MatrixMultiply:
            self._product(node, left, right, targets)
        elif operator is cst.Divide:
            if self.is_graph(right):
                self._save(left, node, targets)
            if self.is_graph(left) or self.is_graph(right):
                self._save(right, node, targets)
        elif operator is cst.Power:
            self._save(left, node, targets)

    def _product(self, node: cst.CSTNode, a: cst.BaseExpression, b: cst.BaseExpression, targets: set[str]) -> None:
        """Each factor is saved for the other's gradient, when the other needs one."""
        if self.is_graph(b):
            self._save(a, node, targets)
        if self.is_graph(a):
            self._save(b, node, targets)

    def _saving_call(self, call: cst.Call, targets: set[str]) -> None:
        func = call.func
        qualname = self.ctx.qualname(func)
        args = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if qualname in PRODUCTS and len(args) == 2:
            self._product(call, args[0], args[1], targets)
        elif qualname == "torch.einsum" and len(_einsum_operands(args)) == 2:
            self._product(call, *_einsum_operands(args), targets)
        elif qualname == "torch.pow" and args:
            self._save(args[0], call, targets)
        elif qualname is None and type(func) is cst.Attribute and func.attr.value in PRODUCT_METHODS \
                and len(args) == 1:
            self._product(call, func.value, args[0], targets)
        elif qualname is None and type(func) is cst.Attribute and func.attr.value == "pow":
            self._save(func.value, call, targets)
        elif qualname is None and args and (built := self._layers_called(func)) \
                and all(_saves_its_input(self.ctx, value) for value in built):
            # `self.fc(h)`: a Linear keeps `h` for its weight's gradient, whether `h` needs one or not (a
            # batch's features changed by `feats += self.proj(feats)`); `layer(x)` of `for layer in self.layers`
            self._save(args[0], call, targets, weights=True)

    def _save(self, operand: cst.BaseExpression, op: cst.CSTNode, targets: set[str], weights: bool = False) -> None:
        """`op` saved `operand`: for the gradient of another operand in the graph, or, with `weights`, of the
        weights of the layer it is handed."""
        if type(operand) is cst.Name and (weights or operand.value in self.graph) and targets:
            self.saved[operand.value] = _Saved(op, False, set(targets))

    def _saved_output(self, value: cst.BaseExpression) -> bool:
        """`value` is an op that saves its output, applied to a tensor in the graph."""
        if type(value) is not cst.Call:
            return False
        func = value.func
        qualname = self.ctx.qualname(func)
        args = [arg.value for arg in value.args if arg.keyword is None and not arg.star]
        if any(arg.keyword is not None and arg.keyword.value == "inplace" for arg in value.args):
            return False
        if qualname in SAVES_OUTPUT:
            return bool(args) and self.is_graph(args[0])
        if qualname is None and type(func) is cst.Attribute:
            if func.attr.value in SAVES_OUTPUT_METHODS and not self._layer_kinds(func):
                return self.is_graph(func.value)
            kinds = self._layer_kinds(func, output=True)
            # a Sequential's output is in the graph through its weighted layers, whatever its input
            return bool(kinds) and kinds <= SAVES_OUTPUT_LAYERS and bool(args) \
                and (self.is_graph(args[0]) or self._module_call(func))
        if type(func) is cst.Name and self.function is None and bool(args):
            # a script's `net = build(8)` of a factory returning `nn.Sequential(nn.Linear(d, d), nn.Tanh())`
            built, seq = self.ctx.value_of(func)
            value = evaluator(self.ctx).value(built, seq) if type(built) is cst.Call else None
            return _output_layer(value) in SAVES_OUTPUT_LAYERS and (self.is_graph(args[0]) or self._module_call(func))
        return False

    def _multi_view(self, value: cst.BaseExpression) -> bool:
        """`value` splits a tensor in the graph into views: `gates.chunk(3, dim=-1)`, `torch.split(h, d, 1)`."""
        if type(value) is not cst.Call:
            return False
        func = value.func
        qualname = self.ctx.qualname(func)
        if qualname in MULTI_VIEW:
            return bool(value.args) and value.args[0].keyword is None and self.is_graph(value.args[0].value)
        return qualname is None and type(func) is cst.Attribute and func.attr.value in MULTI_VIEW_METHODS \
            and self.is_graph(func.value)

    def _layer_kinds(self, func: cst.BaseExpression, output: bool = False) -> frozenset[str]:
        """The torch.nn layer classes `self.x` may hold, when every assignment to it builds one; empty otherwise.
        With `output`, an `nn.Sequential` counts as the layer that makes its output: its last one."""
        kinds = set()
        for value in self._constructions(func):
            layer = torch_layer(self.ctx, value)
            while output and layer == "Sequential" and value.args and value.args[-1].keyword is None \
                    and not value.args[-1].star and type(value.args[-1].value) is cst.Call:
                value = value.args[-1].value  # type: ignore[assignment]
                layer = torch_layer(self.ctx, value)
            if layer is None:
                return frozenset()
            kinds.add(layer)
        return frozenset(kinds)

    def _layers_called(self, func: cst.BaseExpression) -> list[cst.Call]:
        """The calls that build the module `func` runs: what the class assigns to `self.fc`, or the layers of an
        `nn.ModuleList` / `nn.Sequential` it assigns to `self.blocks`, for an element of it (`self.blocks[i]`) or the
        variable of a loop over it (`for layer in self.blocks`); empty where one of them is not a call."""
        if type(func) is cst.Subscript:
            return self._elements(func.value)
        if type(func) is cst.Name:
            iterated = self.iterated.get(func.value)
            return [] if iterated is None else self._elements(iterated)
        return self._constructions(func)

    def _elements(self, container: cst.BaseExpression) -> list[cst.Call]:
        """The layer constructions of the containers `self.blocks` is assigned: `nn.ModuleList([...])` or of a
        comprehension (`nn.ModuleList(nn.Linear(d, d) for _ in range(n))`), `nn.Sequential(a, b)`."""
        found: list[cst.Call] = []
        for value in self._constructions(container):
            layer = torch_layer(self.ctx, value)
            args = value.args
            if layer == "Sequential" and args:
                items = [arg.value for arg in args]
            elif layer == "ModuleList" and len(args) == 1:
                listed = args[0].value
                items = [element.value for element in listed.elements] if type(listed) in (cst.List, cst.Tuple) \
                    else [listed.elt] if type(listed) in (cst.ListComp, cst.GeneratorExp) else []  # type: ignore
            else:
                return []
            if not items or any(arg.keyword is not None or arg.star for arg in args) \
                    or any(type(item) is not cst.Call for item in items):
                return []
            found += items  # type: ignore[arg-type]
        return found

    def _in_place_layer(self, func: cst.BaseExpression) -> bool:
        built = self._constructions(func)
        return all_in_place(built) or switched_in_place(self.ctx, self.class_def, built)

    def _constructions(self, func: cst.BaseExpression) -> list[cst.Call]:
        return self.tensors.constructions(self.class_def, func)

    # ------------------------------------------------------------------------------------------- the graph

    def is_graph(self, expr: cst.BaseExpression) -> bool:
        """`expr` is a tensor that takes part in autograd, as the code states it."""
        kind = type(expr)
        if kind is cst.Name:
            return expr.value in self.graph  # type: ignore[attr-defined]
        if kind is cst.BinaryOperation:
            return self.is_graph(expr.left) or self.is_graph(expr.right)  # type: ignore[attr-defined]
        if kind is cst.UnaryOperation:
            return type(expr.operator) is cst.Minus and self.is_graph(expr.expression)  # type: ignore
        if kind is cst.Subscript:
            return self.is_graph(expr.value)  # type: ignore[attr-defined]
        if kind is cst.Tuple or kind is cst.List:
            return any(self.is_graph(element.value) for element in expr.elements)  # type: ignore[attr-defined]
        if kind is cst.Attribute:
            return self._parameter(expr)  # type: ignore[arg-type]
        if kind is cst.Call:
            return self._graph_call(expr)  # type: ignore[arg-type]
        return False

    def _parameter(self, expr: cst.Attribute) -> bool:
        """`self.w` with `self.w = nn.Parameter(...)`; `h.T` of a graph tensor."""
        if expr.attr.value in ("T", "mT", "H"):
            return self.is_graph(expr.value)
        if self.class_def is None or type(expr.value) is not cst.Name or expr.value.value != "self":
            return False
        values = self.tensors.attributes(self.class_def).get(expr.attr.value, [])
        return any(type(v) is cst.Call and self.ctx.qualname(v.func) == "torch.nn.Parameter" for v in values)

    def _graph_call(self, call: cst.Call) -> bool:
        ctx = self.ctx
        func = call.func
        qualname = ctx.qualname(func)
        args = [arg.value for arg in call.args]
        if qualname is not None:
            if qualname == "torch.nn.Parameter":
                return True
            if any(arg.keyword is not None and arg.keyword.value == "requires_grad"
                   and type(arg.value) is cst.Name and arg.value.value == "True" for arg in call.args):
                return True
            if qualname in NOT_DIFFERENTIABLE or not qualname.startswith(("torch.", "einops.")):
                return False
            return any(self.is_graph(arg) for arg in args)
        if type(func) is cst.Attribute:
            if self._module_call(func):
                return True
            if func.attr.value in DETACHING:
                return False
            return self.is_graph(func.value) or any(self.is_graph(arg) for arg in args)
        if type(func) is cst.Name and func.value in _CARRIERS:
            return any(self.is_graph(arg) for arg in args)  # `q, k, v = map(lambda t: ..., qkv)`
        if type(func) is cst.Name and func.value == "self" and self.class_def is not None:
            return is_torch_module_class(ctx, self.class_def)  # `self(x)` in a LightningModule's step: its forward
        return type(func) in (cst.Name, cst.Subscript) and self._module_call(func) \
            or type(func) is cst.Name and self._keeps_graph(call, func.value)

    def _keeps_graph(self, call: cst.Call, name: str) -> bool:
        """`elu_feature_map(q)` of a same-file `def elu_feature_map(x): return F.elu(x) + 1`: a function of one
        `return` statement whose value is in the graph when the parameters handed graph tensors are."""
        definitions = self.ctx.functions.get(name, [])
        if len(definitions) != 1 or self.ctx.class_of_method(definitions[0]) is not None \
                or definitions[0] in self.following:
            return False
        definition = definitions[0]
        body = definition.body.body
        returned = body[0].body[0] if len(body) == 1 and type(body[0]) is cst.SimpleStatementLine else None
        if type(returned) is not cst.Return or returned.value is None:
            return False
        handed = {receiving_parameter(definition, call, arg.value) for arg in call.args if self.is_graph(arg.value)}
        caller, self.graph = self.graph, {parameter for parameter in handed if parameter is not None}
        self.following.add(definition)
        try:
            return self.is_graph(returned.value)
        finally:
            self.graph = caller
            self.following.discard(definition)

    def _module_call(self, func: cst.BaseExpression) -> bool:
        """`func` is a module with parameters: `self.fc` built as a weighted torch.nn layer or a model of this
        file, an element of `self.blocks` built as an `nn.ModuleList` / `nn.ModuleDict` / `nn.Sequential`
        (`self.blocks[1]`), a local or global built so, or, in a body that runs backward, a parameter called like
        one."""
        element = type(func) is cst.Subscript
        if element:
            func = func.value  # type: ignore[attr-defined]
        if type(func) is cst.Attribute:
            if self.class_def is None:
                return False
            if type(func.value) is not cst.Name or func.value.value != "self":
                return not element and self._handed_model(func)
            values = self.tensors.attributes(self.class_def).get(func.attr.value, [])
            return any(self._builds_model(value) or element and type(value) is cst.Call
                       and torch_layer(self.ctx, value) in ("ModuleList", "ModuleDict") for value in values) \
                or not element and self._handed_model(func)
        if element:
            return False
        if type(func) is not cst.Name:
            return False
        name = func.value
        if name in self.modules:
            return True
        if name in self._parameters():
            return self.trains  # `model(x)` in a function that trains it
        class_def = instance_class(self.ctx, func)
        if class_def is not None:
            return is_torch_module_class(self.ctx, class_def)
        if self.function is None:  # a script's `net = build(8)` of a factory returning `nn.Sequential(...)`
            built, seq = self.ctx.value_of(func)
            return type(built) is cst.Call and _weighted(evaluator(self.ctx).value(built, seq))
        return False

    def _handed_model(self, func: cst.Attribute) -> bool:
        """`self.model(x)`, `self.model.fc(x)` of a trainer that stores the model its constructor is handed, when
        every construction of the trainer hands it a model whose layer there has weights (`Trainer(Encoder())`)."""
        answers = self.ctx.analysis(_HandedModels).answers
        key = (id(self.class_def), self.ctx.code(func))
        known = answers.get(key)
        if known is None:
            known = answers[key] = self._handed_model_uncached(func)
        return known

    def _handed_model_uncached(self, func: cst.Attribute) -> bool:
        found = stored_root(self.ctx, func, self.class_def)
        passed = constructor_arguments(self.ctx, *found[0]) if found is not None else None
        if not passed:
            return False
        for argument, point, reader in passed:
            with reader.at(point):
                value = evaluator(reader).value(argument)
            if not _weighted(attribute_path(value, found[1])):  # type: ignore[index]
                return False
        return True

    def _builds_model(self, value: cst.BaseExpression) -> bool:
        if type(value) is not cst.Call:
            return False
        layer = torch_layer(self.ctx, value)
        if layer is not None:
            return layer in WEIGHTED or layer == "Sequential"
        if type(value.func) is cst.Name:
            binding = self.ctx.binding(value.func)
            return binding is not None and binding.kind == "class" \
                and is_torch_module_class(self.ctx, binding.statement)  # type: ignore[arg-type]
        return False

    def _parameters(self) -> list[str]:
        if self.function is None:
            return []
        params = self.function.params
        return [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)]

    def _graph_parameters(self) -> set[str]:
        """The parameters some call of this function with autograd on passes a model's output for."""
        if self.function is None:
            return set()
        if self.forward:
            assert self.class_def is not None
            return self.tensors.handed_graph(self.class_def, self.function)
        names = self._parameters()
        if names[:1] in (["self"], ["cls"]):
            names = names[1:]
        graph: set[str] = set()
        # each call with the point its names are read at, when known: `logits = self.model(images)` then
        # `soft_dice_loss(logits, masks)` hands the helper a model's output by a name
        located = helper_callers(self.ctx, self.function) if self.class_def is None \
            else method_callers(self.ctx, self.function)  # a trainer's `self.compute_loss(logits, y)`
        sites: list[tuple[CallSite, Point | None, Context]] = \
            [(site, point, self.ctx) for site, point in located] if located is not None \
            else [(site, None, self.ctx) for site in self.ctx.calls_of(self.function)]
        if self.class_def is None and self._spoils_when_handed(names):
            # a loss helper of `losses.py` that `train.py` hands a model's output
            sites += [(caller.site, caller.point, caller.ctx) for caller in self.tensors.importer_calls(self.function)]
        for site, point, ctx in sites:
            if site.grad_disabled:
                continue
            positional = 0
            for arg in site.node.args:
                if arg.star:
                    break
                if arg.keyword is not None:
                    name = arg.keyword.value
                elif positional < len(names):
                    name = names[positional]
                    positional += 1
                else:
                    break
                value = arg.value
                while type(value) is cst.Subscript and _basic_slices(value):
                    value = value.value  # `x[:, t]` of a model's output: a view in its graph
                if type(value) is cst.Name and point is not None:
                    with ctx.at(point):
                        binding = ctx.binding(value)
                    value = binding.value if binding is not None and binding.kind == "assign" else value
                if type(value) is cst.Call and _is_model_output(ctx, value, site.function) \
                        or _stored_parameter(ctx, value, site.function):
                    graph.add(name)
        return graph

    def _spoils_when_handed(self, names: list[str]) -> bool:
        """The function would return a spoiled graph if every parameter held a graph tensor: only then are the
        modules importing it searched for calls (a search costs more than this reading of one body)."""
        probe = _Flow(self.tensors, self.function, _Spoils(), None, graph=set(names))
        probe.run(self.function.body.body)  # type: ignore[union-attr]
        return bool(probe.spoils.returning)

    # ------------------------------------------------------------------------------------------- in place

    def _calls(self, expr: cst.BaseExpression) -> None:
        """In-place calls inside an expression, calls of helpers that return a spoiled graph, backward passes, and
        values appended into containers."""
        for node in self.ctx.walk(expr):
            if type(node) is not cst.Call:
                continue
            func = node.func
            qualname = self.ctx.qualname(func)
            args = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
            if qualname is not None:
                inplace = qualname in IN_PLACE_FUNCTIONS or qualname.startswith("torch.nn.functional.") and any(
                    arg.keyword is not None and arg.keyword.value == "inplace" and type(arg.value) is cst.Name
                    and arg.value.value == "True" for arg in node.args)
                if inplace and args:
                    self._in_place(node, args[0])
                if qualname == "torch.autograd.backward":
                    self._backward(node)
                continue
            if type(func) is not cst.Attribute:
                continue
            method = func.attr.value
            if method == "backward":
                self._backward(node)
            elif method in IN_PLACE_METHODS:
                self._in_place(node, func.value)
            elif args and self._in_place_layer(func):
                self._in_place(node, args[0])  # `self.act(h)` with `self.act = nn.ReLU(inplace=True)`
            if type(func.value) is cst.Name:
                self._flows([func.value.value], node, keep=True)  # `outs.append(gated)`, `acc.add_(gated)`

    def _in_place(self, node: cst.CSTNode, receiver: cst.BaseExpression) -> None:
        """`receiver` is modified in place by `node`: an element of a container of saved outputs, a view of a saved
        tensor taken by basic indexing (`attn[0].mul_(2)`; `attn[mask]` is a copy), or the tensor itself."""
        element = type(receiver) is cst.Subscript
        if element:
            receiver = receiver.value  # type: ignore[attr-defined]
            if type(receiver) is not cst.Name or receiver.value not in self.containers \
                    and not _basic_index(node, receiver):
                return
        if type(receiver) is not cst.Name or not element and receiver.value in self.containers:
            return
        saved = self.saved.get(receiver.value)
        if saved is None:
            return
        witnesses = set(saved.witnesses)
        if saved.output:
            witnesses.add(receiver.value)
        self.spoiled.append(Spoiled(node, receiver.value, saved, witnesses))

    def _rebind(self, names: list[str], value: cst.BaseExpression | None) -> None:
        """`names` now hold `value`: what they held before is no longer theirs (`value` is read first, since
        `q = q.softmax(-1)` reads the `q` it replaces)."""
        graph = value is not None and (self._helper_result(value, names) or self.is_graph(value))
        model = type(value) is cst.Call and self._builds_model(value)  # type: ignore[arg-type]
        # `torch.sigmoid(self.fc(x)).squeeze(-1)`: a view of the output the op saved
        base = _view_base(value) if value is not None else None
        saved_output = len(names) == 1 and base is not None and self._saved_output(base)
        views = value is not None and self._multi_view(value)
        sliced = self._sliced_views(names, value) if value is not None else {}
        for name in names:
            self.saved.pop(name, None)
            self.graph.discard(name)
            self.modules.discard(name)
            self.containers.discard(name)
            self.iterated.pop(name, None)
        if value is None:
            for holder in (*self.saved.values(), *self.spoiled):
                holder.witnesses.difference_update(names)
            return
        if graph:
            self.graph.update(names)
        if model:
            self.modules.update(names)
        self.saved.update(sliced)
        if saved_output:
            self.saved[names[0]] = _Saved(base, True, {names[0]})  # type: ignore[arg-type]
        elif views:  # `r, z = gates.chunk(2, 1)` holds the views, `parts = gates.chunk(2, 1)` a tuple of them
            for name in names:
                self.saved[name] = _Saved(value, True, {name}, views=True)
            if len(names) == 1:
                self.containers.add(names[0])
        elif len(names) == 1 and type(value) in (cst.List, cst.Tuple) and value.elements and all(  # type: ignore
                type(element) is cst.Element and self._saved_output(element.value)
                for element in value.elements):  # type: ignore[attr-defined]
            self.saved[names[0]] = _Saved(value, True, {names[0]})
            self.containers.add(names[0])

    def _sliced_views(self, names: list[str], value: cst.BaseExpression) -> dict[str, _Saved]:
        """The names bound to a view a basic index takes of a saved tensor (`update = gates[:, hidden:]`, also
        `reset, update = gates[:, :hidden], gates[:, hidden:]`), each with what was saved: an in-place op on the view
        writes into the saved tensor."""
        values = [value] if len(names) == 1 else [element.value for element in value.elements] \
            if type(value) in (cst.Tuple, cst.List) and len(value.elements) == len(names) \
            and all(type(element) is cst.Element for element in value.elements) else []  # type: ignore[attr-defined]
        found = {}
        for name, part in zip(names, values):
            base = part.value if type(part) is cst.Subscript else None
            if type(base) is cst.Name and base.value in self.saved and base.value not in self.containers \
                    and _basic_slices(part):  # type: ignore[arg-type]
                found[name] = self.saved[base.value]
        if not values and type(value) is cst.Call:
            for name, handed in zip(names, self._helper_views(value, len(names))):
                if handed is not None and handed in self.saved and handed not in self.containers:
                    found[name] = self.saved[handed]
        return found

    def _helper_views(self, call: cst.Call, count: int) -> list[str | None]:
        """For a call of a plain function of the file whose one `return` is a tuple of `count` views its parameter
        takes by basic indexing (`def split_gates(g, d): return g[:, :d], g[:, d:2 * d], g[:, 2 * d:]`), the name
        the call hands that parameter for each element (`i, f, o = split_gates(ifo, d)`: `ifo` three times); Nones
        where an element is no such view, or the call hands no name."""
        func = call.func
        definitions = self.ctx.functions.get(func.value, []) if type(func) is cst.Name else []
        if len(definitions) != 1 or self.ctx.class_of_method(definitions[0]) is not None:
            return []
        definition = definitions[0]
        returns = [node for node in walk(definition.body) if type(node) is cst.Return]
        if len(returns) != 1 or type(returns[0].value) not in (cst.Tuple, cst.List) \
                or len(returns[0].value.elements) != count \
                or any(type(node) in (cst.FunctionDef, cst.Lambda) for node in walk(definition.body)):
            return []
        params = {param.name.value for param in definition.params.params}
        bound = {bound for node in walk(definition.body) if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign)
                 for target in ([t.target for t in node.targets] if type(node) is cst.Assign else [node.target])
                 for bound in target_names(target)}
        handed: list[str | None] = []
        for element in returns[0].value.elements:  # type: ignore[union-attr]
            part = element.value if type(element) is cst.Element else None
            base = part.value if type(part) is cst.Subscript else None
            passed = passed_argument(definition, call, base.value) \
                if type(base) is cst.Name and base.value in params and base.value not in bound \
                and _basic_slices(part) else None  # type: ignore[arg-type]
            handed.append(passed.value if type(passed) is cst.Name else None)
        return handed

    def _flows(self, names: list[str], value: cst.CSTNode, keep: bool) -> None:
        """`names` now depend on `value`: they lead backward wherever the names `value` reads lead."""
        if not self.saved and not self.spoiled:
            return
        read = _reads(value)
        for holder in (*self.saved.values(), *self.spoiled):
            if read & holder.witnesses:
                holder.witnesses.update(names)
            elif not keep:
                holder.witnesses.difference_update(names)

    def _spoiling_helper(self, value: cst.BaseExpression) -> list[Spoiled]:
        found = []
        for node in self.ctx.walk(value):
            if type(node) is cst.Call:
                name = dotted_name(node.func)
                if name is not None:
                    found += self.spoils.returning.get(name.rsplit(".", 1)[-1], [])
        return found

    def _helper_result(self, value: cst.BaseExpression, names: list[str]) -> bool:
        """`loss = masked_loss(model(x), y)` with a helper that returns a spoiled graph: `loss` leads to it."""
        found = self._spoiling_helper(value)
        for spoiled in found:
            self.spoiled.append(Spoiled(spoiled.node, spoiled.name, spoiled.saved, set(names)))
        return bool(found)

    def _backward(self, call: cst.Call) -> None:
        read = _reads(call)
        for spoiled in self.spoiled:
            if read & spoiled.witnesses:
                self._report(spoiled)
        for spoiled in self._spoiling_helper(call):
            self._report(spoiled)

    def _returns(self, value: cst.BaseExpression) -> None:
        read = _reads(value)
        reached = [spoiled for spoiled in self.spoiled if read & spoiled.witnesses]
        reached += self._spoiling_helper(value)
        if not reached or self.function is None:
            return
        if self.forward or self.stepped:
            for spoiled in reached:
                self._report(spoiled)
        else:
            self.spoils.returning.setdefault(self.function.name.value, []).extend(reached)

    def _report(self, found: Spoiled) -> None:
        if self.report is not None and id(found.node) not in self.spoils.reported:
            self.spoils.reported.add(id(found.node))
            self.report(found)

    def _grad_off(self, item: cst.BaseExpression) -> bool:
        call = item.func if type(item) is cst.Call else item
        return self.ctx.qualname(call) in _GRAD_OFF


def all_in_place(constructions: list[cst.Call]) -> bool:
    """Every construction builds its layer with `inplace=True`: calling the layer changes its input."""
    return bool(constructions) and all(
        any(arg.keyword is not None and arg.keyword.value == "inplace" and type(arg.value) is cst.Name
            and arg.value.value == "True" for arg in value.args) for value in constructions)


def _training_test(test: cst.BaseExpression) -> bool | None:
    """True for `self.training`, False for `not self.training`, None for any other test. A module's inference
    branch hands its output to no backward pass (detection heads post-process scores in place there)."""
    negated = type(test) is cst.UnaryOperation and type(test.operator) is cst.Not
    if negated:
        test = test.expression  # type: ignore[attr-defined]
    if type(test) is cst.Attribute and test.attr.value == "training" and type(test.value) is cst.Name \
            and test.value.value == "self":
        return not negated
    return None


def _returns(body: Sequence[cst.CSTNode]) -> bool:
    """The block ends in a `return` (or `raise`) statement."""
    last = body[-1] if body else None
    return type(last) is cst.SimpleStatementLine and type(last.body[-1]) in (cst.Return, cst.Raise)  # type: ignore


def _grad_off_decorator(ctx, decorator: cst.Decorator) -> bool:
    expr = decorator.decorator
    return ctx.qualname(expr.func if type(expr) is cst.Call else expr) in ("torch.no_grad", "torch.inference_mode")


def _is_model_output(ctx, call: cst.Call, caller: cst.FunctionDef | None) -> bool:
    """`model(x)` with `model` a module of this file or a weighted torch.nn layer, or, in a body that runs
    backward, any object called directly that is neither a function of this file nor an import; through tensor
    methods that keep the graph (`model(x).squeeze(1)`)."""
    while type(call.func) is cst.Attribute and type(call.func.value) is cst.Call \
            and call.func.attr.value not in DETACHING:
        call = call.func.value
    func = call.func
    if type(func) is not cst.Name and type(func) is not cst.Attribute \
            or type(func) is cst.Attribute and func.attr.value in DETACHING:
        return False
    class_def = instance_class(ctx, func)
    if class_def is not None:
        return is_torch_module_class(ctx, class_def)
    if ctx.qualname(func) is not None:
        return False
    name = dotted_name(func)
    if name is None or name.rsplit(".", 1)[-1] in ctx.functions:
        return False
    return _runs_backward(ctx, caller)


def _stored_parameter(ctx: Context, value: cst.BaseExpression, caller: cst.FunctionDef | None) -> bool:
    """`self.w_ih` handed by a method of a class whose methods assign it `nn.Parameter(...)` (a module handing its
    weights to a functional cell of another module): a tensor that requires grad."""
    if type(value) is not cst.Attribute or type(value.value) is not cst.Name or value.value.value != "self" \
            or caller is None:
        return False
    class_def = ctx.class_of_method(caller)
    if class_def is None:
        return False
    values = ctx.analysis(SavedTensors).attributes(class_def).get(value.attr.value, [])
    return bool(values) and all(type(v) is cst.Call and ctx.qualname(v.func) == "torch.nn.Parameter"
                                for v in values)


def _runs_backward(ctx: Context, function: cst.FunctionDef | None) -> bool:
    """Whether the body of `function` (None: module-level code) runs a backward pass, by the training-loop record.
    That records a pass where the code calls `backward`, so a file whose text lacks the word has none: the lint
    loads the record for files that hold it (`reads`). A linted loss helper's file may lack it while the trainer
    importing the helper holds it: without the record, the body's own `x.backward()` calls say."""
    loop = sys.modules.get(TRAINING_LOOP)
    if loop is None:  # a linted `losses.py` without the word, reading the body of a `train.py` that imports it
        body = [function] if function is not None else \
            [s for s in ctx.module.body if type(s) not in (cst.FunctionDef, cst.ClassDef)]
        return any(type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "backward"
                   for statement in body for node in ctx.walk(statement))
    return any(event.kind == "backward" for event in loop.training_loop(ctx).in_function(function))

