"""Facts about the project's functions and classes that the syntax alone states, computed once per node: a class's
methods and where each `self.` attribute is written, a function's local names and parameters.

They are syntactic on purpose: a function can be asked about before the traversal reaches it (a method defined
below the one that calls it), and another module's classes are read the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.records import record
from shapecheck.engine.syntax import is_self_attribute
from shapecheck.engine.walker import walk_pruned

# The methods that change a list or dict in place (`self.clips.append(clip)`).
CHANGERS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                      "sort", "reverse", "add_module"})

# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class ClassFacts:
    methods: dict[str, cst.FunctionDef]
    # attribute -> the methods that assign `self.<attribute>` (plain, augmented or annotated assignment, unpacking)
    writers: dict[str, frozenset[str]]
    # `setattr(self, ...)`, `self.__dict__` writes: any attribute may be set anywhere
    dynamic: bool
    # assignments in the class body itself (`expansion = 4`, `layers: int = 2`)
    class_attributes: dict[str, cst.BaseExpression]
    # attribute -> the methods that assign an item of it (`self.cache[1]["keys"] = k`) or change it in place
    # (`self.clips.append(clip)`)
    item_writers: dict[str, frozenset[str]]


class Facts:
    """The facts of one module's classes and functions, computed once each (keyed by the node: the module's context
    keeps its tree alive as long as the facts)."""

    def __init__(self, ctx: Context) -> None:
        self._classes: dict[int, ClassFacts] = {}
        self._functions: dict[int, FunctionFacts] = {}

    def of_class(self, node: cst.ClassDef) -> ClassFacts:
        found = self._classes.get(id(node))
        if found is None:
            found = self._classes[id(node)] = _class_facts(node)
        return found

    def of_function(self, node: cst.FunctionDef | cst.Lambda | cst.Module) -> FunctionFacts:
        found = self._functions.get(id(node))
        if found is None:
            found = self._functions[id(node)] = _module_facts(node) if type(node) is cst.Module \
                else _function_facts(node)
        return found


def class_facts(ctx: Context, node: cst.ClassDef) -> ClassFacts:
    """The facts of a class of the module `ctx` analyses."""
    return ctx.analysis(Facts).of_class(node)


def function_facts(ctx: Context, node: cst.FunctionDef | cst.Lambda | cst.Module) -> FunctionFacts:
    """The facts of a function of the module `ctx` analyses, or of the module's own code run as one."""
    return ctx.analysis(Facts).of_function(node)


def own_names(node: cst.FunctionDef) -> frozenset[str]:
    """`FunctionFacts.names` of a function, worked out without the module's analysis: for a module fact's part,
    which the editor server computes per statement outside any lint's context."""
    return frozenset(_function_facts(node).names)


def _class_facts(node: cst.ClassDef) -> ClassFacts:
    methods: dict[str, cst.FunctionDef] = {}
    class_attributes: dict[str, cst.BaseExpression] = {}
    for statement in node.body.body:
        if type(statement) is cst.FunctionDef:
            methods[statement.name.value] = statement
        elif type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                if type(small) is cst.Assign:
                    for target in small.targets:
                        if type(target.target) is cst.Name:
                            class_attributes[target.target.value] = small.value
                elif type(small) is cst.AnnAssign and small.value is not None and type(small.target) is cst.Name:
                    class_attributes[small.target.value] = small.value
    writers: dict[str, set[str]] = {}
    item_writers: dict[str, set[str]] = {}
    dynamic = False
    for name, method in methods.items():
        for node_ in _walk_own(method.body):
            kind = type(node_)
            if kind not in _CLASS_READ:  # most of a method: names, operators, calls of no changer
                continue
            targets: list[cst.BaseExpression] = []
            if kind is cst.Assign:
                targets = [t.target for t in node_.targets]  # type: ignore[attr-defined]
            elif kind in (cst.AnnAssign, cst.AugAssign):
                targets = [node_.target]  # type: ignore[attr-defined]
            elif kind is cst.For:
                targets = [node_.target]  # type: ignore[attr-defined]
            elif kind is cst.Call and type(node_.func) is cst.Name and node_.func.value in ("setattr", "delattr"):
                dynamic = True
            elif kind is cst.Call and type(node_.func) is cst.Attribute \
                    and node_.func.attr.value in CHANGERS and is_self_attribute(node_.func.value):  # type: ignore
                item_writers.setdefault(node_.func.value.attr.value, set()).add(name)  # type: ignore[attr-defined]
            elif kind is cst.Attribute and node_.attr.value == "__dict__":  # type: ignore[attr-defined]
                dynamic = True
            while targets:
                target = targets.pop()
                if type(target) in (cst.Tuple, cst.List):
                    targets.extend(e.value for e in target.elements)  # type: ignore[attr-defined]
                elif type(target) is cst.StarredElement:
                    targets.append(target.value)  # type: ignore[attr-defined]
                elif is_self_attribute(target):
                    writers.setdefault(target.attr.value, set()).add(name)  # type: ignore[attr-defined]
                elif type(target) is cst.Subscript:
                    while type(target) is cst.Subscript:
                        target = target.value  # type: ignore[attr-defined]
                    if is_self_attribute(target):
                        item_writers.setdefault(target.attr.value, set()).add(name)  # type: ignore[attr-defined]
    return ClassFacts(methods, {k: frozenset(v) for k, v in writers.items()}, dynamic, class_attributes,
                      {k: frozenset(v) for k, v in item_writers.items()})


