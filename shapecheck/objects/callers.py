"""Where a same-file helper or class is called from, and where each caller's names are read.

Training scripts hand their objects around: `main()` builds the model, the loader and the criterion and calls
`train(model, loader, criterion)`; `Trainer(model, opt)` is constructed in `main()` as often as at module level. A
rule that asks what a helper's parameter holds reads the argument each call passes, with the caller's names as they
end up in its body (`finish()` runs after the whole file): at module level, or in a plain function of the module.
A caller that is a nested function is not followed (its names need a closure). A trainer's method is called on
`self` by its other methods and on an instance by the script (`Trainer(model).fit(data)`): `method_callers` reads
those calls, in the calling method with its own parameters, so a rule can follow `fit(data)` ->
`self._batch(data[i:j])`.

A project hands its objects across files too: `train.py` builds the model and calls `engine.py`'s
`train_one_epoch(model, loader, optimizer)`, or `predictor.py`'s `SpanPredictor(model, vocab)`. `project_callers`
adds the calls in the project's modules that import the function or class (`objects.project.importer_files`, through
package `__init__`s that re-export it), each with that module's context to read its names in: a `Caller`. A module
that imports the name but whose calls cannot be read (too large to read, a call in a nested function) makes the
callers unknown, as a same-file one does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.context import Binding, CallSite, Point
from shapecheck.engine.records import record
from shapecheck.engine.syntax import is_self_attribute
from shapecheck.engine.walker import walk
from shapecheck.objects.arguments import parameter_default, passed_argument
from shapecheck.objects.evaluator import Evaluator
from shapecheck.objects.modules import returned_self
from shapecheck.objects.values import ClassValue
from shapecheck.objects.project import PROJECT, candidates, importers_through_packages, resolved, split_relative

if TYPE_CHECKING:
    from shapecheck.engine.context import Context


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, eq=False)
class Caller:
    """A call of a function or class, the point its names are read at, and the context that point is in: the
    linted file's, or that of another module of the project that imports the callee."""

    site: CallSite
    point: Point
    ctx: Context


def project_callers(ctx: Context, definition: cst.FunctionDef | cst.ClassDef) -> list[Caller] | None:
    """The calls of a plain function (`helper_callers`) or the constructions of a class (`callers`) of the file,
    and those in the project's other modules that import it; None when there are none, or when one's names cannot
    be read (here or in an importer), or when the project is too large to search for importers."""
    if type(definition) is cst.ClassDef:
        local = _read(ctx, ctx.calls_to(definition.name.value))
    elif ctx.class_of_method(definition) is not None:
        return None
    else:
        local = _read(ctx, ctx.calls_of(definition))
    if local is None:
        return None
    with ctx.at(ctx.module_point()):
        binding = ctx.binding(definition.name.value)
    # what another module imports by the name: the module's last binding of it (not a `def` nested in a function,
    # nor one a later `def` of the same name replaces)
    exported = binding is not None and binding.statement is definition
    elsewhere = imported_callers(ctx, definition.name.value) if exported else []
    if elsewhere is None:
        return None
    return [Caller(site, point, ctx) for site, point in local] + elsewhere or None


def imported_callers(ctx: Context, name: str) -> list[Caller] | None:
    """The calls of the module-level `name` of `ctx`'s file in the project's modules that import it (`from engine
    import train`, `import engine` then `engine.train(...)`, or through a package's `__init__` that imports it),
    each read in that module's context; None when an importer or one of its calls cannot be read. In a project too
    large to search whole, the importers nearest the file (`importer_files`' partial search): unknown there would
    silence every rule that reads a same-file caller in a large repository."""
    found: list[Caller] = []
    for other, targets in _importers_naming(ctx, name):
        if other is None:
            return None
        for site in other.calls_to(name):
            point = _caller_point(other, site)
            callee = site.node.func
            with other.at(point or other.module_point()):
                qualname = other.qualname(callee)
            if qualname is None or not _names_one_of(other, qualname, name, targets):
                continue  # a name of the importer's own, or another module's `name`
            if point is None:
                return None
            found.append(Caller(site, point, other))
    return found


