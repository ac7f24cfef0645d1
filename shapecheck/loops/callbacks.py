"""Callbacks and hooks a trainer runs at points of its loop, for the training-loop record.

Trainers hand parts of their step to objects they are given: `for cb in self.callbacks: cb.on_epoch_start(self)`
at the top of the epoch loop, `for hook in self._hooks: getattr(hook, event)()` in a `_call_hooks(event)` that the
loop calls as `self._call_hooks("before_step")`, a dict registry iterated by `.values()`. What a callback does there
(step a scheduler, clip gradients) happens at that point of the loop's order. The trainer's module rarely imports
the callbacks: the script that builds the trainer does, and hands them in (`Trainer(model, callbacks=[LRCallback(
sched)])`). So the callbacks are the methods of that name of the classes of this file, of the project modules it
imports, and of those that the modules importing it (the scripts building the trainer) import.

A dispatch is a call of a method of the target of the `for` loop it sits in, the loop running over a collection
(`self.callbacks`, `callbacks`, `self.hooks.values()`); the method's name is the call's, or for `getattr(cb,
name)(...)` the string the dispatcher's caller passes for its parameter `name`. Names of the training events
themselves (`for opt in self.optimizers: opt.step()`) are the record's own and are no dispatch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.objects.project import PROJECT, sibling_files

if TYPE_CHECKING:
    from shapecheck.engine.context import CallSite, Context


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, eq=False)
class Dispatch:
    """A call running one method of each callback: `method` named by the call, or `parameter`, the dispatcher's
    parameter whose value names it (`getattr(cb, event)(...)`)."""

    site: CallSite
    method: str | None
    parameter: str | None


def dispatches(ctx: Context, events: frozenset[str]) -> list[Dispatch]:
    """The file's calls that run a method of each object of a collection a loop goes over, less those whose name
    is in `events` (the record's own training events)."""
    found = []
    for name, sites in ctx.calls.items():
        if name in events:
            continue
        for site in sites:
            loop = site.loop
            if type(loop) is not cst.For or type(loop.target) is not cst.Name or not _collection(loop.iter):
                continue
            target = loop.target.value
            func = site.node.func
            if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == target:
                if _statement_of(site.node, loop) is not None:
                    found.append(Dispatch(site, func.attr.value, None))
            elif name == "getattr" and _named_by_parameter(site.node, target, site.function):
                # the call of what `getattr(cb, event)` gives, which the file's calls do not list by a name
                outer = _statement_of(site.node, loop)
                if outer is not None:
                    found.append(Dispatch(replace(site, node=outer), None,
                                          site.node.args[1].value.value))  # type: ignore[attr-defined]
    return found


def _collection(iterated: cst.BaseExpression) -> bool:
    """A collection of objects held by name: `callbacks`, `self.callbacks`, `self.hooks.values()`."""
    if type(iterated) is cst.Call and not iterated.args and type(iterated.func) is cst.Attribute \
            and iterated.func.attr.value == "values":
        iterated = iterated.func.value
    return dotted_name(iterated) is not None


def _statement_of(func: cst.Call, loop: cst.For) -> cst.Call | None:
    """The call that is a statement of the loop's body (not of its `else`, nor nested in another expression) and
    is `func` or calls it (`getattr(cb, event)(trainer)`)."""
    for statement in loop.body.body:  # type: ignore[attr-defined]
        for small in statement.body if type(statement) is cst.SimpleStatementLine else ():
            call = small.value if type(small) is cst.Expr else None
            if type(call) is cst.Call and (call is func or call.func is func):
                return call
    return None


def _named_by_parameter(func: cst.Call, target: str, function: cst.FunctionDef | None) -> bool:
    """`getattr(target, name)` with `name` a parameter of `function`."""
    if len(func.args) != 2 \
            or function is None or any(arg.keyword or arg.star for arg in func.args):
        return False
    obj, name = func.args[0].value, func.args[1].value
    return type(obj) is cst.Name and obj.value == target and type(name) is cst.Name and any(
        param.name.value == name.value for param in (*function.params.posonly_params, *function.params.params,
                                                     *function.params.kwonly_params))


def callback_methods(ctx: Context, name: str) -> list[tuple[cst.FunctionDef, Context]]:
    """The methods named `name` of the classes of this file and of the modules near it, or where they define none,
    of the other modules beside it (`neighbours`), each with its module's context."""
    word = f"def {name}("
    return _methods((ctx, *neighbours(ctx, word, near=True)), name) \
        or _methods(neighbours(ctx, word, near=False), name)


def _methods(modules: Iterable[Context], name: str) -> list[tuple[cst.FunctionDef, Context]]:
    return [(definition, other) for other in modules for definition in other.functions.get(name, ())
            if other.class_of_method(definition) is not None]


def neighbours(ctx: Context, word: str, near: bool) -> Iterator[Context]:
    """The contexts of the modules where a trainer's callbacks, or the trainer running a file's callbacks, may be
    (`objects.project.sibling_files`, `near` or not), of those whose text holds `word`: the others are not
    parsed."""
    imports = "\n".join(ctx.code(statement) for statement in ctx.module.body
                        if type(statement) is cst.SimpleStatementLine
                        and any(type(small) in (cst.Import, cst.ImportFrom) for small in statement.body))
    for path in sorted(sibling_files(imports, ctx.filename, near)):
        summary = PROJECT.summary(path)
        if summary is None or not any(word in line for line in summary.lines):
            continue
        other = PROJECT.context(path, frozenset({"*"}))
        if other is not None:
            yield other
