"""The engine's single pass over a module: it keeps the shared analysis current and dispatches to every rule.

For each node: the engine's own `visit` bookkeeping, then every rule's `visit_<Node>`, then the children in source
order, then every rule's `leave_<Node>`, then the engine's own `leave` bookkeeping (so a rule looking at
`x = x.transpose(0, 1)` still sees the old binding of `x`). A rule that raises is dropped for the rest of the file
and reported once as an internal error; the other rules go on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from shapecheck.engine.context import CallSite, Context
from shapecheck.engine.model_outputs import is_forward_return
from shapecheck.engine.rule import Rule
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.training_loop import EVENT_CALLS, IN_PLACE_UPDATES, is_grad_target
from shapecheck.engine.walker import NODE_TYPES, child_fields

Handler = Callable[[cst.CSTNode], object]
Bookkeeping = Callable[[Context, cst.CSTNode], None]
# A node type's rule handlers (visit, leave), the fields holding its children, the engine's own enter and leave.
_Entry = tuple[tuple[tuple[Rule, Handler], ...], tuple[tuple[Rule, Handler], ...], tuple[str, ...],
               Bookkeeping | None, Bookkeeping | None]


class RuleCrash(Exception):
    def __init__(self, rule: Rule, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.rule = rule
        self.error = error


class Traversal:
    def __init__(self, ctx: Context, rules: Sequence[Rule]) -> None:
        self.ctx = ctx
        self.rules = list(rules)
        self.crashes: list[RuleCrash] = []
        self._dispatch: dict[type, _Entry] = {}
        # Node types worth a visit: those with children, engine bookkeeping or a rule handler. The rest (strings,
        # numbers, `pass`, and names when no rule looks at them) are skipped by their parent.
        self._visited: set[type] = set(NODE_TYPES)

    def run(self) -> None:
        self._visit(self.ctx.module)
        for rule in list(self.rules):
            try:
                rule.finish()
            except Exception as error:  # noqa: BLE001 - a crashing rule must not stop the others
                self._crashed(rule, error)

    # ------------------------------------------------------------------------------------------------ dispatch

    def _entry(self, cls: type) -> _Entry:
        name = cls.__name__
        visits = tuple((rule, getattr(rule, "visit_" + name)) for rule in self.rules if hasattr(rule, "visit_" + name))
        leaves = tuple((rule, getattr(rule, "leave_" + name)) for rule in self.rules if hasattr(rule, "leave_" + name))
        entry = (visits, leaves, child_fields(cls), _ENTER.get(cls), _LEAVE.get(cls))
        if not any(entry):
            self._visited.discard(cls)
        self._dispatch[cls] = entry
        return entry

    def _crashed(self, rule: Rule, error: BaseException) -> None:
        self.crashes.append(RuleCrash(rule, error))
        self.rules.remove(rule)
        self._dispatch.clear()  # fewer handlers from now on, so fewer types are worth a visit

    def _visit(self, node: cst.CSTNode) -> None:
        cls = type(node)
        visits, _, fields, enter, leave = self._dispatch.get(cls) or self._entry(cls)
        ancestors = self.ctx.ancestors
        ancestors.append(node)
        if enter is not None:
            enter(self.ctx, node)
        for rule, handler in visits:
            try:
                handler(node)
            except Exception as error:  # noqa: BLE001
                if rule in self.rules:
                    self._crashed(rule, error)
        # `walker.children` inlined: this loop runs for every node of every file, where a generator per node
        # would cost a few percent of the parse.
        visited = self._visited
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for item in value:
                    if type(item) in visited:
                        self._visit(item)
            elif kind in visited:
                self._visit(value)
        leaves = (self._dispatch.get(cls) or self._entry(cls))[1]  # a crash above may have dropped a rule
        for rule, handler in leaves:
            try:
                handler(node)
            except Exception as error:  # noqa: BLE001
                if rule in self.rules:
                    self._crashed(rule, error)
        if leave is not None:
            leave(self.ctx, node)
        ancestors.pop()


# ------------------------------------------------------------------------------------- the engine's bookkeeping


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
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return
    module = dotted_name(node.module)
    if module is None:
        return
    if module == "torch" or module.startswith("torch."):
        ctx.imports_torch = True
    for alias in node.names:
        if type(alias.name) is not cst.Name:
            continue
        local = alias.name.value
        if alias.asname is not None and type(alias.asname.name) is cst.Name:
            local = alias.asname.name.value
        ctx._bind(local, "import", None, node, qualname=f"{module}.{alias.name.value}")


def _enter_function(ctx: Context, node: cst.FunctionDef) -> None:
    ctx._bind(node.name.value, "def", None, node)
    ctx.functions.setdefault(node.name.value, []).append(node)
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
    ctx.training._loop(node)


def _leave_loop(ctx: Context, node: cst.CSTNode) -> None:
    ctx._frame.loops.pop()


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
    func = node.func
    if type(func) is cst.Name:
        key = func.value
    elif type(func) is cst.Attribute:
        key = func.attr.value
    else:
        return
    ctx._order += 1
    ctx.calls.setdefault(key, []).append(CallSite(node, ctx.grad_disabled, ctx.function, ctx.loop, ctx._order))
    # Every reset name has "rad" in it (`zero_grad`, `clear_grads`): a substring test spares the rest on most calls.
    if key in EVENT_CALLS or key in IN_PLACE_UPDATES or "rad" in key:
        ctx.training._call(node, key)


def _enter_aug_assign(ctx: Context, node: cst.AugAssign) -> None:
    if ctx.loops:
        ctx.training._update(node)


def _enter_assign(ctx: Context, node: cst.Assign) -> None:
    if any(is_grad_target(target.target) for target in node.targets):
        ctx.training._grad_reset(node)
    elif ctx.loops:
        ctx.training._update(node)


def _enter_del(ctx: Context, node: cst.Del) -> None:
    if is_grad_target(node.target):
        ctx.training._grad_reset(node)


def _enter_return(ctx: Context, node: cst.Return) -> None:
    class_def = is_forward_return(ctx.ancestors, node)
    if class_def is not None:
        ctx._record_return(node, class_def)


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
    cst.With: _enter_with,
    cst.ExceptHandler: _enter_except,
    cst.Call: _enter_call,
    cst.AugAssign: _enter_aug_assign,
    cst.Assign: _enter_assign,
    cst.Del: _enter_del,
    cst.Return: _enter_return,
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
    cst.With: _leave_with,
    cst.Assign: _leave_assign,
    cst.AnnAssign: _leave_ann_assign,
    cst.AugAssign: _leave_aug_assign,
    cst.NamedExpr: _leave_walrus,
    cst.Del: _leave_del,
}
