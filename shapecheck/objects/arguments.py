"""What a call passes to a parameter of the function (or constructor) it runs, read off the call's arguments."""

from __future__ import annotations

import libcst as cst


def passed_argument(definition: cst.FunctionDef, call: cst.Call, parameter: str, constructor: bool = False
                    ) -> cst.BaseExpression | None:
    """What `call` passes to `definition`'s `parameter`, by position or keyword; None when it passes nothing there
    or `*args` hides it. With `constructor`, `definition` is the `__init__` that a call of its class runs."""
    params = [param.name.value for param in (*definition.params.posonly_params, *definition.params.params)]
    if (constructor or type(call.func) is cst.Attribute) and params[:1] in (["self"], ["cls"]):
        params = params[1:]
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None and index < len(params) and params[index] == parameter \
                or arg.keyword is not None and arg.keyword.value == parameter:
            return arg.value
    return None
