"""Modules a statement freezes (`requires_grad_(False)`): their forward passes record no graph of their own.

A module of its own, not part of `training_loop`: rules that only ask whether a module is frozen (SC207) import it
without registering the training-loop record for every file they read.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import is_false


def frozen_module(ctx: Context, node: cst.CSTNode) -> str | None:
    """The module a statement being visited freezes, as spelled: `model.requires_grad_(False)`, or `p.requires_grad
    = False` in `for p in model.parameters():` (or `named_parameters()`). Its forward passes record no graph of their
    own: their outputs need grad only when their inputs do."""
    if type(node) is cst.Expr:
        call = node.value
        if type(call) is cst.Call and len(call.args) == 1 and is_false(call.args[0].value) \
                and type(call.func) is cst.Attribute and call.func.attr.value == "requires_grad_":
            return ctx.code(call.func.value)
        return None
    if type(node) is not cst.Assign:
        return None
    target = node.targets[0].target
    if type(target) is not cst.Attribute or target.attr.value != "requires_grad" or not is_false(node.value):
        return None
    loop = ctx.loop
    if type(loop) is cst.For and type(loop.iter) is cst.Call and type(loop.iter.func) is cst.Attribute \
            and loop.iter.func.attr.value in ("parameters", "named_parameters"):
        return ctx.code(loop.iter.func.value)
    return None
