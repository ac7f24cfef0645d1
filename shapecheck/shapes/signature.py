"""A function's jaxtyping signature against the shapes the code gives it: the return annotation against what a
`return` returns, the parameter annotations against the arguments of a call.

A contradiction is only what the shapes prove: another rank, two literals that differ, two different annotation
names of the same function in the same place (rigid, see `dims.same`), or one annotation name that two arguments give
sizes proven different. Open dims (`_`, `#name`) and arithmetic in the annotation (`n+1`) match anything, and so
does a name that only the return annotation uses (`-> Float[Tensor, "*bs out_dim"]` with no parameter naming
`out_dim`): the return binds it.

Code that tests a shape before it returns or calls (`if image.shape[-1] == 3: return image`) knows more than the
analysis, which does not follow conditions: `shape_tested` tells the rules to trust it.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from typing import TYPE_CHECKING

from shapecheck.engine.context import Context
from shapecheck.objects.classes import function_facts
from shapecheck.objects.executor import function_facts_names
from shapecheck.objects.values import FunctionValue
from shapecheck.shapes.annotations import stated_shape
from shapecheck.objects.dims import Atom, Dim, same
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


_SHAPE_TESTS = frozenset({"shape", "ndim", "size", "dim", "numel", "ndimension"})


def return_shape(ctx: Context, function: cst.FunctionDef) -> Shape | None:
    """The shape `function`'s return annotation states, with names no parameter uses left open; None without a
    jaxtyping one."""
    if function.returns is None:
        return None
    return _opened(ctx, function.returns.annotation, function, "returned")


def assigned_shape(ctx: Context, annotation: cst.BaseExpression, scope: cst.CSTNode) -> Shape | None:
    """The shape an annotated assignment in `scope` (a function, or the module for a module's or a class body's
    assignment) states, with names no parameter of the function uses left open: jaxtyping binds such a name to the
    value's size (`y: Float[Tensor, "B 32"] = torch.zeros(4, 32)` makes `B` 4), and outside a function nothing makes
    a name stand for every size (a pydantic field `kl: Float[Tensor, "batch seq"] = torch.empty(0, 1024)`)."""
    return _opened(ctx, annotation, scope, "assigned")


def _opened(ctx: Context, annotation: cst.BaseExpression, scope: cst.CSTNode, opened: str) -> Shape | None:
    declared = stated_shape(ctx, annotation, scope)
    if declared is None:
        return None
    named = set()
    if type(scope) is cst.FunctionDef:
        params = scope.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.annotation is not None:
                shape = stated_shape(ctx, param.annotation.annotation, scope)
                if shape is not None:
                    named.update(atom for dim in shape.dims for atom in dim.atoms)
    dims = tuple(dim if dim.atoms <= named else Dim.symbol((opened, dim), str(dim)) for dim in declared.dims)
    return declared.with_dims(dims, declared.layout)


def shape_tested(ctx: Context) -> bool:
    """The node being visited is under an `if`/`while`/conditional expression, in its function, whose test reads a
    shape (`.shape`, `.ndim`, `.size(...)`, `.dim()`)."""
    for ancestor in reversed(ctx.ancestors):
        if type(ancestor) in (cst.FunctionDef, cst.Lambda):
            return False
        if type(ancestor) in (cst.If, cst.While, cst.IfExp) and any(
                type(node) is cst.Attribute and node.attr.value in _SHAPE_TESTS for node in ctx.walk(ancestor.test)):
            return True
    return False


def parameter_shapes(ctx: Context, function: cst.FunctionDef,
                     call: cst.Call) -> list[tuple[str, cst.Arg, Shape]]:
    """(parameter name, argument, annotated shape) for each argument of `call` that lands on a parameter of
    `function` with a jaxtyping annotation; empty when `*args`/`**kwargs` hide which argument goes where."""
    params = function.params
    if any(arg.star for arg in call.args) or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) \
            and not isinstance(params.star_arg, cst.ParamStar):
        return []
    positional = [*params.posonly_params, *params.params]
    by_name = {param.name.value: param for param in (*positional, *params.kwonly_params)}
    found = []
    index = 0
    for arg in call.args:
        if arg.keyword is None:
            if index >= len(positional):
                return []
            param = positional[index]
            index += 1
        else:
            param = by_name.get(arg.keyword.value)
            if param is None:
                return []
        if param.annotation is None:
            continue
        shape = stated_shape(ctx, param.annotation.annotation, function)
        if shape is not None:
            found.append((param.name.value, arg, shape))
    return found


def argument_shapes(ev: ShapeEvaluator, callee: FunctionValue, call: cst.Call,
                    before: int) -> list[tuple[str, Shape, Shape]]:
    """(parameter name, the argument's shape, the annotated shape) for each tensor argument of `call` that lands on
    a parameter of `callee` (a function or method of the project, of this file or another) with a jaxtyping
    annotation."""
    values = ev.calls.arguments(callee, call, before)
    if values is None:
        return []
    found = []
    for param in (*function_facts(callee.ctx, callee.node).params, *function_facts(callee.ctx, callee.node).kwonly):
        value = values.get(param.name.value)
        if param.annotation is None or not isinstance(value, Shape):
            continue
        declared = stated_shape(callee.ctx, param.annotation.annotation, callee.node)
        if declared is not None:
            found.append((param.name.value, value, declared))
    return found


def parameters_in_run(ev: ShapeEvaluator, function: cst.FunctionDef,
                      version: int) -> list[tuple[str, Shape, Shape]]:
    """(parameter name, the shape it holds in a run of `function`, read at `version` of that run, the annotated
    shape) for each parameter with a jaxtyping annotation that the function never rebinds (so what it holds at
    `version` is what the call gave it)."""
    rebound = set(function_facts_names(function.body))
    facts = function_facts(ev.ctx, function)
    found = []
    for param in (*facts.params, *facts.kwonly):
        if param.annotation is None or param.name.value in rebound:
            continue
        declared = stated_shape(ev.ctx, param.annotation.annotation, function)
        value = ev.tensor(param.name, version) if declared is not None else None
        if value is not None:
            found.append((param.name.value, value, declared))  # type: ignore[arg-type]
    return found


def annotated_result(ev: ShapeEvaluator, callee: FunctionValue, call: cst.Call, before: int) -> Shape | None:
    """The shape `callee`'s jaxtyping return annotation promises for this call: its names take the sizes the
    arguments give them (`def f(x: Float[Tensor, "B D"]) -> Float[Tensor, "B 10"]` called with (32, 64) gives
    (32, 10)); a name no argument fixes is a size of this call's own. None without such an annotation, or when the
    arguments contradict it (SC108's)."""
    returns = getattr(callee.node, "returns", None)  # a lambda has no annotation
    if returns is None:
        return None
    declared = stated_shape(callee.ctx, returns.annotation, callee.node)
    if declared is None:
        return None
    arguments = argument_shapes(ev, callee, call, before)
    if call_contradiction(arguments) is not None:
        # SC108 reports the call; its names bound from an argument the annotation rejects would make every later
        # use of the result a finding of its own, with sizes that exist only in the contradiction
        return None
    sizes: dict[Atom, Dim] = {}
    for _, actual, stated in arguments:
        for _, given, wanted in _aligned(actual, stated):  # type: ignore[misc]
            atoms = wanted.atoms
            if len(atoms) == 1 and wanted == Dim((((next(iter(atoms)),), 1),)) and next(iter(atoms)).rigid:
                sizes.setdefault(next(iter(atoms)), given)
    dims = []
    for dim in declared.dims:
        dim = dim.substitute(sizes)
        dims.append(dim.substitute({atom: Dim.symbol(("returned", id(call), atom.name), atom.name)
                                    for atom in dim.atoms if atom.rigid}))
    return declared.with_dims(tuple(dims), declared.layout)


def contradiction(inferred: Shape, declared: Shape) -> str | None:
    """Why a tensor of shape `inferred` can't be one of shape `declared`; None when it may be."""
    pairs = _aligned(inferred, declared)
    if isinstance(pairs, str):
        return pairs
    for position, actual, wanted in pairs:
        if _pinned(wanted) and same(actual, wanted) is False:
            return f"dim {position} is {actual} where the annotation has {wanted}"
    return _name_moved(pairs)


def _name_moved(pairs: list[tuple[int, Dim, Dim]]) -> str | None:
    """An annotation name in the place of a name only this annotation uses, while the place the annotation gives it
    holds another size: `(max_len, B)` returned as `"B T"`, a mask built time-major (`T` would bind to `B`, two names
    of one size; the size in `B`'s place, a length, is not proven to be `B`). A name the result holds in its own place
    too (`x @ x.T` returned as `"N M"`) is not moved."""
    pinned = {wanted: (position, actual) for position, actual, wanted in pairs if _pinned(wanted)}
    for position, actual, wanted in pairs:
        if _pinned(wanted) or wanted.atom is None or actual.atom is None or not actual.atom.rigid:
            continue
        own = pinned.get(actual)
        if own is not None and own[0] != position and same(own[1], actual) is not True:
            return f"dim {position} is {actual} where the annotation has {wanted} (it puts {actual} in dim {own[0]})"
    return None


def call_contradiction(arguments: list[tuple[str, Shape, Shape]]) -> str | None:
    """Why arguments (parameter name, inferred shape, annotated shape) can't all fit one call; None when they may.
    Each annotation name takes the size of the first argument that pins it; a later argument that gives it a size
    proven different contradicts it."""
    bound: dict[Dim, tuple[str, Dim]] = {}
    for name, inferred, declared in arguments:
        pairs = _aligned(inferred, declared)
        if isinstance(pairs, str):
            return f"`{name}` is {inferred.render()}, annotated {declared.render()}: {pairs}"
        for position, actual, wanted in pairs:
            if not _pinned(wanted):
                continue
            if wanted.literal is not None:
                if same(actual, wanted) is False:
                    return f"`{name}` is {inferred.render()}, annotated {declared.render()}: dim {position} is " \
                           f"{actual}, not {wanted}"
                continue
            if wanted in bound:
                first, size = bound[wanted]
                if same(actual, size) is False:
                    return f"`{wanted}` is {size} in `{first}` but {actual} in `{name}` (annotated " \
                           f"{declared.render()})"
            else:
                bound[wanted] = (name, actual)
    return None


def _pinned(dim: Dim) -> bool:
    """A literal, or one annotation name: the sizes an annotation holds the code to."""
    if dim.literal is not None:
        return True
    return dim.atom is not None and dim.atom.rigid


def _aligned(inferred: Shape, declared: Shape) -> list[tuple[int, Dim, Dim]] | str:
    """(position, inferred dim, declared dim) for the dims both shapes pin down, or why their ranks can't agree."""
    if declared.variadic is None and inferred.variadic is None:
        if inferred.rank != declared.rank:
            return f"rank {inferred.rank}, not {declared.rank}"
        return [(i, a, b) for i, (a, b) in enumerate(zip(inferred.dims, declared.dims))]
    if declared.variadic is not None and inferred.variadic is None and inferred.rank < len(declared.dims):
        return f"rank {inferred.rank}, not at least {len(declared.dims)}"
    if inferred.variadic is not None and declared.variadic is None and len(inferred.dims) > declared.rank:
        return f"rank at least {len(inferred.dims)}, not {declared.rank}"
    return list(_ends(inferred, declared))


def _ends(inferred: Shape, declared: Shape) -> Iterator[tuple[int, Dim, Dim]]:
    """Pairs from the left up to the first unknown run, and from the right back to the last one."""
    head_a, tail_a = _split(inferred)
    head_b, tail_b = _split(declared)
    for i, (a, b) in enumerate(zip(head_a, head_b)):
        yield i, a, b
    for k, (a, b) in enumerate(zip(reversed(tail_a), reversed(tail_b)), start=1):
        yield -k, a, b


def _split(shape: Shape) -> tuple[tuple[Dim, ...], tuple[Dim, ...]]:
    if shape.variadic is None:
        return shape.dims, shape.dims
    return shape.dims[:shape.variadic], shape.dims[shape.variadic:]