# The nodes `_class_facts` reads in a method: assignments, loops, calls and attributes (`self.__dict__`).
_CLASS_READ = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.Call, cst.Attribute})


@record(slots=True, unsafe_hash=True)
class FunctionFacts:
    params: tuple[cst.Param, ...]  # positional (posonly and ordinary), in order
    kwonly: tuple[cst.Param, ...]
    star: cst.Param | None
    star_kwargs: cst.Param | None
    names: frozenset[str]  # every name local to the function
    declared_outside: frozenset[str]  # `global` / `nonlocal` names
    returns: int  # how many `return` statements it has (its own, not nested functions')
    yields: bool
    # every `yield` is a statement of its own that hands out a value (`yield x, y`): no `yield from`, no value sent
    # in (`x = yield`), so what the generator gives is the values of those statements
    plain_yields: bool


def _function_facts(node: cst.FunctionDef | cst.Lambda) -> FunctionFacts:
    params = node.params
    positional = (*params.posonly_params, *params.params)
    star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
    star_kwargs = params.star_kwarg
    names = {p.name.value for p in (*positional, *params.kwonly_params)}
    if star is not None:
        names.add(star.name.value)
    if star_kwargs is not None:
        names.add(star_kwargs.name.value)
    outside: set[str] = set()
    returns = 0
    yields = False
    yield_nodes = stated_yields = 0
    body = node.body
    for child in _walk_own(body):
        kind = type(child)
        if kind not in _READ:  # most of a body: names, calls, operators
            continue
        if kind is cst.Return:
            returns += 1
        elif kind in (cst.Yield,):
            yields = True
            yield_nodes += 1
        elif kind is cst.Expr and type(child.value) is cst.Yield \
                and isinstance(child.value.value, cst.BaseExpression):  # type: ignore[attr-defined]
            stated_yields += 1
        elif kind in (cst.Global, cst.Nonlocal):
            outside.update(n.name.value for n in child.names)  # type: ignore[attr-defined]
        elif kind in (cst.FunctionDef, cst.ClassDef):
            names.add(child.name.value)  # type: ignore[attr-defined]
        elif kind in (cst.Import, cst.ImportFrom):
            aliases = child.names  # type: ignore[attr-defined]
            if isinstance(aliases, cst.ImportStar):
                continue
            for alias in aliases:
                if alias.asname is not None and type(alias.asname.name) is cst.Name:
                    names.add(alias.asname.name.value)
                else:
                    dotted = alias.name
                    while type(dotted) is cst.Attribute:
                        dotted = dotted.value
                    if type(dotted) is cst.Name:
                        names.add(dotted.value)
        elif kind in _BINDERS:
            for target in _targets(child):
                names.update(_bound_names(target))
    names -= outside
    return FunctionFacts(tuple(positional), tuple(params.kwonly_params), star, star_kwargs, frozenset(names),
                         frozenset(outside), returns, yields, yield_nodes == stated_yields)


