"""Modules a statement freezes (`requires_grad_(False)`): their forward passes record no graph of their own.

A module of its own, not part of `training_loop`: rules that only ask whether a module is frozen (SC207) import it
without registering the training-loop record for every file they read.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import is_false
from shapecheck.objects.arguments import parameter_default, passed_argument


def frozen_module(ctx: Context, node: cst.CSTNode) -> str | None:
    """The module a statement being visited freezes, as spelled: `model.requires_grad_(False)`, or `p.requires_grad
    = False` in `for p in model.parameters():` (or `named_parameters()`). Its forward passes record no graph of their
    own: their outputs need grad only when their inputs do. Also through a function of the file that does the
    latter for the module and the flag it is handed, called with `False` (`requires_grad(generator, False)`)."""
    if type(node) is cst.Expr:
        call = node.value
        if type(call) is not cst.Call:
            return None
        if len(call.args) == 1 and is_false(call.args[0].value) \
                and type(call.func) is cst.Attribute and call.func.attr.value == "requires_grad_":
            return ctx.code(call.func.value)
        return _frozen_by_helper(ctx, call)
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


def _frozen_by_helper(ctx: Context, call: cst.Call) -> str | None:
    """The module a call of a file's function freezes: rosinality's GAN trainers' `requires_grad(model, flag)`, a
    loop `for p in model.parameters(): p.requires_grad = flag`, called with `False` for `flag`."""
    if type(call.func) is not cst.Name:
        return None
    function = ctx.functions_by_name().get(call.func.value)
    if function is None:
        return None
    for loop in ctx.walk(function.body):
        if type(loop) is not cst.For or type(loop.target) is not cst.Name or type(loop.iter) is not cst.Call \
                or type(loop.iter.func) is not cst.Attribute or type(loop.iter.func.value) is not cst.Name \
                or loop.iter.func.attr.value != "parameters":
            continue
        for statement in ctx.walk(loop.body):
            if type(statement) is not cst.Assign or type(statement.value) is not cst.Name:
                continue
            target = statement.targets[0].target
            if type(target) is cst.Attribute and target.attr.value == "requires_grad" \
                    and type(target.value) is cst.Name and target.value.value == loop.target.value:
                flag = passed_argument(function, call, statement.value.value) \
                    or parameter_default(function, call, statement.value.value)
                module = passed_argument(function, call, loop.iter.func.value.value)
                if flag is not None and is_false(flag) and module is not None:
                    return ctx.code(module)
    return None
