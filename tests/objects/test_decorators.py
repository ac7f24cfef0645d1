"""Which decorators a call of a project function is read through (`called_as_written`)."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context
from shapecheck.objects.decorators import called_as_written

SOURCE = '''
import functools
import torch
from beartype import beartype
from jaxtyping import jaxtyped
from torch import no_grad

def wrap(fn):
    return fn

nograd = torch.no_grad()

@torch.no_grad()
def grad_mode(x): ...

@no_grad()
def imported_grad_mode(x): ...

@functools.lru_cache(maxsize=None)
def cached(n): ...

@jaxtyped(typechecker=beartype)
def checked(x): ...

def plain(x): ...

@wrap
def project_wrapper(x): ...

@nograd
def alias(x): ...

@torch.no_grad()
@wrap
def stacked(x): ...
'''


def test_only_decorators_that_call_the_function_with_the_callers_arguments_are_read_through() -> None:
    module = cst.parse_module(SOURCE)
    ctx = Context(module, "decorated.py")
    traverse(ctx, [])
    functions = [statement for statement in module.body if type(statement) is cst.FunctionDef]
    through = {function.name.value: called_as_written(ctx, function) for function in functions}
    assert through == {"wrap": True, "grad_mode": True, "imported_grad_mode": True, "cached": True, "checked": True,
                       "plain": True, "project_wrapper": False, "alias": False, "stacked": False}
