"""Where a same-file helper or class is called from, and where each caller's names are read.

Training scripts hand their objects around: `main()` builds the model, the loader and the criterion and calls
`train(model, loader, criterion)`; `Trainer(model, opt)` is constructed in `main()` as often as at module level. A
rule that asks what a helper's parameter holds reads the argument each call passes, with the caller's names as they
end up in its body (`finish()` runs after the whole file): at module level, or in a plain function of the module.
A caller that is a method or a nested function is not followed (its names need a receiver or a closure).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.context import CallSite, Point
from shapecheck.objects.arguments import passed_argument

if TYPE_CHECKING:
    from shapecheck.engine.context import Context


def callers(ctx: Context, name: str) -> list[tuple[CallSite, Point]] | None:
    """The calls of the plain function or class `name` by its bare name, each with the point its arguments are
    read at; None when there are none or one is made where its names cannot be read."""
    return _readable(ctx, ctx.calls_to(name))


def _readable(ctx: Context, sites: list[CallSite]) -> list[tuple[CallSite, Point]] | None:
    """The calls by a bare name among `sites`, each with its point; None when there are none or one's names cannot
    be read."""
    sites = [site for site in sites if type(site.node.func) is cst.Name]
    read = [(site, point) for site in sites if (point := _caller_point(ctx, site)) is not None]
    return read if read and len(read) == len(sites) else None


def _caller_point(ctx: Context, site: CallSite) -> Point | None:
    if site.function is None:
        return ctx.module_point()
    if ctx.class_of_method(site.function) is not None:
        return None
    for _, end, scope in ctx.closed_functions:
        if scope.node is site.function:
            parent = scope.parent
            return Point(scope, end + 1, (), (site.function,)) if parent and parent.kind == "module" else None
    return None


def helper_callers(ctx: Context, definition: cst.FunctionDef) -> list[tuple[CallSite, Point]] | None:
    """The calls of a plain function of the file (`model.train()` is no call of a `def train(...)`: a plain
    function is called by its bare name), each with the point its arguments are read at; None for a method. A
    notebook that defines `train` again has each definition's calls apart (`Context.calls_of`)."""
    return None if ctx.class_of_method(definition) is not None else _readable(ctx, ctx.calls_of(definition))


def every_call_passes(ctx: Context, definition: cst.FunctionDef, parameter: str,
                      holds: Callable[[cst.BaseExpression], bool]) -> bool:
    """Every call of the plain function `definition` passes an argument for `parameter` that `holds` accepts, read
    with the caller's names."""
    sites = helper_callers(ctx, definition)
    if sites is None:
        return False
    for site, point in sites:
        passed = passed_argument(definition, site.node, parameter)
        if passed is None:
            return False
        with ctx.at(point):
            if not holds(passed):
                return False
    return True