def _importers_naming(ctx: Context, name: str, *words: str) -> Iterator[tuple[Context | None, set[Path | None]]]:
    """Each project module that may import the module-level `name` of `ctx`'s file (directly, or through a package's
    `__init__` that imports it) and whose text holds `name` and every one of `words`, read in its own context (None
    when it cannot be read), with the module files that hold `name` so far: this one, then the packages re-exporting
    it, whose importers are listed after them. Resolving a file is a look-up in the file system, asked for each
    function a rule follows the callers of: done only once an importer names it."""
    targets: set[Path | None] = set()
    for path, text, _ in importers_through_packages(ctx.filename, lambda _, text: name in text, partial=True):
        if name not in text:
            continue
        if not targets:
            targets.add(resolved(ctx.filename))
        if Path(path).name == "__init__.py":
            targets.add(resolved(path))
        elif all(word in text for word in words):
            yield PROJECT.context(Path(path), frozenset({"*"})), targets


def _names_one_of(ctx: Context, qualname: str, name: str, targets: set[Path | None]) -> bool:
    """The imported dotted name `qualname` (as `ctx`'s file spells it) is `name` of one of the module files
    `targets`."""
    level, dotted = split_relative(qualname)
    for module, attribute in candidates(dotted) if dotted != name else [("", name)]:
        if attribute == name:
            return PROJECT.module_file(ctx.filename, module, level) in targets
    return False


def callers(ctx: Context, name: str) -> list[tuple[CallSite, Point]] | None:
    """The calls of the plain function or class `name` by its bare name, each with the point its arguments are
    read at; None when there are none or one is made where its names cannot be read."""
    return _readable(ctx, ctx.calls_to(name))


def _readable(ctx: Context, sites: list[CallSite]) -> list[tuple[CallSite, Point]] | None:
    """The calls by a bare name among `sites`, each with its point; None when there are none or one's names cannot
    be read."""
    return _read(ctx, sites) or None


def _read(ctx: Context, sites: list[CallSite]) -> list[tuple[CallSite, Point]] | None:
    """The calls by a bare name among `sites`, each with its point (none: empty); None when one's names cannot be
    read."""
    sites = [site for site in sites if type(site.node.func) is cst.Name]
    read = [(site, point) for site in sites if (point := _caller_point(ctx, site)) is not None]
    return read if len(read) == len(sites) else None


def _caller_point(ctx: Context, site: CallSite) -> Point | None:
    """Where the caller's names are read: module level, the end of a plain function of the module, or the end of a
    method of a module-level class (`self.conv1 = Conv4d(1, width, 3)` in another module's `__init__`: a model
    builds its layers in its own constructor)."""
    if site.function is None:
        return ctx.module_point()
    class_def = ctx.class_of_method(site.function)
    for _, end, scope in ctx.closed_functions:
        if scope.node is site.function:
            parent = scope.parent
            if class_def is not None:
                module = parent is not None and parent.kind == "class" and parent.parent is not None \
                    and parent.parent.kind == "module"
                return Point(scope, end + 1, (class_def,), (site.function,)) if module else None
            return Point(scope, end + 1, (), (site.function,)) if parent and parent.kind == "module" else None
    return None


def method_callers(ctx: Context, definition: cst.FunctionDef) -> list[tuple[CallSite, Point]] | None:
    """The calls of the method `definition` of a module-level class, each with the point its arguments are read at:
    `self.name(...)` in another method of the class, `Class(...).name(...)`, and `obj.name(...)` with `obj` bound
    once to `Class(...)`; a call on an object a library made (`self.opt.step()`, `self.opt = torch.optim.Adam(...)`)
    is not one. None when there are none, or when any other call by that name has a receiver that is not one of
    those (`model.fit(X, y)` of some other object might be this method's call, with other arguments)."""
    owner = ctx.class_of_method(definition)
    if owner is None:
        return None
    read = []
    for site in ctx.calls_of(definition):
        func = site.node.func
        if type(func) is not cst.Attribute:
            return None
        point = _caller_point(ctx, site)
        if point is None:
            return None
        with ctx.at(point):
            if _library_object(ctx, func.value):
                continue  # `self.opt.step()` is no call of a trainer's `step`
            if not _instance_of(ctx, func.value, owner, site):
                return None
        read.append((site, point))
    return read or None


