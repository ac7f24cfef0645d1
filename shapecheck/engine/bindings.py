"""The bindings floor's half of the traversal: the bookkeeping that keeps a `Context` current as the engine's single
pass goes through a module (imports, bindings, scopes, loops, grad mode, call sites), and `traverse`, which runs the
pass with it and the visitors of the floors above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from shapecheck.engine.context import CallSite, Context
from shapecheck.engine.syntax import dotted_name, last_name
from shapecheck.engine.traversal import Bookkeeping, Traversal


def traverse(ctx: Context, visitors: Sequence[object], kind: Callable[..., Traversal] = Traversal) -> Traversal:
    """Run the single pass over `ctx.module`, keeping `ctx` current and showing every node to `visitors` in order
    (the recording analyses first, then the rules); the finished traversal holds the visitors that crashed. `kind`
    makes the traversal: a subclass of `Traversal` (the editor server's leaves some visitors out where their
    findings are kept)."""
    traversal = kind(ctx.module, visitors, ctx, _ENTER, _LEAVE, ctx.ancestors)
    traversal.run()
    return traversal



def _enter_import(ctx: Context, node: cst.Import) -> None:
    for alias in node.names:
        dotted = dotted_name(alias.name)
        if dotted is None:
            continue
        if dotted == "torch" or dotted.startswith("torch."):
            ctx.imports_torch = True
        if alias.asname is not None and type(alias.asname.name) is cst.Name:
            ctx._bind(alias.asname.name.value, "import", None, node, qualname=dotted)
        else:
            root = dotted.split(".", 1)[0]
            ctx._bind(root, "import", None, node, qualname=root)


def _enter_import_from(ctx: Context, node: cst.ImportFrom) -> None:
    if isinstance(node.names, cst.ImportStar):
        module = dotted_name(node.module) if node.module is not None and not node.relative else None
        if module is not None and (module == "torch" or module.startswith("torch.")):
            ctx.imports_torch = True
            ctx._star_imported(module)
        return
    # a relative import keeps its dots (`from .model import Net` binds ".model.Net", `from . import utils` binds
    # ".utils"): the objects floor finds the file
    named = dotted_name(node.module) if node.module is not None else ""
    if named is None:
        return
    dots = "." * len(node.relative)
    module = dots + named
    prefix = f"{module}." if named else dots
    if module == "torch" or module.startswith("torch."):
        ctx.imports_torch = True
    for alias in node.names:
        if type(alias.name) is not cst.Name:
            continue
        local = alias.name.value
        if alias.asname is not None and type(alias.asname.name) is cst.Name:
            local = alias.asname.name.value
        ctx._bind(local, "import", None, node, qualname=prefix + alias.name.value)


def _enter_function(ctx: Context, node: cst.FunctionDef) -> None:
    ctx._bind(node.name.value, "def", None, node)
    ctx.functions.setdefault(node.name.value, []).append(node)
    if ctx._scope.kind == "class":
        ctx._method_classes[id(node)] = ctx._scope.node
    ctx._functions.append(node)
    ctx._push_scope("function", node)
    for decorator in node.decorators:
        effect = ctx._grad_effect(decorator.decorator)
        if effect != "none":
            ctx._frame.grad.append(effect)
    _bind_params(ctx, node.params, node)


def _bind_params(ctx: Context, params: cst.Parameters, owner: cst.CSTNode) -> None:
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        ctx._bind(param.name.value, "param", param.default, owner)
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            ctx._bind(star.name.value, "param", None, owner)


def _leave_function(ctx: Context, node: cst.FunctionDef) -> None:
    ctx._pop_scope()
    ctx._functions.pop()


def _enter_lambda(ctx: Context, node: cst.Lambda) -> None:
    ctx._push_scope("lambda", node)
    _bind_params(ctx, node.params, node)


def _enter_class(ctx: Context, node: cst.ClassDef) -> None:
    ctx._bind(node.name.value, "class", None, node)
    ctx.class_defs.append(node)
    ctx._classes.append(node)
    ctx._push_scope("class", node)


def _leave_class(ctx: Context, node: cst.ClassDef) -> None:
    ctx._pop_scope()
    ctx._classes.pop()


def _enter_comprehension(ctx: Context, node: cst.CSTNode) -> None:
    ctx._push_scope("comprehension", node)


def _leave_scope(ctx: Context, node: cst.CSTNode) -> None:
    ctx._pop_scope()


def _enter_comp_for(ctx: Context, node: cst.CompFor) -> None:
    ctx._bind_target(node.target, "comp", node.iter, node)


def _enter_loop(ctx: Context, node: cst.CSTNode) -> None:
    if type(node) is cst.For:
        ctx._bind_target(node.target, "for", node.iter, node)
    ctx._frame.loops.append(node)


def _leave_loop(ctx: Context, node: cst.CSTNode) -> None:
    ctx._frame.loops.pop()


def _enter_else(ctx: Context, node: cst.Else) -> None:
    # A loop's `else:` runs once, after the last pass (`for batch in loader: ... else: model.eval()`): not in the loop.
    loop = ctx.parent
    if type(loop) in (cst.For, cst.While) and loop.orelse is node:  # type: ignore[union-attr]
        ctx._frame.loops.pop()


def _leave_else(ctx: Context, node: cst.Else) -> None:
    loop = ctx.parent
    if type(loop) in (cst.For, cst.While) and loop.orelse is node:  # type: ignore[union-attr]
        ctx._frame.loops.append(loop)


def _enter_with(ctx: Context, node: cst.With) -> None:
    effect: bool | None | str = "none"
    for item in node.items:
        item_effect = ctx._grad_effect(item.item)
        if item_effect != "none":
            effect = item_effect
        if item.asname is not None:
            ctx._bind_target(item.asname.name, "with", item.item, node)
    # Pushed for every `with`, so leaving always pops; a non-grad manager inherits the mode around it.
    grad = ctx._frame.grad
    grad.append(effect if effect != "none" else (grad[-1] if grad else None))


def _leave_with(ctx: Context, node: cst.With) -> None:
    ctx._frame.grad.pop()


def _leave_assign(ctx: Context, node: cst.Assign) -> None:
    for target in node.targets:
        ctx._bind_target(target.target, "assign", node.value, node)


def _leave_ann_assign(ctx: Context, node: cst.AnnAssign) -> None:
    if node.value is not None:
        ctx._bind_target(node.target, "assign", node.value, node)


def _leave_aug_assign(ctx: Context, node: cst.AugAssign) -> None:
    ctx._bind_target(node.target, "aug", None, node)


def _leave_walrus(ctx: Context, node: cst.NamedExpr) -> None:
    ctx._bind_target(node.target, "walrus", node.value, node)


def _enter_except(ctx: Context, node: cst.ExceptHandler) -> None:
    if node.name is not None:
        ctx._bind_target(node.name.name, "except", None, node)


def _leave_del(ctx: Context, node: cst.Del) -> None:
    ctx._bind_target(node.target, "del", None, node)


def _enter_call(ctx: Context, node: cst.Call) -> None:
    key = last_name(node.func)
    if not key:
        return  # `f()()`: no name to find the call by
    ctx._order += 1
    ctx.calls.setdefault(key, []).append(CallSite(node, ctx.grad_disabled, ctx.function, ctx.loop, ctx._order,
                                                            ctx._seq))


_ENTER: dict[type, Bookkeeping] = {
    cst.Import: _enter_import,
    cst.ImportFrom: _enter_import_from,
    cst.FunctionDef: _enter_function,
    cst.Lambda: _enter_lambda,
    cst.ClassDef: _enter_class,
    cst.ListComp: _enter_comprehension,
    cst.SetComp: _enter_comprehension,
    cst.DictComp: _enter_comprehension,
    cst.GeneratorExp: _enter_comprehension,
    cst.CompFor: _enter_comp_for,
    cst.For: _enter_loop,
    cst.While: _enter_loop,
    cst.Else: _enter_else,
    cst.With: _enter_with,
    cst.ExceptHandler: _enter_except,
    cst.Call: _enter_call,
}
_LEAVE: dict[type, Bookkeeping] = {
    cst.FunctionDef: _leave_function,
    cst.Lambda: _leave_scope,
    cst.ClassDef: _leave_class,
    cst.ListComp: _leave_scope,
    cst.SetComp: _leave_scope,
    cst.DictComp: _leave_scope,
    cst.GeneratorExp: _leave_scope,
    cst.For: _leave_loop,
    cst.While: _leave_loop,
    cst.Else: _leave_else,
    cst.With: _leave_with,
    cst.Assign: _leave_assign,
    cst.AnnAssign: _leave_ann_assign,
    cst.AugAssign: _leave_aug_assign,
    cst.NamedExpr: _leave_walrus,
    cst.Del: _leave_del,
}
