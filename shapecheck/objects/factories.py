"""What a name unpacked from a same-file factory holds: `model, optimizer = build(args)` with `def build(args): ...
return model, optimizer`.

Scripts build their objects in one function and hand them out as a tuple. The name's binding says only "element 0
of `build(args)`"; the factory's `return` says what that element is, read with the factory's own names as they end
up in its body (a factory with one `return` of a tuple, defined at module level; anything else stays unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.context import Point
from shapecheck.engine.walker import walk_pruned

if TYPE_CHECKING:
    from shapecheck.engine.context import Binding, Context


def unpacked_from_factory(ctx: Context, binding: Binding) -> tuple[cst.BaseExpression, Point] | None:
    """For a name bound by unpacking a call of a same-file function, the element of the function's returned
    tuple at the name's position and the point to read it at; None when that is not certain."""
    call = binding.value
    if binding.kind != "unpack" or binding.index is None or binding.starred or type(call) is not cst.Call:
        return None
    return returned_by_factory(ctx, call, binding.index)


def returned_by_factory(ctx: Context, call: cst.Call, index: int | None = None, methods: bool = False
                        ) -> tuple[cst.BaseExpression, Point] | None:
    """What a call of a same-file function returns (`batches(3)` with `def batches(n): return [...]`), or the
    element `index` of the tuple it returns, and the point to read it at; None when that is not certain (a factory
    with more than one `return`, a method, a nested definition). With `methods`, also `self.standardized()` in a
    method of the class that defines it, when no other definition in the file has that name (a subclass's override
    would answer instead)."""
    func, owner = call.func, None
    if type(func) is cst.Name:
        name = func.value
    elif methods and type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self" \
            and ctx.function is not None and (owner := ctx.class_of_method(ctx.function)) is not None:
        name = func.attr.value
    else:
        return None
    definitions = ctx.functions.get(name, [])
    if len(definitions) != 1 or ctx.class_of_method(definitions[0]) is not owner:
        return None
    return returned_by_definition(ctx, definitions[0], index, owner)


def returned_by_imported(ctx: Context, call: cst.Call, index: int | None = None
                         ) -> tuple[cst.BaseExpression, Point, Context] | None:
    """What `returned_by_factory` reads, for a call of a function another module of the project defines
    (`X, y = synthetic_regression(n, d)` of `from data import synthetic_regression`): the returned expression, the
    point to read it at and that module's context; None when that is not certain."""
    from shapecheck.objects.project import imported_function

    found = imported_function(ctx, call.func)
    if found is None:
        return None
    definition, other = found
    returned = returned_by_definition(other, definition, index)
    return None if returned is None else (*returned, other)


def returned_by_definition(ctx: Context, factory: cst.FunctionDef, index: int | None = None,
                           owner: cst.ClassDef | None = None) -> tuple[cst.BaseExpression, Point] | None:
    """What `returned_by_factory` reads of a function of `ctx`'s module (a method of `owner`) once it is found: its
    one `return`, or the element `index` of the tuple it returns, and the point to read it at."""
    returns = [node for node in ctx.walk(factory.body) if type(node) is cst.Return]
    nested = [node for node in ctx.walk(factory.body) if type(node) in (cst.FunctionDef, cst.Lambda, cst.ClassDef)]
    if len(returns) != 1 or nested or returns[0].value is None:
        return None
    returned: cst.BaseExpression = returns[0].value
    if index is not None:
        if type(returned) is not cst.Tuple:
            return None
        elements = returned.elements
        if index >= len(elements) or any(type(element) is cst.StarredElement for element in elements):
            return None
        returned = elements[index].value
    for _, end, scope in ctx.closed_functions:
        parent = scope.parent
        if scope.node is not factory or parent is None:
            continue
        if owner is None and parent.kind == "module":
            return returned, Point(scope, end + 1, (), (factory,))
        if owner is not None and parent.kind == "class" and parent.parent is not None \
                and parent.parent.kind == "module":
            return returned, Point(scope, end + 1, (owner,), (factory,))
    return None


# What a function defines inside it returns to its own callers (pix2pix's `lambda_rule` inside `get_scheduler`).
_NESTED = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


def built_returns(factory: cst.FunctionDef) -> list[cst.BaseExpression] | None:
    """What each `return` of `factory` may give, a returned local name read as every value the function assigns it
    (`scheduler = lr_scheduler.LambdaLR(...)` on one branch, `StepLR(...)` on another, then `return scheduler`); the
    functions it defines inside are not its returns. None where a `return` gives nothing or there is none."""
    body = factory.body
    returned = [node.value for node in walk_pruned(body, _NESTED, _NESTED) if type(node) is cst.Return]
    if not returned or None in returned:
        return None
    built: list[cst.BaseExpression] = []
    for value in returned:
        if type(value) is cst.Name:
            built += [node.value for node in walk_pruned(body, _NESTED, _NESTED) if type(node) is cst.Assign
                      and any(type(t.target) is cst.Name and t.target.value == value.value for t in node.targets)]
        else:
            built.append(value)  # type: ignore[arg-type]
    return built or None