def certain_method_callers(ctx: Context, definition: cst.FunctionDef) -> list[tuple[CallSite, Point]]:
    """The calls of the method `definition` that certainly are its (`self.name(...)` in another method of its
    class, `obj.name(...)` with `obj` bound once to `Class(...)`), each with the point its arguments are read at,
    whatever other calls share its name: a trainer's `self.backward(g_loss, d_loss)` beside `g_loss.backward()`,
    where `method_callers` gives up. Some of its calls, not all."""
    owner = ctx.class_of_method(definition)
    if owner is None:
        return []
    read = []
    for site in ctx.calls_of(definition):
        func = site.node.func
        if type(func) is not cst.Attribute:
            continue
        point = _caller_point(ctx, site)
        if point is None:
            continue
        with ctx.at(point):
            if _instance_of(ctx, func.value, owner, site):
                read.append((site, point))
    return read


def imported_calls(ctx: Context, name: str, definition: cst.FunctionDef, other: Context
                   ) -> list[tuple[CallSite, Point]]:
    """The calls in `ctx`'s file of `definition`, a function or a method of a module-level class of the project
    module `other` that the file imports by `name` (`loops.first_party.imported_functions`), each with the point its
    arguments are read at: `name(...)` of a function, `obj.name(...)` of a method on an object certainly built
    from the class the file imports (`self.train_auc = RocAucMeter()`); some of the calls, not all."""
    owner = other.class_of_method(definition)
    imported = None if owner is None else (owner.name.value, {resolved(other.filename)})
    found = []
    for site in ctx.calls_to(name):
        func = site.node.func
        point = _caller_point(ctx, site)
        if point is None or type(func) is not (cst.Name if owner is None else cst.Attribute):
            continue
        with ctx.at(point):
            if owner is None:
                binding = ctx.binding(func)  # type: ignore[arg-type]  # a Name here
                certain = binding is not None and binding.kind == "import"
            else:
                certain = _instance_of(ctx, func.value, owner, site, imported)  # type: ignore[attr-defined]
        if certain:
            found.append((site, point))
    return found


def _library_object(ctx: Context, receiver: cst.BaseExpression) -> bool:
    """The receiver certainly holds what an imported library made: no instance of a class of this file, nor of one
    a module of the project defines (`forecaster = Forecaster(model)` after `from forecast import Forecaster`)."""
    value, _ = ctx.value_of(receiver)
    if ctx.framework_of(value) is None:
        return False
    qualname = ctx.qualname(value.func if type(value) is cst.Call else value)
    if qualname is None:
        return True
    level, dotted = split_relative(qualname)
    return not level and not any(PROJECT.module_file(ctx.filename, module, 0) for module, _ in candidates(dotted))


def _instance_of(ctx: Context, receiver: cst.BaseExpression, owner: cst.ClassDef, site: CallSite,
                 imported: tuple[str, set[Path | None]] | None = None) -> bool:
    """`receiver` is certainly an instance of `owner` where `site` calls: `self` in a method of `owner`,
    `Owner(...)`, a name whose one binding is `Owner(...)`, or `self.attr` that every method of the caller's class
    binds to `Owner(...)` (`self.meter = AverageMeter()`). `imported`: `ctx` is another module's, where `Owner` is
    the name imported from one of the module files given."""
    if type(receiver) is cst.Name and receiver.value == "self":
        return site.function is not None and ctx.class_of_method(site.function) is owner \
            and bool(site.function.params.params) and site.function.params.params[0].name.value == "self"
    if is_self_attribute(receiver):
        bindings = ctx.attribute_bindings(receiver)  # type: ignore[arg-type]  # `self.attr` is an Attribute
        return bool(bindings) and all(binding.kind == "assign" and binding.value is not None
                                      and _constructs(ctx, binding.value, owner, imported) for binding in bindings)
    if type(receiver) is cst.Name:
        binding = ctx.binding(receiver, before=site.seq + 1)
        value = _assigned(binding) if binding is not None else None
        if value is None or not _reaches(binding.path, site.node):  # type: ignore[union-attr]
            return False
        receiver = value
    return _constructs(ctx, receiver, owner, imported)


