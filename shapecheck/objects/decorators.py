"""Which decorators leave a function as the code wrote it: called with the caller's own arguments, giving what its
body returns.

A run of a project function with a call's arguments (`predict(net, x)` run with `x`) is sound only when the call
reaches the body with those arguments. A decorator may wrap it in anything: `@with_flat_inputs` handing
`x.flatten(1)` on, `@hydra.main` supplying the config, a registry returning something else. Only the decorators
known to pass the call through are read through; any other makes the function's calls unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from shapecheck.engine.context import Context

# grad modes, autograd's casts under autocast (dtypes only), caches, compilers, Python's own method decorators
_PASS_THROUGH = frozenset({
    "torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad", "torch.inference_mode",
    "torch.autograd.inference_mode", "torch.autograd.grad_mode.inference_mode", "torch.enable_grad",
    "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad", "torch.set_grad_enabled",
    "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled",
    "torch.amp.custom_fwd", "torch.amp.custom_bwd", "torch.cuda.amp.custom_fwd", "torch.cuda.amp.custom_bwd",
    "torch.jit.script", "torch.jit.export", "torch.jit.ignore", "torch.jit.unused", "torch.compile",
    "torch.compiler.disable", "functools.cache", "functools.lru_cache", "abc.abstractmethod", "typing.override",
    "typing_extensions.override",
    # runtime type checkers: they raise on a wrong argument, else call the function with it
    "beartype.beartype", "jaxtyping.jaxtyped", "typeguard.typechecked",
})
_BUILTINS = frozenset({"staticmethod", "classmethod"})


def called_as_written(ctx: Context, function: cst.FunctionDef) -> bool:
    """Every decorator of `function` (read with `ctx`, the module defining it) calls it with the call's own
    arguments and returns what it returns: `@torch.no_grad()`, `@staticmethod`, `@lru_cache(maxsize=None)`."""
    for decorator in getattr(function, "decorators", ()):  # a lambda has none
        expr = decorator.decorator
        if type(expr) is cst.Call:
            expr = expr.func
        if type(expr) is cst.Name and expr.value in _BUILTINS:
            continue
        if ctx.qualname(expr) not in _PASS_THROUGH:
            return False
    return True
