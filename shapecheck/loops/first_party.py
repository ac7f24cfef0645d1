"""The functions and methods a file's first-party imports bring in, for the training-loop record: with `from utils
import evaluate`, `evaluate(model, loader)` is a helper as if the file defined it, and with `from trainer import
Trainer`, `trainer.evaluate()` is matched by name to Trainer's methods, as a same-file method is.

The module is read as the objects floor reads it (`shapecheck.objects.project`: the definitions asked for and what
they use, in one context shared with the evaluator), which the training-loop record traverses too, so its helpers'
events are known where they are.
Only names the file calls and does not define itself are looked for.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import libcst as cst

from shapecheck.engine.context import Context, Point
from shapecheck.engine.syntax import dotted_name
from shapecheck.objects.factories import built_returns, returned_by_definition
from shapecheck.objects.project import PROJECT, candidates, imported_from, split_relative


def imported_functions(ctx: Context) -> Iterator[tuple[str, cst.FunctionDef, Context]]:
    """Each function or method of the project's modules that `ctx`'s module-level imports bring in and that the file
    calls by a name it does not define, with that name (`train` for `from loops import train_distill as train`) and
    the context of its module (which the training-loop record traversed: `PROJECT.record_with`)."""
    wanted = {name for name in ctx.calls if name not in ctx.functions}
    if not wanted:
        return
    seen: set[int] = set()
    found: set[tuple[str, int]] = set()  # a base's method, reached through each module of a class inheriting it
    for bound, bindings in ctx._module_scope().bindings.items():
        for binding in bindings:
            if binding.kind != "import" or not binding.qualname:
                continue
            other = _module_context(ctx, bound, binding.qualname)
            if other is None:
                continue
            imported = binding.qualname.rsplit(".", 1)[-1]
            if bound != imported and bound in wanted:  # `from loops import train_distill as train`
                for definition, where in _defined(other, imported):
                    yield bound, definition, where
            if id(other) in seen:
                continue
            seen.add(id(other))
            for name in wanted:
                for definition, where in _defined(other, name, through=imported if imported != name else None):
                    if (name, id(definition)) not in found:
                        found.add((name, id(definition)))
                        yield name, definition, where


def returned_by_imported(ctx: Context, call: cst.Call, index: int | None = None
                         ) -> tuple[cst.BaseExpression, Point, Context] | None:
    """What a call of a function another module of the project defines returns, as `returned_by_definition` reads it
    there (`train_loader, valid_loader = get_dataloaders(4)` with `from data import get_dataloaders`), with that
    module's context to read it in; None when the name is not one such function."""
    if type(call.func) is not cst.Name:
        return None
    found = [(definition, other) for name, definition, other in imported_functions(ctx)
             if name == call.func.value and other is not ctx]
    if len(found) != 1:
        return None
    definition, other = found[0]
    returned = returned_by_definition(other, definition, index)
    return None if returned is None else (*returned, other)


# A package's `__init__` re-exporting its helpers (`from .engine import train_one_epoch`) is how projects lay out
# their loops; a chain of re-exports past that is rare, and each step reads another module.
_RE_EXPORTS = 1


def _defined(ctx: Context, name: str, depth: int = 0, through: str | None = None
             ) -> Iterator[tuple[cst.FunctionDef, Context]]:
    """The definitions of `name` in the module of `ctx`, or in the project module it imports the name from (`from
    pkg import train_one_epoch`, where `pkg/__init__.py` re-exports it from `.engine`), or the class `through` the
    file imports from it (`from models import GANModel`, re-exported from `.gan_model`), each with its module's
    context; a method also where a class of the module inherits it from a base of another module."""
    if name in ctx.functions:
        for definition in ctx.functions[name]:
            yield definition, ctx
        return
    if depth < _RE_EXPORTS:
        for bound in (name, through) if through is not None else (name,):
            for binding in ctx._module_scope().bindings.get(bound, ()):
                if binding.kind == "import" and binding.qualname:
                    other = _module_context(ctx, bound, binding.qualname)
                    if other is None:
                        continue
                    if bound != through:
                        yield from _defined(other, binding.qualname.rsplit(".", 1)[-1], depth + 1)
                        continue
                    for definition, where in _defined(other, name, depth + 1):
                        if where.class_of_method(definition) is not None:  # the class's, or a base's
                            yield definition, where
        if through is not None and through in ctx.functions:
            # `from models import create_model`: the methods of the classes that factory builds
            for built in _factory_classes(ctx, through) - ctx.functions.keys():
                for definition, where in _defined(ctx, name, depth, through=built):
                    if where.class_of_method(definition) is not None:
                        yield definition, where
    yield from _inherited(ctx, name)