def _assigned(binding: Binding) -> cst.BaseExpression | None:
    """What an assignment binds the name to: its value, or its element of a tuple written out (`net, criterion =
    Net(), Loss()`)."""
    if binding.kind == "assign":
        return binding.value
    value = binding.value
    if binding.kind != "unpack" or binding.index is None or binding.starred \
            or type(value) not in (cst.Tuple, cst.List):
        return None
    elements = value.elements  # type: ignore[union-attr]
    targets = binding.unpacking_elements()
    if targets is None or len(targets) != len(elements) or any(type(e) is not cst.Element for e in elements):
        return None
    return elements[binding.index].value


def _constructs(ctx: Context, value: cst.BaseExpression, owner: cst.ClassDef,
                imported: tuple[str, set[Path | None]] | None = None) -> bool:
    """`value` is `Owner(...)`: of the class itself, or (`imported`) of the name another module imports it by;
    `Owner(cfg).to(device)` too, which is the module built."""
    value = returned_self(value)
    if type(value) is not cst.Call or type(value.func) is not cst.Name:
        return False
    binding = ctx.binding(value.func)
    if binding is None:
        return False
    if imported is None:
        return binding.kind == "class" and binding.statement is owner
    qualname = ctx.qualname(value.func)
    return binding.kind == "import" and qualname is not None and _names_one_of(ctx, qualname, *imported)


def self_calls(methods: Iterable[cst.FunctionDef], name: str) -> Iterator[tuple[cst.FunctionDef, list[cst.Call]]]:
    """The calls `self.name(...)` in `methods` (the methods of one class), grouped by the method making them, for
    each method that makes some: where a helper method's result goes is read at these (SC212 follows what a
    `self._build_mask(n)` returns through the methods that call it, up to three calls down)."""
    for method in methods:
        calls = [node for node in walk(method.body) if type(node) is cst.Call and is_self_attribute(node.func)
                 and node.func.attr.value == name]  # type: ignore[attr-defined]  # `self.x` is an Attribute
        if calls:
            yield method, calls


def helper_callers(ctx: Context, definition: cst.FunctionDef) -> list[tuple[CallSite, Point]] | None:
    """The calls of a plain function of the file (`model.train()` is no call of a `def train(...)`: a plain
    function is called by its bare name), each with the point its arguments are read at; None for a method. A
    notebook that defines `train` again has each definition's calls apart (`Context.calls_of`)."""
    return None if ctx.class_of_method(definition) is not None else _readable(ctx, ctx.calls_of(definition))


def every_call_passes(ctx: Context, definition: cst.FunctionDef, parameter: str,
                      holds: Callable[[Context, cst.BaseExpression], bool], methods: bool = False,
                      defaults: bool = False) -> bool:
    """Every call of the plain function `definition`, in this file or in a module that imports it (with `methods`,
    also of a method: `every_method_caller`), passes an argument for `parameter` that `holds` accepts, given the
    context to read it in, read with the caller's names; a call passing nothing there fails, unless `defaults`:
    then it leaves the parameter's default (`def make_coefficients(values=(1, 2, 1))` called as
    `make_coefficients()`), read where the `def` ran."""
    if ctx.class_of_method(definition) is None:
        sites = project_callers(ctx, definition)
    else:
        sites = every_method_caller(ctx, definition) if methods else None
    return bool(sites) and all(_passes(definition, caller, parameter, holds,  # type: ignore[arg-type]
                                       defaults=ctx if defaults else None) for caller in sites)  # type: ignore


