"""What a construction of one of the project's own classes derives from: a rule that goes by a name (`scheduler`)
asks it to tell a project's hand-written object from a library's subclass of the same kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.evaluator import Evaluator
from shapecheck.objects.values import ClassValue

if TYPE_CHECKING:
    from shapecheck.engine.context import Context


def own_class_bases(ctx: Context, call: cst.Call, before: int | None = None) -> list[str | None] | None:
    """When `call` constructs a class of the project (of this file or of a module it imports): the qualnames of
    the other packages' classes among its bases and its project bases' bases, None for a base the analysis cannot
    read; None when the callee is no class of the project."""
    ev = ctx.analysis(Evaluator)
    callee = ev.object(call.func, ev.now() if before is None else before)
    if not isinstance(callee, ClassValue) and before is not None and type(call.func) is cst.Name \
            and ctx.binding(call.func, before) is None:
        # no binding before the call: a function's body builds a class the module defines below it, which the
        # function sees when it runs (MixMatch's `main()` building `WeightEMA`, defined at the end of the file)
        callee = ev.object(call.func, ev.now())
    if not isinstance(callee, ClassValue):
        return None
    return ev.calls.outside_bases(callee)
