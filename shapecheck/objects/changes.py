"""Which containers code may change in place: the names of lists and dicts that `append`/`update`/... calls,
subscript assignments and calls that may change their arguments reach. A list the code changes is no longer the
literal it was bound to."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.records import NamedTuple
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk, walk_statements
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.classes import CHANGERS, own_names
from shapecheck.objects.values import Mapping, Seq

if TYPE_CHECKING:
    from shapecheck.engine.context import Context

# Builtins that read a container they are given and never change it.
_READERS = frozenset({"len", "list", "tuple", "sorted", "reversed", "enumerate", "zip", "iter", "range", "print",
                      "isinstance", "str", "repr", "int", "float", "bool", "sum", "min", "max", "any", "all", "set",
                      "frozenset", "dict", "map", "filter", "hash", "id", "type"})

# torch functions that copy the data of a list they are given (`torch.tensor(labels)`), spelled `torch.<name>`,
# and numpy's, spelled `np.<name>` or `numpy.<name>` (`np.random.shuffle` changes its argument: not one of them).
_TORCH_READERS = frozenset({"tensor", "as_tensor", "stack", "cat", "LongTensor", "FloatTensor", "BoolTensor"})
_NUMPY_READERS = frozenset({"array", "asarray", "stack", "concatenate", "vstack", "hstack", "random.choice"})
# Python's `random` draws from a population it never changes, spelled `random.<name>` (`random.shuffle` does)
_RANDOM_READERS = frozenset({"sample", "choice", "choices"})
# torch.utils.data's loaders and splits index the list of samples they are handed and never change it: a list a
# function of the project built sample by sample (`examples.append((feats, label))`) given to `DataLoader(examples)`
# still holds those samples, which its batches collate. Spelled by their last name (`DataLoader`, `data.DataLoader`).
_DATA_READERS = frozenset({"DataLoader", "Subset", "random_split"})


class Change(NamedTuple):
    """One place code may change a container in place: `through` is the expression it is reached through, `at` the
    node that changes it. `kind` says how: "method" (`cfg.update(...)`: through is the receiver, at the call),
    "argument" (`fill(cfg)`: the name handed to a callee that may change it, at the call) or "target" (`cfg["k"] =
    v`, `del w.cache`, `w.n += 1`: a target that is no plain name, at the assignment or `del`)."""

    kind: Literal["method", "argument", "target"]
    through: cst.BaseExpression
    at: cst.CSTNode


def in_place_changes(scope: cst.CSTNode, functions: dict[str, cst.FunctionDef] | None = None,
                     _seen: frozenset[int] = frozenset()) -> Iterator[Change]:
    """Every place `scope`'s code may change a container in place, in source order: the one walk that the
    questions of what changes (`changed_names`, the shapes' containers changed by spelling) read. An argument is
    counted as `changed_arguments` says."""
    functions = functions or {}
    for node in walk(scope):
        kind = type(node)
        if kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute and func.attr.value in CHANGERS:
                yield Change("method", func.value, node)
            for name in _changed_argument_names(node, functions, _seen):  # type: ignore[arg-type]
                yield Change("argument", name, node)
        elif kind in (cst.AssignTarget, cst.AugAssign, cst.Del):
            target = node.target  # type: ignore[attr-defined]
            if type(target) is not cst.Name:
                yield Change("target", target, node)


def changed_names(scope: cst.CSTNode, functions: dict[str, cst.FunctionDef] | None = None,
                  _seen: frozenset[int] = frozenset()) -> Iterator[str]:
    """The plain names a container may be changed in place through, in `scope`'s code. An argument of a call counts,
    the callee may change it, unless the callee is a builtin that only reads it, the argument is unpacked
    (`nn.Sequential(*layers)` gets the elements, not the list), or the callee is one of the module's own
    `functions` that changes none of its parameters' containers (`make_layers(cfg)` only iterating `cfg`)."""
    for change in in_place_changes(scope, functions, _seen):
        through = change.through
        if change.kind == "target":  # `w.stats[k] = v` changes what `w` holds
            while type(through) is cst.Subscript or type(through) is cst.Attribute:
                through = through.value
        if type(through) is cst.Name:
            yield through.value


_CONSTANTS = frozenset({"True", "False", "None"})  # names to libcst, but no container goes through them


def changed_arguments(call: cst.Call, functions: dict[str, cst.FunctionDef],
                      _seen: frozenset[int] = frozenset()) -> Iterator[str]:
    """The names a call passes as arguments whose containers its callee may change: all of them, unless the callee
    is a builtin that only reads them, the argument is unpacked, or the callee is one of the module's own
    `functions` that leaves that parameter's container unchanged."""
    for name in _changed_argument_names(call, functions, _seen):
        yield name.value


def _changed_argument_names(call: cst.Call, functions: dict[str, cst.FunctionDef],
                            _seen: frozenset[int]) -> Iterator[cst.Name]:
    """`changed_arguments`, as the arguments' nodes."""
    func = call.func
    if calls_only_readers(call, functions):
        return
    if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "torch" \
            and func.attr.value in _TORCH_READERS:
        return
    module, _, name = (dotted_name(func) or "").partition(".")
    if module in ("np", "numpy") and name in _NUMPY_READERS or module == "random" and name in _RANDOM_READERS:
        return
    if (name or module).rpartition(".")[2] in _DATA_READERS \
            and not (type(func) is cst.Name and func.value in functions):
        return
    # `cfg = copy.deepcopy(DEFAULTS)` then `cfg["lr"] = ...` changes the copy alone (a shallow `copy.copy` shares
    # the nested dicts, which a change through the copy reaches)
    if dotted_name(func) in ("copy.deepcopy", "deepcopy") and "deepcopy" not in functions:
        return
    callee = functions.get(func.value) if type(func) is cst.Name else None
    kept = _unchanged_parameters(callee, functions, _seen) if callee is not None else None
    # the arguments that go to a parameter the callee leaves unchanged (a class's `__init__`: `Net(CONFIG)`)
    constructor = callee is not None and callee.name.value == "__init__"
    safe = {id(passed_argument(callee, call, name, constructor))  # type: ignore[arg-type]
            for name in kept} if kept else set()
    for arg in call.args:
        if type(arg.value) is not cst.Name or arg.star or id(arg.value) in safe or arg.value.value in _CONSTANTS:
            continue
        yield arg.value


def block_statements(scope: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The statements of a scope's code: a function's body, a block's or a module's; a lambda's body as one."""
    if type(scope) is cst.FunctionDef:
        scope = scope.body  # type: ignore[attr-defined]
    body = getattr(scope, "body", ())
    return body if isinstance(body, Sequence) else (body,)


def attributes_set(scope: cst.CSTNode) -> dict[str, dict[str, list[int]] | None]:
    """For each plain name, the attributes `scope`'s code sets, changes or deletes on the object it holds (`w.size =
    16`, `w.stats.count += 1`, `del w.cache`), each with the indices of the statements of `scope`'s code
    (`block_statements`) that do; None for a name on which it may set any (`setattr(w, key, value)` of a computed
    name). Every name's at once: the analysis asks of each parameter of a function, and a walk per name was most of
    what asking cost."""
    written: dict[str, dict[str, list[int]] | None] = {}
    for index, statement in enumerate(block_statements(scope)):
        for holder, attribute in attribute_writes(statement):
            attributes = written.setdefault(holder, {})
            if attributes is None:
                continue
            if attribute is None:
                written[holder] = None
            else:
                attributes.setdefault(attribute, []).append(index)
    return written


def attribute_writes(code: cst.CSTNode) -> Iterator[tuple[str, str | None]]:
    """(name, attribute) for each attribute `code` sets, changes or deletes on what a plain name holds: the first
    attribute after the name (`w.stats.count += 1`, `memory.rewards.append(r)`: stats, rewards); None for
    `setattr(w, key, value)` of a computed name."""
    for node in walk(code):
        kind = type(node)
        if kind not in _WRITERS:  # most nodes: names, attributes read, operators
            continue
        changed = node.target if kind in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del) \
            else node.func.value if kind is cst.Call and type(node.func) is cst.Attribute \
            and node.func.attr.value in CHANGERS else None  # type: ignore[attr-defined]
        if changed is not None:
            found = _first_attribute(changed)
            if found is not None:
                yield found
        elif kind is cst.Call and type(node.func) is cst.Name and node.func.value in ("setattr", "delattr") \
                and node.args and type(node.args[0].value) is cst.Name:  # type: ignore[attr-defined]
            spelled = node.args[1].value if len(node.args) > 1 else None  # type: ignore[attr-defined]
            literal = spelled.evaluated_value if type(spelled) is cst.SimpleString else None  # type: ignore
            yield node.args[0].value.value, literal if isinstance(literal, str) else None  # type: ignore


# The nodes `attribute_writes` reads: a target or a call (a changer's receiver, `setattr`'s first argument).
_WRITERS = frozenset({cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del, cst.Call})


def _first_attribute(target: cst.BaseExpression) -> tuple[str, str] | None:
    """The plain name and the first attribute after it of `w.stats[k].count`; None where there is no such pair."""
    attribute = None
    while type(target) in (cst.Attribute, cst.Subscript):
        if type(target) is cst.Attribute:
            attribute = target.attr.value  # type: ignore[attr-defined]
        target = target.value  # type: ignore[attr-defined]
    return (target.value, attribute) if attribute is not None and type(target) is cst.Name else None


def globals_changed_by_functions(ctx: Context) -> frozenset[str]:
    """The names a function or method of the module changes in place without binding them itself: the module's
    lists and dicts it fills (`def add(k, v): CACHE[k] = v`, `REGISTRY.append(cls)`). A call of such a function
    changes them, whatever it is handed. A module fact, so the editor server keeps each statement's part."""
    return ctx.module_fact("globals filled by functions", _globals_filled_in)


def _globals_filled_in(statement: cst.CSTNode) -> frozenset[str]:
    changed: set[str] = set()
    for node in walk_statements(statement):  # a `def` is in no expression
        if type(node) is cst.FunctionDef:
            changed.update(set(changed_names(node.body)) - own_names(node))  # type: ignore[arg-type]
    return frozenset(changed)


def globals_rebound_by_functions(ctx: Context) -> frozenset[str]:
    """The names a function or method of the module declares `global`: a call of it may bind them anew, so the
    module's own binding is not what every later read sees. A module fact, as `globals_changed_by_functions`."""
    return ctx.module_fact("globals rebound by functions", _globals_declared_in)


def _globals_declared_in(statement: cst.CSTNode) -> frozenset[str]:
    return declared_names(statement, cst.Global)


def declared_names(code: cst.CSTNode, kind: type[cst.Global] | type[cst.Nonlocal]) -> frozenset[str]:
    """The names the `global` (or `nonlocal`) statements of `code` declare. Such a statement is a small one, in a
    statement line's body, never inside an expression: the lines are read, not every node."""
    return frozenset(alias.name.value for line in walk_statements(code) if type(line) in _LINES
                     for node in line.body if type(node) is kind  # type: ignore[attr-defined]
                     for alias in node.names if type(alias.name) is cst.Name)  # type: ignore[attr-defined]


_LINES = (cst.SimpleStatementLine, cst.SimpleStatementSuite)


def calls_only_readers(call: cst.Call, functions: dict[str, cst.FunctionDef]) -> bool:
    """A builtin that only reads what it is given (`len(CACHE)`), not one the module redefines."""
    func = call.func
    return type(func) is cst.Name and func.value in _READERS and func.value not in functions


def _unchanged_parameters(function: cst.FunctionDef, functions: dict[str, cst.FunctionDef],
                          seen: frozenset[int]) -> frozenset[str] | None:
    """The parameters whose containers `function` never changes in place, nor rebinds before passing on; None when
    that is not told (a recursion)."""
    if id(function) in seen:
        return None
    params = function.params
    if isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None:  # `*args`: where would it go
        return None
    names = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
    changed = set(changed_names(function.body, functions, seen | {id(function)}))
    return frozenset(names - changed)


def kept_constructor(class_def: cst.ClassDef) -> cst.FunctionDef | None:
    """The `__init__` of `class_def`, where what it is handed stays as it is after the construction: it keeps a
    parameter as an attribute (`self.cfg = cfg`) only where no code of the class changes that attribute in place
    (`self.cfg["lr"] = ...`, `self.cfg.update(...)`, or handing it to a call); None otherwise. Whether `__init__`
    changes its parameters itself is `changed_names`' to tell, through it."""
    inits = [statement for statement in class_def.body.body
             if type(statement) is cst.FunctionDef and statement.name.value == "__init__"]
    if len(inits) != 1:
        return None
    init = inits[0]
    params = {param.name.value for param in init.params.params}
    kept = {target.target.attr.value for node in walk(init.body) if type(node) is cst.Assign  # type: ignore
            and type(node.value) is cst.Name and node.value.value in params for target in node.targets
            if type(target.target) is cst.Attribute and type(target.target.value) is cst.Name
            and target.target.value.value == "self"}
    for change in in_place_changes(class_def):
        through = change.through
        while type(through) in (cst.Subscript, cst.Attribute) and not (
                type(through) is cst.Attribute and type(through.value) is cst.Name  # type: ignore[union-attr]
                and through.value.value == "self"):  # type: ignore[union-attr]
            through = through.value  # type: ignore[union-attr]
        if type(through) is cst.Attribute and through.attr.value in kept:  # type: ignore[union-attr]
            if change.kind != "target" or type(change.through) is not cst.Attribute:
                return None  # `self.cfg[k] = v`, `self.cfg.update(...)`: not `self.cfg = ...` itself
    return init


def incomplete(value: Seq | Mapping) -> Seq | Mapping:
    """A list or dict after a change the code doesn't state: the items it had, and perhaps more."""
    if isinstance(value, Seq):
        return Seq(value.items, value.kind, complete=False)
    return Mapping(value.items, complete=False)