def calls_passing(ctx: Context, definition: cst.FunctionDef, parameter: str,
                  holds: Callable[[Context, cst.BaseExpression], bool]) -> list[Caller]:
    """The calls of `definition` whose argument for `parameter` `holds` accepts: of a plain function as for
    `every_call_passes`, of a method those that certainly are its (`certain_method_callers`), and of a `forward`
    the calls of an instance that run it (`instance_callers`: `self.hyper_conv(adj, self.embedding.weight)`). A
    helper that raises on what one call hands it raises there, whatever the others hand it."""
    instances: list[Caller] = []
    if ctx.class_of_method(definition) is None:
        sites = project_callers(ctx, definition) or []
    else:
        sites = [Caller(site, point, ctx) for site, point in certain_method_callers(ctx, definition)]
        sites += imported_method_callers(ctx, definition)
        instances = instance_callers(ctx, definition)
    # an instance call binds `self` as a construction does
    return [caller for caller in sites if _passes(definition, caller, parameter, holds)] + \
        [caller for caller in instances if _passes(definition, caller, parameter, holds, constructor=True)]


def method_calls(ctx: Context, definition: cst.FunctionDef,
                 is_instance: Callable[[Context, cst.BaseExpression], bool]) -> list[Caller]:
    """The calls `obj.name(...)` of the method `definition` of a module-level class, in this file and in the
    project's modules that import the class, whose receiver `is_instance` accepts, read at the call in its module's
    context: a floor that follows what an attribute holds (`self.net` stored from a constructor that is handed the
    class's instance) decides. Some of the calls, not all."""
    found = []
    for site in ctx.calls_of(definition):
        func = site.node.func
        point = _caller_point(ctx, site)
        if type(func) is cst.Attribute and point is not None:
            with ctx.at(point):
                if is_instance(ctx, func.value):
                    found.append(Caller(site, point, ctx))
    return found + imported_method_callers(ctx, definition, is_instance)


def imported_method_callers(ctx: Context, definition: cst.FunctionDef,
                            is_instance: Callable[[Context, cst.BaseExpression], bool] | None = None) -> list[Caller]:
    """The calls of the method `definition` of a module-level class of `ctx`'s file made in the project's modules
    that import the class, where the receiver certainly is an instance of it (`self.train_auc.update(probs, y)` with
    `self.train_auc = RocAucMeter()` and `from metrics import RocAucMeter`; `is_instance`, where given, says which
    receivers are), each read in that module's context. A meter, tracker or logger class is written in one module
    and fed in another; some of the calls, not all."""
    found: list[Caller] = []
    for other, site, point, imported in _importer_method_sites(ctx, definition):
        if other is None or site is None or type(site.node.func) is not cst.Attribute or point is None:
            continue
        receiver = site.node.func.value
        with other.at(point):
            certain = is_instance(other, receiver) if is_instance is not None \
                else _instance_of(other, receiver, imported[0], site, imported[1])
        if certain:
            found.append(Caller(site, point, other))
    return found


def every_method_caller(ctx: Context, definition: cst.FunctionDef) -> list[Caller] | None:
    """Every call of the method `definition` of a module-level class: `method_callers` in this file, and in the
    project's modules importing the class every call by the method's name, each certainly on an instance of the
    class (`forecaster.fit(WindowDataset(series))` in `run.py`, `forecaster = Forecaster(model)`) or on what a
    library made; None when one there may be another object's, or where its names cannot be read."""
    local = method_callers(ctx, definition) if ctx.calls_of(definition) else []
    if local is None:
        return None
    found = [Caller(site, point, ctx) for site, point in local]
    for other, site, point, imported in _importer_method_sites(ctx, definition):
        if other is None or site is None or type(site.node.func) is not cst.Attribute or point is None:
            return None
        receiver = site.node.func.value
        with other.at(point):
            if _library_object(other, receiver):
                continue
            if not _instance_of(other, receiver, imported[0], site, imported[1]):
                return None
        found.append(Caller(site, point, other))
    return found