def _module_facts(node: cst.Module) -> FunctionFacts:
    """The module's code as a function without parameters: its names are those its statements assign; the
    functions, classes and imports it defines are left to the module's bindings, as the functions see them."""
    names: set[str] = set()
    for child in _walk_own(node):
        if type(child) in _BINDERS:
            for target in _targets(child):
                names.update(_bound_names(target))
    return FunctionFacts((), (), None, None, frozenset(names), frozenset(), 0, False, False)


# The nodes `_targets` finds targets in: asking only them spares a generator for each of the other nodes (nine in ten).
_BINDERS = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.WithItem,
                      cst.ExceptHandler, cst.Del})
# The nodes `_function_facts` reads anything of; a check of the kind alone passes over the rest (nine in ten).
_READ = _BINDERS | {cst.Return, cst.Yield, cst.Expr, cst.Global, cst.Nonlocal, cst.FunctionDef, cst.ClassDef,
                    cst.Import, cst.ImportFrom}


def _targets(node: cst.CSTNode) -> Iterator[cst.BaseExpression]:
    kind = type(node)
    if kind is cst.Assign:
        for target in node.targets:  # type: ignore[attr-defined]
            yield target.target
    elif kind in (cst.AnnAssign, cst.AugAssign):
        yield node.target  # type: ignore[attr-defined]
    elif kind is cst.For:
        yield node.target  # type: ignore[attr-defined]
    elif kind is cst.NamedExpr:
        yield node.target  # type: ignore[attr-defined]
    elif kind is cst.WithItem and node.asname is not None:  # type: ignore[attr-defined]
        yield node.asname.name  # type: ignore[attr-defined]
    elif kind is cst.ExceptHandler and node.name is not None:  # type: ignore[attr-defined]
        yield node.name.name  # type: ignore[attr-defined]
    elif kind is cst.Del:
        yield node.target  # type: ignore[attr-defined]


def _bound_names(target: cst.BaseExpression) -> Iterator[str]:
    kind = type(target)
    if kind is cst.Name:
        yield target.value  # type: ignore[attr-defined]
    elif kind in (cst.Tuple, cst.List):
        for element in target.elements:  # type: ignore[attr-defined]
            yield from _bound_names(element.value)
    elif kind is cst.StarredElement:
        yield from _bound_names(target.value)  # type: ignore[attr-defined]


# Nested functions and classes are yielded (their name is local) but not entered; lambdas and comprehensions are
# left out altogether (their names are their own).
_CLOSED = frozenset({cst.FunctionDef, cst.ClassDef})
_HIDDEN = frozenset({cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})


def _walk_own(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and its descendants, without entering nested functions, classes, lambdas or comprehensions (their
    names are their own); a nested function or class itself is yielded, its name being local."""
    return walk_pruned(node, _CLOSED, _HIDDEN)


def own_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes of a function's body that run when it runs (nested functions and classes left out)."""
    return _walk_own(node)


def filling_method(method: cst.FunctionDef) -> bool:
    """A method that only appends to lists of the object or empties them: `self.states.append(state)`,
    `self.rewards.clear()`, `self.log_probs = []`, each statement one of those (a docstring aside). A run that holds
    the object runs each call of it for its effect (`objects.executor`)."""
    body = method.body.body if type(method.body) is cst.IndentedBlock else ()
    if not body or method.decorators:
        return False
    for index, statement in enumerate(body):
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            return False
        small = statement.body[0]
        if type(small) is cst.Expr and index == 0 and type(small.value) in (cst.SimpleString, cst.ConcatenatedString):
            continue
        if type(small) is cst.Expr and type(small.value) is cst.Call and type(small.value.func) is cst.Attribute \
                and small.value.func.attr.value in ("append", "clear") and is_self_attribute(small.value.func.value) \
                and len(small.value.args) == (small.value.func.attr.value == "append"):
            continue
        if type(small) is cst.Assign and len(small.targets) == 1 and is_self_attribute(small.targets[0].target) \
                and type(small.value) is cst.List and not small.value.elements:
            continue
        return False
    return True