def _factory_classes(ctx: Context, factory: str) -> set[str]:
    """The names of the classes the module-level function `factory` of `ctx`'s module builds and returns, as the
    module binds them (pix2pix's `create_model(opt)`: `model = MODELS[opt.model](opt)` of a dict of classes the
    module imports, or `model = Pix2PixModel(opt)`, then `return model`); empty where a `return` gives anything
    else."""
    definitions = ctx.functions.get(factory, ())
    if len(definitions) != 1 or ctx.class_of_method(definitions[0]) is not None:
        return set()
    built = built_returns(definitions[0])
    if built is None:
        return set()
    names: set[str] = set()
    for value in built:
        func = value.func if type(value) is cst.Call else None
        if type(func) is cst.Name:
            names.add(func.value)
        elif type(func) is cst.Subscript and type(func.value) is cst.Name:
            with ctx.at(ctx.module_point()):  # a module-level dict of the classes (`MODELS = {"pix2pix": ...}`)
                registry, _ = ctx.value_of(func.value)
            if type(registry) is not cst.Dict or not all(
                    type(e) is cst.DictElement and type(e.value) is cst.Name for e in registry.elements):
                return set()
            names.update(e.value.value for e in registry.elements)  # type: ignore[union-attr]
        else:
            return set()
    return names


def _inherited(ctx: Context, name: str) -> Iterator[tuple[cst.FunctionDef, Context]]:
    """The method `name` a class of `ctx`'s module inherits from a base another project module defines (pix2pix's
    `GANModel(BaseModel)` with `from .base_model import BaseModel`, whose `update_learning_rate` an epoch loop
    calls)."""
    bases = {base.value.value for class_def in ctx.class_defs for base in class_def.bases
             if type(base.value) is cst.Name}
    for base in sorted(bases):
        for binding in ctx._module_scope().bindings.get(base, ()):
            if binding.kind != "import" or not binding.qualname:
                continue
            other = _module_context(ctx, base, binding.qualname)
            for definition in other.functions.get(name, ()) if other is not None else ():
                owner = other.class_of_method(definition)
                if owner is not None and owner.name.value == binding.qualname.rsplit(".", 1)[-1]:
                    yield definition, other


def base_methods(ctx: Context, class_def: cst.ClassDef, name: str, depth: int = 0
                 ) -> Iterator[tuple[cst.FunctionDef, Context]]:
    """The method `name` that `class_def` (of `ctx`'s module) inherits, each with its module's context: defined by a
    base of the same module or of a project module the file imports it from (`class RegressionTrainer(BaseTrainer)`
    with `from .base import BaseTrainer`), or by that base's own bases, two classes up."""
    for base in class_def.bases:
        if type(base.value) is not cst.Name:
            continue
        found: list[tuple[cst.ClassDef, Context]] = [(other, ctx) for other in ctx.class_defs
                                                     if other.name.value == base.value.value]
        if not found:
            for binding in ctx._module_scope().bindings.get(base.value.value, ()):
                if binding.kind != "import" or not binding.qualname:
                    continue
                other_ctx = _module_context(ctx, base.value.value, binding.qualname)
                imported = binding.qualname.rsplit(".", 1)[-1]
                found += [(other, other_ctx) for other in (other_ctx.class_defs if other_ctx is not None else ())
                          if other.name.value == imported]
        if len(found) != 1:
            continue
        base_def, where = found[0]
        methods = [statement for statement in base_def.body.body
                   if type(statement) is cst.FunctionDef and statement.name.value == name]
        if methods:
            yield methods[0], where
        elif depth < 1:
            yield from base_methods(where, base_def, name, depth + 1)


def _module_context(ctx: Context, bound: str, qualname: str) -> Context | None:
    """The context of the project module an import binding names, holding the imported definition (`from m import
    f`), or the attributes of the module the file calls (`import m` ... `m.f()`)."""
    level, name = split_relative(qualname)
    if not level and name.split(".", 1)[0] in sys.stdlib_module_names | {"torch"}:
        return None
    tries = [*candidates(name), (name, "")]
    if _called_attributes(ctx, bound):  # `import utils.metrics as metrics` / `from utils import metrics`, then
        tries.insert(0, (name, ""))     # `metrics.test(...)`: the submodule, when there is one
    if level:
        tries.append(("", name))
    for module, attribute in tries:
        path = PROJECT.module_file(ctx.filename, module, level)
        if path is None:
            continue
        names = {attribute.split(".", 1)[0], *imported_from(ctx, module, level)} if attribute \
            else _called_attributes(ctx, bound)
        return PROJECT.context(path, frozenset(names)) if names else None
    return None


def _called_attributes(ctx: Context, module: str) -> set[str]:
    """`f` for each `module.f(...)` the file makes."""
    prefix = module + "."
    return {dotted[len(prefix):].split(".", 1)[0] for sites in ctx.calls.values() for site in sites
            if (dotted := dotted_name(site.node.func)) is not None and dotted.startswith(prefix)}