def _importer_method_sites(ctx: Context, definition: cst.FunctionDef) -> Iterator[
        tuple[Context | None, CallSite | None, Point | None, tuple[cst.ClassDef, tuple[str, set[Path | None]]]]]:
    """The calls by the name of the method `definition`, of a module-level class of `ctx`'s file, in each project
    module that may import the class (a module that cannot be read gives one entry of None for its context and its
    call), each with its point and what `_instance_of` needs to tell whether it is on an instance of the class."""
    owner = ctx.class_of_method(definition)
    if owner is None:
        return
    name = owner.name.value
    with ctx.at(ctx.module_point()):
        binding = ctx.binding(name)
    if binding is None or binding.statement is not owner:
        return  # a nested class, or one a later definition of the name replaces: not what others import
    method = definition.name.value
    for other, targets in _importers_naming(ctx, name, method):
        if other is None:
            yield None, None, None, (owner, (name, targets))
            continue
        for site in other.calls_to(method):
            yield other, site, _caller_point(other, site), (owner, (name, targets))


def inherited_self_callers(ctx: Context, definition: cst.FunctionDef) -> list[Caller]:
    """The `self.name(...)` calls that run `definition`, a method of a class, from the methods of one of its
    bases another module of the project defines (a `BaseTrainer.train_epoch` looping over `self.train_step(batch)`,
    which the subclass overrides), each read in that module's context: a template method in one file, its steps
    in another."""
    owner = ctx.class_of_method(definition)
    if owner is None:
        return []
    ev = ctx.analysis(Evaluator)
    found = []
    for base in owner.bases:
        cls = ev.object(base.value, ev.now())
        if not isinstance(cls, ClassValue) or cls.ctx is ctx:
            continue
        other = cls.ctx
        for site in other.calls_to(definition.name.value):
            point = _caller_point(other, site)
            if point is not None and is_self_attribute(site.node.func) and site.function is not None \
                    and other.class_of_method(site.function) is cls.node:
                found.append(Caller(site, point, other))
    return found


def instance_callers(ctx: Context, definition: cst.FunctionDef) -> list[Caller]:
    """The calls `obj(...)` that run `definition`, the `forward` of a module-level class, through the module's
    `__call__`, where `obj` certainly is an instance of the class (a name bound to `Owner(...)`, `self.attr` every
    method binds to one: `self.criterion = YoloLoss(n)`), in this file and in the project's modules that import the
    class, each read in that module's context. A loss or a head is written as a module in one file and called in
    another; some of the calls, not all."""
    owner = ctx.class_of_method(definition)
    if owner is None or definition.name.value != "forward":
        return []
    name = owner.name.value
    with ctx.at(ctx.module_point()):
        binding = ctx.binding(name)
    if binding is None or binding.statement is not owner:
        return []  # a nested class, or one a later definition of the name replaces: not what others import
    found = _instance_calls(ctx, owner, None)
    for other, targets in _importers_naming(ctx, name):
        if other is not None:
            found += _instance_calls(other, owner, (name, targets))
    return found


def _instance_calls(ctx: Context, owner: cst.ClassDef, imported: tuple[str, set[Path | None]] | None
                    ) -> list[Caller]:
    """The calls in `ctx`'s file of an instance of `owner` that a construction by its bare name was bound to."""
    receivers = {name for site in ctx.calls_to(owner.name.value) for name in _bound_to(ctx, site)}
    found = []
    for receiver in sorted(receivers):
        for site in ctx.calls_to(receiver):
            func = site.node.func
            point = _caller_point(ctx, site)
            if point is None or not (type(func) is cst.Name or is_self_attribute(func)):
                continue
            with ctx.at(point):
                if _instance_of(ctx, func, owner, site, imported):
                    found.append(Caller(site, point, ctx))
    return found


