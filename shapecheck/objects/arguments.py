"""What a call passes to a parameter of the function (or constructor) it runs, read off the call's arguments."""

from __future__ import annotations

import libcst as cst


def _positional(definition: cst.FunctionDef, call: cst.Call, constructor: bool) -> list[str]:
    params = [param.name.value for param in (*definition.params.posonly_params, *definition.params.params)]
    if (constructor or type(call.func) is cst.Attribute) and params[:1] in (["self"], ["cls"]):
        params = params[1:]
    return params


def receiving_parameter(definition: cst.FunctionDef, call: cst.Call, argument: cst.BaseExpression,
                        constructor: bool = False) -> str | None:
    """The parameter of `definition` that `call` hands the expression `argument` (one of its arguments, by
    identity) to; None when a `*args` before it hides which. With `constructor`, `definition` is the `__init__`
    that a call of its class runs."""
    params = _positional(definition, call, constructor)
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.value is argument:
            if arg.keyword is not None:
                return arg.keyword.value
            return params[index] if index < len(params) else None
    return None


def passed_argument(definition: cst.FunctionDef, call: cst.Call, parameter: str, constructor: bool = False
                    ) -> cst.BaseExpression | None:
    """What `call` passes to `definition`'s `parameter`, by position or keyword; None when it passes nothing there
    or `*args` hides it. With `constructor`, `definition` is the `__init__` that a call of its class runs."""
    params = _positional(definition, call, constructor)
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None and index < len(params) and params[index] == parameter \
                or arg.keyword is not None and arg.keyword.value == parameter:
            return arg.value
    return None


def parameter_default(definition: cst.FunctionDef, call: cst.Call, parameter: str) -> cst.BaseExpression | None:
    """The default of `definition`'s `parameter` where `call` certainly passes nothing there (`def train(model,
    loader, criterion=nn.CrossEntropyLoss())` called as `train(net, loader)`); None when it passes one, a `*args` or
    `**kwargs` may, or the parameter has no default."""
    if any(arg.star for arg in call.args) or any(arg.keyword is not None and arg.keyword.value == parameter
                                                  for arg in call.args):
        return None
    params = definition.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == parameter:
            return param.default
    return None