def _bound_to(ctx: Context, site: CallSite) -> Iterator[str]:
    """The name or `self` attribute a plain assignment binds the call of `site` to (`criterion = Loss()`,
    `self.criterion = Loss()`)."""
    for node in ctx.walk(site.function or ctx.module):
        if type(node) is not cst.Assign:
            continue
        for target in node.targets:
            bound = target.target
            if node.value is not site.node:  # `net, criterion = Net(), Loss()`
                values, names = node.value, target.target
                if type(values) is not cst.Tuple or type(names) is not cst.Tuple \
                        or len(values.elements) != len(names.elements):
                    continue
                at = next((i for i, element in enumerate(values.elements) if element.value is site.node), None)
                if at is None:
                    continue
                bound = names.elements[at].value
            if type(bound) is cst.Name:
                yield bound.value
            elif is_self_attribute(bound):
                yield bound.attr.value  # type: ignore[attr-defined]  # `self.x` is an Attribute


def _passes(definition: cst.FunctionDef, caller: Caller, parameter: str,
            holds: Callable[[Context, cst.BaseExpression], bool], constructor: bool = False,
            defaults: Context | None = None) -> bool:
    """`caller` passes an argument for `parameter` that `holds` accepts; with `defaults` (the context of the file
    defining `definition`), a call passing nothing there is read as passing the parameter's default."""
    passed = passed_argument(definition, caller.site.node, parameter, constructor)
    if passed is None:
        found = None if defaults is None else argument_at(defaults, definition, caller.site.node, caller.point,
                                                          parameter, constructor)
        if found is None:
            return False
        with defaults.at(found[1]):  # type: ignore[union-attr]  # found only with defaults
            return holds(defaults, found[0])  # type: ignore[arg-type]
    with caller.ctx.at(caller.point):
        return holds(caller.ctx, passed)


def _reaches(statement: flow.Path, call: cst.Call) -> bool:
    """The binding made by `statement` is certainly the one `call`, later in the file, sees: it is made under no
    condition, or `call` is in the same branch or loop body (`if __name__ == "__main__":` binding the trainer and
    calling it)."""
    conditional = [index for index in range(len(statement) - 1) if not flow.unconditional(statement[index:index + 2])]
    return not conditional or _within(statement[conditional[-1] + 1], call)


def _within(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    return node is target or any(_within(child, target) for child in node.children)


def argument_at(ctx: Context, definition: cst.FunctionDef, call: cst.Call, point: Point, parameter: str,
                constructor: bool = False) -> tuple[cst.BaseExpression, Point] | None:
    """What `call` (its names read at `point`) passes to `definition`'s `parameter`; where it passes nothing, the
    parameter's default, read where the `def` of a module-level function or of a method of a module-level class
    ran (its defaults are evaluated then, once). None when neither is known. With `constructor`, `definition` is
    the `__init__` that a call of its class runs."""
    passed = passed_argument(definition, call, parameter, constructor)
    if passed is not None:
        return passed, point
    default = parameter_default(definition, call, parameter)
    if default is None:
        return None
    return (default, ctx.module_point()) if _defined_at_module_level(ctx, definition) else None


def argument_of(ctx: Context, definition: cst.FunctionDef, caller: Caller, parameter: str,
                constructor: bool = False) -> tuple[cst.BaseExpression, Point, Context] | None:
    """`argument_at` of a `Caller`, with the context to read it in: the caller's for what it passes, `ctx`'s (the
    file defining `definition`) for a default."""
    passed = passed_argument(definition, caller.site.node, parameter, constructor)
    if passed is not None:
        return passed, caller.point, caller.ctx
    found = argument_at(ctx, definition, caller.site.node, caller.point, parameter, constructor)
    return None if found is None else (*found, ctx)


def _defined_at_module_level(ctx: Context, definition: cst.FunctionDef) -> bool:
    """A function of the module, or a method of one of its classes: its `def` runs at module level."""
    for _, _, scope in ctx.closed_functions:
        if scope.node is definition:
            parent = scope.parent
            if parent is not None and parent.kind == "class":
                parent = parent.parent
            return parent is not None and parent.kind == "module"
    return False
