"""The evaluator of the objects floor: lazy, demand-driven and memoized, one per file, answering what an expression
holds as of a point in the file. The shapes floor extends it (`shapecheck.shapes.evaluator.ShapeEvaluator`) with
tensors; this class knows ints (as `Dim`s), constants, containers and objects (`shapecheck.objects.values`).

Two ways to read a name, chosen by `before`:

- **As of a point** (`before` >= 0, a `Binding.seq`): through the bindings the engine's traversal made, the way a
  rule asks about the node it visits. A name bound differently on different paths is known only where the paths
  agree; a name a loop rebinds is unknown where the next iteration could read it.
- **In a call being run** (`before` < 0, a version of a `Frame`'s names): `shapecheck.objects.calls` runs a
  function of the project statement by statement with the values of its arguments (`Net(64)` runs `__init__` with
  `hidden=64`; `model(x)` runs `forward` with `x`'s shape), and each statement's expressions are read with the
  values its names hold at that statement. Names the function does not bind are the module's.

Anything the code does not state is unknown, and unknown is never guessed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.context import Binding, Context, Scope, _latest
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, is_self_attribute, param_annotation
from shapecheck.engine.walker import walk
from shapecheck.objects import builtins, calls, command_line
from shapecheck.objects.changes import (
    attribute_writes, attributes_set, block_statements, calls_only_readers, changed_arguments, changed_names,
    declared_names, globals_changed_by_functions, globals_rebound_by_functions, incomplete, kept_constructor,
)
from shapecheck.objects.classes import class_facts, own_nodes
from shapecheck.objects.decorators import called_as_written
from shapecheck.objects.dims import Dim
from shapecheck.objects.frames import Frame
from shapecheck.objects.modules import RETURNS_SELF, builds_module
from shapecheck.objects.namespace_changes import call_writes, namespace_writes
from shapecheck.objects.project import not_first_party, split_relative
from shapecheck.objects.values import (
    NONE, UNKNOWN, ClassValue, Const, FunctionValue, Imported, Instance, Mapping, Namespace, Opaque, Partial, Seq, Site,
    Super, TorchObject, constant_of, number_kind, truth, unstated_element,
)

T = TypeVar("T")

_DEFINITE = frozenset({"param", "import", "def", "class"})
MAX_DEPTH = 64  # how far back one question may follow expressions and bindings
# the first part of the key of the size `len(x)` is where the code does not state x's length: a run of the function
# (or module) may know it (a dict a function of the module fills is empty before the first call)
UNSTATED_COUNT = "len"
_UNASKED = object()  # a memo entry never made (None is an answer: nothing known)
# What a module's own methods derive from it: `model.parameters()` is the parameters of `model`.
DERIVED = frozenset({"parameters", "named_parameters", "children", "named_children", "modules", "named_modules",
                     "buffers", "named_buffers", "state_dict"})
# torch callables named like classes that make tensors or plain values, not objects
_NOT_OBJECTS = frozenset({"Parameter", "Variable", "Tensor", "Size", "FloatTensor", "LongTensor", "IntTensor", "DoubleTensor",
                          "HalfTensor", "BoolTensor", "ByteTensor", "CharTensor", "ShortTensor", "BFloat16Tensor",
                          "device", "dtype", "Generator"})


class Unknown(Exception):
    """Raised inside the evaluator to give up on a question; answered as None."""


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, eq=False)
class ContainerInit:
    """`super().__init__` of a project class that extends `nn.Sequential`, `nn.ModuleList` or `nn.ModuleDict`:
    calling it gives the instance its layers."""

    instance: Instance


@record(slots=True, eq=False)
class ContainerForward:
    """`super().forward` in an `nn.Sequential` subclass that defines its own `forward` (a block that joins a skip
    connection, then runs its layers): calling it runs the layers the instance holds, in order."""

    instance: Instance


@record(slots=True, eq=False)
class Derived:
    """What a method of an object gives that is about the object itself: `model.parameters()`."""

    owner: object
    method: str


class Evaluator:
    title = "object analysis"
    # want -> handler(evaluator, expression, before); floors above add theirs
    HANDLERS: dict[str, Callable[..., object]] = {}
    # the kinds of value that `join_values` of a value with itself rebuilds rather than returns; floors above add theirs
    REJOINED: tuple[type, ...] = ()

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._memo: dict[tuple, object] = {}
        self._depth = 0
        # Values bound in another function (`self.n = n` in `__init__`, read in `forward`) are read with that
        # function's names (and the module's): this one's are not the ones meant.
        self._home: Scope | None = None
        self._loops = flow.LoopAssignments()
        self._homes: dict[int, Scope] = {}  # seq -> `_home_of(seq)`, while `ctx.closed_functions` holds as many
        self._homes_as_of = 0
        # seq of a binding -> the path of its statement, where the names in its value are read
        self._points: dict[int, tuple[cst.CSTNode, ...]] = {}
        # names read where several bindings may reach, and the one to take when following a single path
        self._branches: list[tuple[tuple[int, ...], list[Binding]]] | None = None  # None: not recording
        self._forced: dict[tuple[int, ...], int] = {}
        self.errors: list[BaseException] = []  # crashes of the analysis itself, reported as SC999 by the linter
        # calls being run: version (a negative `before`) -> (frame, its names' values at that statement)
        self._versions: dict[int, tuple[Frame, dict[str, object]]] = {}
        self._instances: dict[Hashable, object] = {}  # constructions and generic instances, made once each
        # the `before` of the innermost question asked as of a point in this file (not in a call being run): where a
        # call it reaches runs, so where the function run reads the module's names (see `global_point`)
        self._site: int | None = None
        self.calls = calls.Calls(self)
        self._star_modules: tuple[str, ...] | None = None  # the project's modules `from ... import *` reads

    def release(self) -> None:
        """Drop what the analysis built: objects and the calls being run refer to one another (an instance holds
        its bound methods, a nested function its enclosing call), which reference counting alone cannot free. The
        evaluators made for the project's other modules go with it."""
        others = list(self.calls._others.values())
        self._release_own()
        for other in others:
            other._release_own()

    @property
    def dependencies(self) -> set[str]:
        """The other files of the project this analysis read."""
        return self.calls.dependencies

    def _release_own(self) -> None:
        for value in self._instances.values():
            if isinstance(value, Instance):
                value.attrs.clear()
        for frame, env in self._versions.values():
            frame.env.clear()
            env.clear()
        self.calls.__dict__.clear()
        self.__dict__.clear()

    # ---------------------------------------------------------------------------------------- public questions

    def value(self, expr: cst.BaseExpression, before: int | None = None) -> object:
        """What `expr` holds (an object, an int as a Dim, a constant, a container), UNKNOWN when not stated."""
        found = self._ask("value", expr, before)
        return UNKNOWN if found is None else found

    def dim_of(self, expr: cst.BaseExpression, before: int | None = None) -> Dim | None:
        value = self._ask("size", expr, before)
        return value if isinstance(value, Dim) else None

    def now(self) -> int:
        """The `before` that means "as of the node being visited": every binding made so far."""
        return self.ctx._seq + 1

    def _ask(self, want: str, expr: cst.BaseExpression, before: int | None) -> object:
        try:
            return self.evaluate(want, expr, self.now() if before is None else before)
        except RecursionError:
            return None
        except Exception as error:  # noqa: BLE001 - a bug in the analysis must not take the rules down with it
            self.errors.append(error)
            return None

    # ------------------------------------------------------------------------------------------ evaluation

    def evaluate(self, want: str, expr: cst.BaseExpression, before: int) -> object:
        """The memoized core: the value of `expr` read as a `want` ("value", "size", and the floors above add
        "tensor", "sizes", "items"), with names resolved as of `before`."""
        key = (want, id(expr), before, id(self._home))
        memo = self._memo
        found = memo.get(key, _UNASKED)  # one hash of the key: three asks in four are answered here
        if found is not _UNASKED:
            return found
        if self._depth >= MAX_DEPTH:
            return None
        memo[key] = None  # a cycle gives up rather than recursing
        self._depth += 1
        site = self._site
        try:
            if before < 0:
                value = self._name_in_call(want, expr, before) if type(expr) is cst.Name \
                    else self.HANDLERS[want](self, expr, before)
            else:
                self._site = before
                value = self.HANDLERS[want](self, expr, before)
        except Unknown:
            value = None
        finally:
            self._depth -= 1
            self._site = site
        memo[key] = value
        return value

    def _typed(self, want: str, expr: cst.BaseExpression | None, before: int, kind: type):
        if expr is None:
            return None
        value = self.evaluate(want, expr, before)
        return value if isinstance(value, kind) else None

    def size(self, expr: cst.BaseExpression | None, before: int) -> Dim | None:
        return self._typed("size", expr, before, Dim)

    def integer(self, expr: cst.BaseExpression | None, before: int) -> int | None:
        """An int the code states (`-1`, `2`, `N_DIMS` bound to a literal)."""
        dim = self.size(expr, before)
        return dim.literal if dim is not None else None

    def object(self, expr: cst.BaseExpression | None, before: int) -> object:
        """`value`, as of `before`, UNKNOWN for nothing."""
        if expr is None:
            return UNKNOWN
        found = self.evaluate("value", expr, before)
        return UNKNOWN if found is None else found

    def read_at(self, site: Site, want: str, expr: cst.BaseExpression) -> object:
        """`expr` read where a call sits (a constructor's argument read later, for its sizes)."""
        if site.home is None or self._home is not None:
            return self._ask(want, expr, site.before)
        self._home = site.home  # type: ignore[assignment]
        try:
            return self._ask(want, expr, site.before)
        finally:
            self._home = None

    def site(self, before: int) -> Site:
        """Where an expression read as of `before` sits, to read its parts later."""
        return Site(self, before, self._home)

    # ------------------------------------------------------------------------------------------------ names

    def binding(self, expr: cst.BaseExpression, before: int) -> Binding | None:
        home = self._home
        if home is not None and type(expr) is cst.Name:
            for scope in (home, self.ctx._module_scope()):
                found = scope.bindings.get(expr.value)
                binding = _latest(found, before) if found else None
                if binding is not None:
                    return binding
            return None
        return self.ctx.binding(expr, before)

    def value_of(self, binding: Binding, want: str) -> object:
        """The value `binding` bound, read as a `want`, with names resolved where the binding was made."""
        if binding.value is None:
            return None
        return self.in_home(binding, lambda: self.evaluate(want, binding.value, binding.seq))

    def in_home(self, binding: Binding, read: Callable[[], T]) -> T:
        """`read()` with names resolved in the scope `binding` was made in (a function already left)."""
        self._points[binding.seq] = binding.path
        if self._home is not None or binding.seq > self.ctx._frame.start:
            return read()
        self._home = self._home_of(binding.seq)
        try:
            return read()
        finally:
            self._home = None

    def _home_of(self, seq: int) -> Scope:
        """The scope of the function (already left) that made binding `seq`, else the module's."""
        closed = self.ctx.closed_functions
        if self._homes_as_of != len(closed):  # another function was left: answers may now be a closer one
            self._homes.clear()
            self._homes_as_of = len(closed)
        home = self._homes.get(seq)
        if home is None:
            best: tuple[int, int, Scope] | None = None
            for start, end, scope in closed:
                if start < seq <= end and (best is None or start > best[0]):
                    best = (start, end, scope)
            home = self._homes[seq] = best[2] if best is not None else self.ctx._module_scope()
        return home

    # ------------------------------------------------------------------------------------ which bindings reach

    def point(self, before: int) -> Sequence[cst.CSTNode] | None:
        """The path of the node a read as of `before` happens at: the node being visited, or the statement of the
        binding whose value is being read."""
        if before >= self.now():
            return self.ctx.ancestors if self.ctx.ancestors else None
        return self._points.get(before)

    def candidates(self, expr: cst.BaseExpression, before: int) -> list[Binding] | None:
        """The bindings of a name (or `self.attr`) that may be the value read as of `before`: one when it is
        certain, the branches' bindings when it depends on the path; None when a loop may carry another value."""
        read = self.point(before)
        root = self.ctx._frame.node
        name = expr.value if type(expr) is cst.Name else "self." + expr.attr.value  # type: ignore[attr-defined]
        if read is not None and self._loops.rebound(
                name, read, root, lambda statement: self.ctx.bound_before(statement, before)):
            return None
        found: list[Binding] = []
        binding = self.binding(expr, before)
        while binding is not None and len(found) < 4:
            reach = "always" if read is None or binding.kind in _DEFINITE else flow.reach(binding.path, read, root)
            if reach != "never":
                found.append(binding)
            if reach == "always":
                return found
            binding = self.binding(expr, binding.seq)
        return found if binding is None else None

    def choose(self, bindings: list[Binding]) -> list[Binding]:
        """The bindings to follow: all of them, or the one a single-path run pins (see the shapes floor's
        `_on_some_path`)."""
        if len(bindings) > 1:
            key = tuple(id(binding) for binding in bindings)  # the same choice wherever the same bindings meet
            if key in self._forced:
                return [bindings[self._forced[key]]]
            if self._branches is not None:
                self._branches.append((key, bindings))
        return bindings

    def follow(self, expr: cst.BaseExpression, before: int, want: str) -> object:
        """The value a name holds, read as a `want`, when every binding that may reach the read is a plain
        assignment and they agree."""
        bindings = self.candidates(expr, before)
        if not bindings or any(binding.kind not in ("assign", "walrus") for binding in bindings):
            return None
        values = [self.value_of(binding, want) for binding in bindings]
        return values[0] if all(value == values[0] for value in values[1:]) else None

    # --------------------------------------------------------------------------------------- sizes of names

    def size_of_name(self, expr: cst.BaseExpression, before: int) -> Dim | None:
        ctx = self.ctx
        spelled = ctx.code(expr) if type(expr) is not cst.Name else expr.value
        bindings = self.candidates(expr, before)
        if bindings is None:
            latest = self.binding(expr, before)
            return Dim.symbol(("name", id(latest), before), spelled, placeholder=True)
        if not bindings:
            if type(expr) is not cst.Name:
                return None
            key = ("global", expr.value)
            return Dim.symbol(key, expr.value, placeholder=True)
        sizes = [self._bound_size(binding, spelled) for binding in bindings]
        first = sizes[0]
        if first is None or all(size == first for size in sizes[1:]):
            return first
        return Dim.symbol(("name", id(bindings[0]), before), spelled, placeholder=True)

    def _bound_size(self, binding: Binding, spelled: str) -> Dim | None:
        self._points[binding.seq] = binding.path
        kind = binding.kind
        if kind in ("def", "class", "del") or self._rebound_global(binding):
            return None
        found: Dim | None = None
        if kind == "import":
            # `from constants import HIDDEN`: the literal the project's module binds it to, as `constants.HIDDEN`
            # reads (a symbol of that module's own names would mean nothing here)
            value = self.bound_value(binding)
            if not isinstance(value, Dim) or value.literal is None:
                return None  # a module, a class, a size unknown here: no size of this name
            found = value
        elif kind in ("assign", "walrus"):
            value = self.value_of(binding, "size")
            found = value if isinstance(value, Dim) else None
        elif kind == "unpack" and not binding.starred and binding.value is not None:
            found = self._unpacked_size(binding)
        if found is not None:
            return named(found, spelled)
        return Dim.symbol(("name", id(binding)), spelled, placeholder=True)

    def _unpacked_size(self, binding: Binding) -> Dim | None:
        """The size an unpacking target took (`a, b = 3, 4`); the shapes floor adds `B, T, C = x.shape`."""
        value = binding.value
        assert value is not None
        if type(value) in (cst.Tuple, cst.List):
            elements = value.elements
            if any(type(e) is cst.StarredElement for e in elements) or binding.index is None \
                    or binding.index >= len(elements):
                return None
            return self.size(elements[binding.index].value, binding.seq)
        return None

    # ------------------------------------------------------------------------------------ values of names

    def value_of_name(self, expr: cst.Name, before: int) -> object:
        bindings = self.candidates(expr, before)
        if bindings is None:
            return UNKNOWN
        if not bindings:
            later = self._defined_later(expr.value) if self.ctx.function is not None else None
            if later is not None:
                return later
            star = self.ctx.star_imported(expr.value)
            if star is not None:
                return self.imported(star)
            found = builtins.named(expr.value)
            return self.star_exported(expr.value) if found is UNKNOWN else found
        chosen = self.choose(bindings)
        found = join([self.bound_value(binding) for binding in chosen])
        if isinstance(found, FunctionValue) and found.closure is None and _nested(chosen[0]):
            # a function defined inside the one being read: the names it shares with it are read where it is
            # called, as of this point
            found = replace(found, closure=Frame(found.node, frozenset(), {}, outer=before, outer_home=self._home))
        return found

    def _defined_later(self, name: str) -> object:
        """A function or class the module defines after the function being read (`main()` first, its `Net` and
        `weighted_mse` below it, `main()` called at the end): the function runs once the module has defined them, so
        a name no binding before the read reaches is that definition, where it is the module's one statement binding
        the name. None otherwise."""
        found = self._memo.get("top-level bindings")
        if found is None:
            found = self._memo["top-level bindings"] = _top_level_bindings(self.ctx.module)
        statements = found.get(name)  # type: ignore[union-attr]
        if statements is None or len(statements) != 1:
            return None
        statement = statements[0]
        if type(statement) is cst.ClassDef:
            return ClassValue(statement, self.ctx)
        if type(statement) is cst.FunctionDef:
            return FunctionValue(statement, self.ctx) if called_as_written(self.ctx, statement) else None
        return None

    def bound_value(self, binding: Binding) -> object:
        """What a binding bound, as a value."""
        self._points[binding.seq] = binding.path
        kind = binding.kind
        if self._rebound_global(binding):
            return UNKNOWN
        if kind in ("assign", "walrus"):
            found = self._as_changed(self.value_of(binding, "value"), binding)
            if isinstance(found, Namespace):
                # `args.hidden = 128`, `vars(args).update(...)`, `setup(args)`: no longer the defaults
                return found.after_writes(namespace_writes(self, self._changing_scope(binding), binding.name))
            if isinstance(found, Instance) and not found.tainted:
                return self._after_outside_writes(found, binding)
            return UNKNOWN if found is None else found
        if kind == "unpack":
            if binding.value is None:
                return self._nested_target(binding)
            if binding.starred or binding.index is None:
                return UNKNOWN
            elements = binding.unpacking_elements()
            if elements is None or any(type(e) is cst.StarredElement for e in elements):
                return UNKNOWN
            whole = self._unpacked_whole(binding)
            parts = self.unpacked_values(whole, len(elements))
            # `xs, ys = [], []` then `ys.append(...)`: not the empty list it was, as with `ys = []`
            return self._as_changed(parts[binding.index], binding) \
                if parts is not None and binding.index < len(parts) else UNKNOWN
        if kind in ("for", "comp"):
            # `for x, y in loader:` read in the loop or after it: what any element is
            if binding.starred:
                return UNKNOWN
            found = self._nested_target(binding) if binding.value is None else self._element_part(binding)
            target = getattr(binding.statement, "target", None)
            return unstated_element(target, binding.name) if found is UNKNOWN and target is not None else found
        if kind == "import":
            return self.imported(binding.qualname) if binding.qualname else UNKNOWN
        if kind == "def" and type(binding.statement) is cst.FunctionDef:
            return FunctionValue(binding.statement, self.ctx) if called_as_written(self.ctx, binding.statement) \
                else UNKNOWN
        if kind == "class" and type(binding.statement) is cst.ClassDef:
            return ClassValue(binding.statement, self.ctx)
        if kind == "param":
            return self.parameter_value(binding)
        return UNKNOWN

    def _unpacked_whole(self, binding: Binding) -> object:
        """The value an unpacking binds its names from, read once for all of them (see `unpacking_point`)."""
        point = unpacking_point(binding)
        return self.in_home(binding, lambda: self.evaluate("value", binding.value, point))  # type: ignore[arg-type]

    def _rebound_global(self, binding: Binding) -> bool:
        """A module-level name that a function of the module declares `global` (`def configure(n): global HIDDEN;
        HIDDEN = n`): any call may have rebound it, here or in a module that reads it, so it holds no one value.
        The same for a function's local that a function defined in it declares `nonlocal` (a forward hook keeping
        the attention maps it sees, `nonlocal my_attention; my_attention = sim.softmax(dim=-1)`): the model's
        forward pass runs it."""
        if binding.name in self.ctx.module_fact("nonlocal names", _nonlocal_names):
            scope = next((node for node in reversed(binding.path[:-1]) if type(node) in _OWN_SCOPES), None)
            if type(scope) is cst.FunctionDef and binding.name in _nonlocal_names(scope.body):
                return True
        return binding.name in globals_rebound_by_functions(self.ctx) and not any(
            type(node) in _OWN_SCOPES for node in binding.path[:-1])

    def _element_part(self, binding: Binding) -> object:
        """What a loop target's name holds of any element of the iterable: the element, or its part."""
        element = self.element(self.value_of(binding, "value"))
        if binding.index is None or element is UNKNOWN:
            return element
        elements = binding.unpacking_elements()
        if elements is None or any(type(e) is cst.StarredElement for e in elements):
            return UNKNOWN
        parts = self.unpacked_values(element, len(elements))
        return parts[binding.index] if parts is not None and binding.index < len(parts) else UNKNOWN

    def _nested_target(self, binding: Binding) -> object:
        """A name inside a nested unpacking target (`for i, (x, y) in enumerate(loader):`, `a, (b, c) = ...`): the
        value unpacked level by level down to it."""
        statement = binding.statement
        if type(statement) is cst.For or type(statement) is cst.CompFor:
            target, source = statement.target, statement.iter
        elif type(statement) is cst.Assign and len(statement.targets) == 1:
            target, source = statement.targets[0].target, statement.value
        else:
            return UNKNOWN
        steps = _position_in(target, binding.name)
        if steps is None:
            return UNKNOWN
        value = self.in_home(binding, lambda: self.evaluate("value", source, binding.seq))
        if type(statement) is not cst.Assign:
            value = self.element(value)
        for index, count in steps:
            parts = self.unpacked_values(value, count)
            if parts is None:
                return UNKNOWN
            value = parts[index]
        return value

    def _as_changed(self, found: object, binding: Binding) -> object:
        """A list or dict a name was bound to, less what code may add to it in place through that name (`layers = []`
        then `layers.append(...)`: not the empty list it was)."""
        if isinstance(found, Seq | Mapping) and (type(found) is Mapping or found.kind == "list") \
                and binding.name in self._changed_in(binding):
            return incomplete(found)
        return found

    def _changed_in(self, binding: Binding) -> frozenset[str]:
        """The names a list or dict may be changed through in place, where `binding` was made: receivers of
        `append`/`extend`/`update`/..., targets of `x[i] = ...` and `del x[i]`, and arguments of any call (the callee
        may change them). The module's code includes its functions' (they may change a global)."""
        scope = self._changing_scope(binding)
        key = ("changed", id(scope))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = frozenset(changed_names(scope, self._functions_called_in(scope)))
        return found  # type: ignore[return-value]

    def _functions_called_in(self, code: cst.CSTNode) -> dict[str, cst.FunctionDef]:
        """The module's functions, and the project's functions of other modules `code` calls by the name it imports
        them under (`class_weights(rows, n)` after `from intents.data import class_weights`): a call hands a list to
        one of them, which may or may not change it."""
        functions = self._module_functions()
        imported: dict[str, cst.FunctionDef] = {}
        for node in walk(code):
            if type(node) is not cst.Call or type(node.func) is not cst.Name:  # type: ignore[attr-defined]
                continue
            name = node.func.value  # type: ignore[attr-defined]
            if name in functions or name in imported:
                continue
            qualname = self.ctx.qualname(node.func)  # type: ignore[attr-defined]
            found = self.imported(qualname) if qualname is not None else None
            if isinstance(found, FunctionValue) and found.bound is None and type(found.node) is cst.FunctionDef:
                imported[name] = found.node
            elif isinstance(found, ClassValue):  # `Net(CONFIG)` of a model class of another module
                init = kept_constructor(found.node)
                if init is not None:
                    imported[name] = init
        return {**functions, **imported} if imported else functions

    def _after_outside_writes(self, instance: Instance, binding: Binding) -> Instance:
        """The object a name holds, less what the code around it sets on it from outside its class (`loader.size =
        16`, `del w.cache`, `setattr(w, key, v)`): those attributes hold any value, at every read of the name (the
        same copy each time, so the object stays one)."""
        key = ("outside writes", id(binding))
        found = self._memo.get(key)
        if found is None:
            written = self.attributes_set_through(binding, binding.name)
            if written is None:
                found = replace(instance, tainted=True)
            elif written:
                found = replace(instance, attrs={**instance.attrs, **dict.fromkeys(written, UNKNOWN)})
            else:
                found = instance
            self._memo[key] = found
        return found  # type: ignore[return-value]

    def attributes_set_in(self, scope: cst.CSTNode, name: str) -> dict[str, list[int]] | None:
        """`attributes_set` on the code of `scope` (a function: its body), for the name `name`."""
        key = ("attributes set", id(scope))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = attributes_set(scope) if type(scope) is not cst.Module \
                else self._module_attributes_set()
        return found.get(name, {})  # type: ignore[attr-defined]

    def _module_attributes_set(self) -> dict[str, dict[str, list[int]] | None]:
        """`attributes_set` on the module, walked only where the module fact of the names attributes are set on (the
        editor server keeps each statement's part) holds one: most modules set none from outside a class."""
        holders = self.ctx.module_fact("names attributes are set on", _attribute_holders_of)
        if not holders:
            return {}
        written = attributes_set(self.ctx.module)
        return {name: written[name] for name in holders}  # not `self`: a method's is its class's business

    def attributes_set_through(self, binding: Binding | None, name: str) -> dict[str, list[int]] | None:
        """The attributes the code where `binding` was made (without one, the code being read: a run's function)
        sets on what the name holds, with the statements that do (None: any)."""
        return self.attributes_set_in(self._attribute_scope(binding), name)

    def writes_before(self, binding: Binding | None, name: str, attribute: str, read: cst.CSTNode) -> int | None:
        """How many statements setting `name.attribute` come before the one holding `read`, in the code where
        `binding` was made: reads after the same writes see one value. None when a statement both sets it and
        holds the read (a loop, a branch: the order is not told), or any attribute may be set."""
        scope = self._attribute_scope(binding)
        written = self.attributes_set_in(scope, name)
        if written is None:
            return None
        writes = written.get(attribute, [])
        if not writes:
            return 0
        key = ("statement of", id(scope))
        where = self._memo.get(key)
        if where is None:
            where = self._memo[key] = {id(node): index for index, statement in
                                       enumerate(block_statements(scope)) for node in walk(statement)}
        index = where.get(id(read))  # type: ignore[union-attr]
        if index is None or index in writes:
            return None
        return sum(1 for write in writes if write < index)

    def _attribute_scope(self, binding: Binding | None) -> cst.CSTNode:
        if binding is None:
            return self._home.node if self._home is not None else self.ctx._frame.node
        return self._changing_scope(binding)

    def _changing_scope(self, binding: Binding) -> cst.CSTNode:
        """The code that may change what `binding` bound: its function's, or the module's with its functions'
        (they may change a global)."""
        scope = self._home.node if self._home is not None else self.ctx._frame.node
        if binding.path:
            functions = [node for node in binding.path if type(node) in (cst.FunctionDef, cst.Lambda)]
            scope = functions[-1] if functions else self.ctx.module
        return scope

    def changed_by_calls(self, statement: cst.CSTNode) -> frozenset[str]:
        """The names whose lists and dicts the calls of a statement may change in place (`grow(cfg)`); torch's
        functions and modules only read the lists they are given (`torch.stack(features)`)."""
        key = ("changed by calls", id(statement))
        found = self._memo.get(key)
        if found is None:
            functions = self._functions_called_in(statement)
            filled = globals_changed_by_functions(self.ctx)
            changed: set[str] = set()
            for node in own_nodes(statement):
                if type(node) is cst.Call:
                    # the callee's name only for a call that passes a name or may run a function filling a global:
                    # a run asks this of every statement
                    names = list(changed_arguments(node, functions))  # type: ignore[arg-type]
                    if filled and not calls_only_readers(node, functions):  # type: ignore[arg-type]
                        names += filled
                    if names and not (self.ctx.qualname(node.func) or "").startswith("torch."):  # type: ignore
                        changed.update(names)
            found = self._memo[key] = frozenset(changed)
        return found  # type: ignore[return-value]

    def namespaces_changed_by_calls(self, statement: cst.CSTNode) -> dict[str, frozenset[str] | None]:
        """The names whose namespaces the calls of a statement may change, with the attributes they may change
        (None: any), as `setup(args)` does."""
        key = ("namespaces changed by calls", id(statement))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = {}
            for node in own_nodes(statement):
                for arg in node.args if type(node) is cst.Call else ():  # type: ignore[attr-defined]
                    if type(arg.value) is cst.Name:
                        name = arg.value.value
                        writes = None if arg.star else call_writes(self, node, arg.value)  # type: ignore[arg-type]
                        if writes is None or found.get(name, frozenset()) is None:
                            found[name] = None
                        elif writes:
                            found[name] = found.get(name, frozenset()) | writes  # type: ignore[operator]
        return found  # type: ignore[return-value]

    def _module_functions(self) -> dict[str, cst.FunctionDef]:
        """`Context.functions_by_name`, once per memo (the editor server makes the memos again for each top-level
        statement it analyses)."""
        found = self._memo.get("module functions")
        if found is None:
            found = self._memo["module functions"] = self.ctx.functions_by_name()
        return found  # type: ignore[return-value]

    def parameter_value(self, binding: Binding) -> object:
        """A parameter read on its own, in no call: `self` is a generic instance of its class; one annotated with a
        class of the project is a generic instance of it, with a torch class an object of that class; any other
        parameter is opaque (one object, unknown)."""
        function = binding.statement
        if type(function) is not cst.FunctionDef:
            return UNKNOWN
        owner = self.method_owner(function)
        # the first positional parameter, read from the signature: the function's facts walk all of its body
        params = function.params
        first = (params.posonly_params or params.params or (None,))[0]
        if owner is not None and first is not None and first.name.value == binding.name \
                and not _is_static(function):
            return self.generic_instance(owner)
        return _annotated_parameter(self, function, binding.name, param_annotation(function, binding.name))

    def annotated_value(self, annotation: cst.BaseExpression) -> object:
        """The object a parameter annotated with a class holds: a generic instance of a project class, a torch
        object of a torch class (`nn.Module`, `Optimizer`), UNKNOWN otherwise (`Optional[X]` says nothing sure).
        Python's own classes (`argparse.Namespace`, `types.SimpleNamespace`) build no object this floor reads: the
        parameter stays opaque, so `args.seq_len` is one value wherever it is read."""
        if type(annotation) is cst.SimpleString:
            try:
                annotation = cst.parse_expression(annotation.evaluated_value)
            except (cst.ParserSyntaxError, ValueError, TypeError):
                return UNKNOWN
        if type(annotation) not in (cst.Name, cst.Attribute):
            return UNKNOWN
        cls = self.object(annotation, self.now())
        if isinstance(cls, ClassValue):
            return self.generic_instance(cls)
        if isinstance(cls, Imported) and _is_object_class(cls.qualname) \
                and cls.qualname.split(".", 1)[0] not in sys.stdlib_module_names:
            return TorchObject(cls.qualname, None, None)
        return UNKNOWN

    def method_owner(self, function: cst.FunctionDef) -> ClassValue | None:
        """The class of this file whose body defines `function`."""
        class_def = self.ctx.class_of_method(function)
        return None if class_def is None else ClassValue(class_def, self.ctx)

    # ------------------------------------------------------------------------------------ calls being run

    def enter(self, frame: Frame) -> int:
        """A version of `frame`'s names as they are now, to read the statement about to run with."""
        version = -(len(self._versions) + 2)
        self._versions[version] = (frame, dict(frame.env))
        return version

    def frame_at(self, before: int) -> tuple[Frame, dict[str, object]]:
        return self._versions[before]

    def _name_in_call(self, want: str, expr: cst.Name, before: int) -> object:
        """A name read in a call being run: its value there, or, for a name the call does not bind, the enclosing
        call's, the comprehension's surroundings' or the module's."""
        name = expr.value
        frame, env = self._versions[before]
        while name not in frame.names:
            if frame.parent is None:
                return self._outside(want, expr, frame)
            frame = frame.parent
            env = frame.env
        return self.as_want(env.get(name, UNKNOWN), want)

    def _outside(self, want: str, expr: cst.Name, frame: Frame) -> object:
        if frame.outer is not None:
            point, home = frame.outer, frame.outer_home
        else:
            point = frame.module_point if frame.module_point is not None else self.now()
            home = self.ctx._module_scope()
        if point < 0:
            return self.evaluate(want, expr, point)
        saved = self._home
        self._home = home
        try:
            return self.evaluate(want, expr, point)
        finally:
            self._home = saved

    def defined_object(self, statement: cst.CSTNode, expr: cst.BaseExpression) -> object:
        """`expr`, a part of a `class` or `def` statement that Python evaluates when the statement runs (a base, a
        class attribute, a parameter's default), as a value: read with the names bound where the statement is, not
        where the question comes from (`hidden = D` in a class body holds what `D` was then, whatever a later line
        rebinds). A statement the traversal has not reached yet is read as of now."""
        ctx = self.ctx
        if type(statement) is cst.FunctionDef:
            definition = ctx.class_of_method(statement) or statement
        elif type(statement) is cst.ClassDef:
            definition = statement
        else:  # a lambda: no statement of its own binds a name to find its point by
            return self.object(expr, self.now())
        seq, owner_seq = ctx._bound_at.get(id(statement)), ctx._bound_at.get(id(definition))
        home = self._home_of(owner_seq) if owner_seq is not None else None
        binding = next((binding for binding in home.bindings.get(definition.name.value, ())
                        if binding.statement is definition), None) if home is not None else None
        if seq is None or binding is None:
            return self.object(expr, self.now())
        # a method's names are read where its class statement is: the branches around the class are the method's
        self._points.setdefault(seq, binding.path)
        saved = self._home
        self._home = home
        try:
            return self.object(expr, seq)
        finally:
            self._home = saved

    def global_point(self) -> int:
        """Where a function of this file that a question reaches now reads the module's names: at the point the
        innermost question about this file was asked as of (the line of the call, `model = Net()`, whatever line
        asked about `model`), else as of now. A call inside a call being run reads them where that run does."""
        return self._site if self._site is not None else self.now()

    def as_want(self, value: object, want: str) -> object:
        """A value read as a `want`; the floors above convert tensors."""
        if want == "value":
            return value
        if want == "size":
            if isinstance(value, Dim):
                return value
            if isinstance(value, Opaque):
                return value.as_size()
        return None

    def join_values(self, values: list[object]) -> object:
        """What values on several paths agree on (the floors above join tensors' shapes). Lists that one path
        made longer (`outs.append(h)` in a loop that may not run) agree on their common start, and on what follows
        where every extra element agrees."""
        if all(value is values[0] for value in values[1:]):
            # a list no path changed: joining it item by item at every branch of a long unrolled loop that grows
            # another list is what made a 650-line file take minutes
            return values[0]
        if len(values) > 1 and all(isinstance(value, Seq) for value in values):
            return self._join_sequences(values)  # type: ignore[arg-type]
        return join(values)

    def join_passes(self, values: list[object], key: Hashable) -> object:
        """What the values a generator's `yield`s hand out on the passes of its loops agree on, where a size that
        differs between them (the short last batch of `X[i:i + batch_size]` over `range(0, len(X), batch_size)`)
        is widened to a size of its own, keyed by `key`, rather than losing the value: the floors above widen
        tensors; here, `join_values`."""
        return self.join_values(values)

    def _join_sequences(self, values: list[Seq]) -> object:
        if len({value.kind for value in values}) != 1:
            return UNKNOWN
        shortest = min(len(value.items) for value in values)
        # a pair on every path is a pair, whatever one of its elements is (`(tokens, rng.randrange(n))` appended on
        # each pass of a loop): only lists that one path made longer agree on no more than their common start
        same_length = all(value.complete for value in values) and len({len(value.items) for value in values}) == 1
        common: list[object] = []
        for index in range(shortest):
            joined = self.join_values([value.items[index] for value in values])
            if joined is UNKNOWN and not same_length:
                break
            common.append(joined)
        if same_length:
            return Seq(tuple(common), values[0].kind)
        rest = [item for value in values for item in value.items[len(common):]]
        rest += [value.each for value in values if not value.complete and value.each is not None]
        each = self.join_values(rest) if rest else None
        if each is UNKNOWN or any(not value.complete and value.each is None for value in values):
            each = None
        return Seq(tuple(common), values[0].kind, complete=False, each=each)

    def join_envs(self, a: dict[str, object], b: dict[str, object]) -> dict[str, object]:
        # most names hold the very same value on both sides (a branch or a loop's pass rebinds a few): that value is
        # their join, but for the kinds a join rebuilds (`REJOINED`)
        rejoined = self.REJOINED
        joined: dict[str, object] = {}
        for name in a.keys() | b.keys():
            value, other = a.get(name, UNKNOWN), b.get(name, UNKNOWN)
            joined[name] = value if value is other and not isinstance(value, rejoined) \
                else self.join_values([value, other])
        return joined

    def with_sizes(self, value: object, change: Callable[[Dim], Dim]) -> object:
        """`value` with each size it holds changed by `change`, through lists, tuples and dicts (the shapes floor
        adds tensors and arrays); what holds no size comes back as it is."""
        if isinstance(value, Dim):
            return change(value)
        if isinstance(value, Seq | Mapping):
            entries = tuple(self.with_sizes(item, change) for item in value.items) if isinstance(value, Seq) else \
                tuple((key, self.with_sizes(item, change)) for key, item in value.items)
            each = self.with_sizes(value.each, change) if value.each is not None else None
            if entries == value.items and each == value.each:
                return value
            return replace(value, items=entries, each=each)
        return value

    def kind_of(self, value: object) -> str | None:
        """The type of a value, as `isinstance` tells it: a builtin's name; the shapes floor adds tensors."""
        return builtins.python_type(value)

    def iterated(self, value: object) -> Seq | Mapping | None:
        """What a loop over `value` goes through: a list's or dict's elements, a container module's layers; the
        shapes floor adds a tensor's rows and a data loader's batches."""
        if isinstance(value, Instance) and value.items is None:
            return self._generated_by(value)
        return builtins.container_items(value)

    def _generated_by(self, instance: Instance) -> Seq | None:
        """A loop over an object of a project class whose `__iter__` is a generator (a batch iterator's `for i in
        range(n): yield self.x[i:i + bs], ...`): the values its `yield`s hand out, read with the object's attributes
        as they are. An `__iter__` that returns an iterator (`self`, with a `__next__` whose calls keep state) and a
        class iterated through `__getitem__` give nothing."""
        if instance.tainted:
            return None
        method = self.calls.method(instance.cls, "__iter__")
        if method is None or not called_as_written(method[1].ctx, method[0]):
            return None
        bound = FunctionValue(method[0], method[1].ctx, instance, method[1])
        generated = self.calls.run(bound, self.calls.generic_arguments(bound)).value
        return generated if isinstance(generated, Seq) and generated.kind == "generator" else None

    def element(self, value: object) -> object:
        """What a loop variable over `value` holds on any pass: what every element is."""
        found = self.iterated(value)
        if isinstance(found, Seq):
            if found.items and found.complete:
                return self.join_values(list(found.items))
            if not found.items and found.each is not None:
                return found.each
        return UNKNOWN

    def unpacked_values(self, value: object, count: int) -> list[object] | None:
        """The `count` values an unpacking of `value` gives; None when not known."""
        items = value.items if isinstance(value, Seq) and value.complete else None
        if isinstance(value, Seq) and not value.complete and not value.items and value.each is not None \
                and value.least == value.most == count:
            # `mk, mv = (repeat(t, ...) for t in self.mem_kv)` over a (2, ...) tensor: as many elements as its
            # rows, each what every element is
            return [value.each] * count
        return list(items) if items is not None and len(items) == count else None

    def unpacking(self, expr: cst.BaseExpression, names: list[str | None],
                  before: int) -> tuple[list[object], dict[str, object]] | None:
        """What unpacking `expr` into `names` gives when its value alone does not say, and what it teaches about
        the names `expr` reads (the shapes floor: `B, T, C = x.shape` gives `x` rank 3)."""
        return None

    def augmented(self, node: cst.AugAssign, before: int) -> object:
        """The value `x += y` leaves in `x`."""
        old, new = self.object(node.target, before), self.object(node.value, before)
        operator = type(node.operator)
        if isinstance(old, Seq) and isinstance(new, Seq) and operator is cst.AddAssign:
            return Seq(old.items + new.items if old.complete else old.items, old.kind, old.complete and new.complete)
        if isinstance(old, Dim) and isinstance(new, Dim):
            apply = _AUGMENTED.get(operator)
            if apply is not None and not (operator is cst.FloorDivideAssign and new.literal == 0):
                found = _bounded(apply, old, new)
                return UNKNOWN if found is None else found
        return UNKNOWN

    def generic_argument(self, function: cst.FunctionDef, param: cst.Param) -> object:
        """A parameter's value in a run with no call to take it from: an object of its annotated class, else
        opaque; the shapes floor reads jaxtyping annotations first."""
        annotation = param.annotation.annotation if param.annotation is not None else None
        return _annotated_parameter(self, function, param.name.value, annotation)

    def size_of_expression(self, expr: cst.BaseExpression, before: int) -> Dim | None:
        """An int-valued attribute, call or subscript (`self.n_head`, `config.n_embd`, `len(blocks)`,
        `sizes[0]`), read as an object's value; the shapes floor first asks whether it measures a tensor."""
        value = self.object(expr, before)
        if isinstance(value, Dim):
            return value
        if isinstance(value, Opaque):
            return value.as_size()
        if type(expr) is cst.Call and len(expr.args) == 1 and not expr.args[0].star \
                and self.object(expr.func, before) == Imported("builtins.len"):
            # a count the code does not state (`len(records)` of a list read from a file) is still one size, equal
            # only to itself where it is read: `torch.zeros(len(records), 8)` keeps its 8
            return Dim.symbol((UNSTATED_COUNT, id(expr), before), self.ctx.code(expr), placeholder=True)
        return None

    def other_value(self, expr: cst.BaseExpression, before: int) -> object:
        """What this floor can't say about an expression (a tensor): the floors above answer."""
        return UNKNOWN

    def is_object(self, value: object) -> bool:
        """Whether a value certainly is not None (`targets is None` is False for a tensor the call passed): the
        floors above add their values."""
        return builtins.definite(value)

    # ------------------------------------------------------------------------------------------ objects

    def generic_instance(self, cls: ClassValue) -> object:
        """The instance a class's methods see as `self` when read on their own: built by its `__init__` with
        opaque arguments."""
        key = ("generic", id(cls.node))
        found = self._instances.get(key)
        if found is None:
            self._instances[key] = UNKNOWN  # a class whose `__init__` builds itself gives up
            found = self._instances[key] = self.calls.construct(cls, None, None, generic=True)
        return found

    def imported(self, qualname: str) -> object:
        """What an imported dotted name holds: a class, function or value of one of the project's modules, read
        from its file (`shapecheck.objects.project`); else the name of another package's thing."""
        level, name = split_relative(qualname)
        root = name.split(".", 1)[0]
        if not level and not_first_party(root):
            return Imported(qualname)
        found = self.calls.first_party(qualname, level, name)
        return Imported(qualname) if found is None else found

    def star_exported(self, name: str) -> object:
        """What a `from <module> import *` of the project's own modules gives a name nothing binds (a package's
        `__init__.py` re-exporting `from .resnet import *`, a script's `from models import *`): the first such
        module that defines it; UNKNOWN when none of them does, or the name is private (`*` leaves it out)."""
        if name.startswith("_"):
            return UNKNOWN
        if self._star_modules is None:
            self._star_modules = tuple(_first_party_stars(self.ctx.module))
        for module in self._star_modules:
            found = self.imported(f"{module}.{name}")
            if found is not UNKNOWN and not isinstance(found, Imported):
                return found
        return UNKNOWN

    def module_defines(self, name: str) -> bool:
        """Whether this module binds `name` at its top level."""
        return bool(self.ctx._module_scope().bindings.get(name))

    def module_value(self, path: str) -> object:
        """A module-level name of this (imported) module, as its last binding left it."""
        bindings = self.ctx._module_scope().bindings.get(path)
        if not bindings:
            return self.star_exported(path)
        if len(bindings) > 1 and not flow.unconditional(bindings[-1].path):
            # `HIDDEN = 32` then `if args.big: HIDDEN = 64`: the module leaves either, so it is what they agree on
            return join([self.bound_value(binding) for binding in bindings])
        return self.bound_value(bindings[-1])

    def attribute_value(self, expr: cst.Attribute, before: int) -> object:
        name = expr.attr.value
        if before >= 0:
            qualname = self.ctx.qualname(expr)
            if qualname is not None:
                return self.imported(qualname)
        receiver = self.object(expr.value, before)
        if isinstance(receiver, Instance) and before >= 0 and is_self_attribute(expr):
            found = self._set_here(expr, before)
            if found is not UNKNOWN:
                return found
        return self.attribute_of(receiver, name)

    def _set_here(self, expr: cst.Attribute, before: int) -> object:
        """`self.net` read in the method that sets it (`self.net = Net()` in a trainer's `fit`, `self.hidden =
        (h0, c0)` in a `forward`, whatever `__init__` set): what the method's own assignments there give, when
        every one that may reach the read is one."""
        function = self.ctx.function
        bindings = self.candidates(expr, before) if function is not None else None
        if not bindings or any(binding.kind != "assign" or function not in binding.path for binding in bindings):
            return UNKNOWN
        read = self.point(before)
        if read is None or flow.reach(bindings[-1].path, read, self.ctx._frame.node) != "always":
            return UNKNOWN  # set on some paths only: on the others, another method may have set it
        return join([self.bound_value(binding) for binding in self.choose(bindings)])

    def attribute_of(self, receiver: object, name: str) -> object:
        if isinstance(receiver, Instance):
            if receiver.tainted:
                return UNKNOWN
            if name in receiver.attrs:
                value = receiver.attrs[name]
                return UNKNOWN if receiver.generic and receiver.initializing is None and _empty(value) else value
            method = self.calls.method(receiver.cls, name)
            if method is not None:
                bound = FunctionValue(method[0], method[1].ctx,
                                      receiver.cls if _is_classmethod(method[0]) else receiver, method[1])
                if _is_property(method[0]):  # `cfg.d_ff` of `return self.d_model * self.expansion`
                    return self.calls.run(bound, self.calls.generic_arguments(bound)).value
                return bound if called_as_written(method[1].ctx, method[0]) else UNKNOWN
            if self.calls.set_by_a_method(receiver.cls, name):
                # the class body's value (a pydantic field's default) holds only until a method sets the attribute
                return UNKNOWN
            return self.class_attribute(receiver.cls, name)
        if isinstance(receiver, ClassValue):
            method = self.calls.method(receiver, name)
            if method is not None and called_as_written(method[1].ctx, method[0]):
                # a classmethod's `cls` is the class it is called on: `Net.from_config(cfg)` runs `cls(**cfg)`
                return FunctionValue(method[0], method[1].ctx, receiver if _is_classmethod(method[0]) else None,
                                     method[1])
            return self.class_attribute(receiver, name)
        if isinstance(receiver, Imported):
            return self.imported(f"{receiver.qualname}.{name}")
        if isinstance(receiver, Namespace):
            return receiver.get(name)
        if isinstance(receiver, Opaque):
            # an attribute of an object the code does not state (`config.n_embd` of a parameter `config`): as
            # unknown as the object, but the same value wherever it is read, unless the code sets it
            if receiver.written is None or name in receiver.written:
                return UNKNOWN
            options = receiver.options
            if options is None:
                return Opaque((receiver.key, name), f"{receiver.name}.{name}")
            stated = options.get(name)
            number = command_line.stated_number(stated)  # `args.gamma` of `--gamma`, `default=2.0`: no tensor
            return Opaque((receiver.key, name), f"{receiver.name}.{name}",
                          default=command_line.namespace_default(options, name),
                          maybe_tensor=not number, number=number,
                          choice=stated.value if isinstance(stated, Const) and type(stated.value) is str else None)
        if isinstance(receiver, Super):
            method = self.calls.method_after(receiver.instance, receiver.owner, name)
            if method is not None and called_as_written(method[1].ctx, method[0]):
                return FunctionValue(method[0], method[1].ctx, receiver.instance, method[1])
            instance = receiver.instance
            if name == "__init__" and isinstance(instance, Instance) and any(base in _CONTAINERS
                                                                            for base in instance.bases):
                return ContainerInit(instance)  # an `nn.Sequential` subclass handing its layers to torch
            if name == "forward" and isinstance(instance, Instance) and any(base in _SEQUENTIAL
                                                                           for base in instance.bases):
                return ContainerForward(instance)
            return UNKNOWN
        return UNKNOWN

    def class_attribute(self, cls: ClassValue, name: str) -> object:
        """A class-level assignment (`expansion = 4`) of `cls` or a project base, as a value."""
        for owner in self.calls.mro(cls):
            facts = class_facts(owner.ctx, owner.node)
            expr = facts.class_attributes.get(name)
            if expr is not None:
                constant = constant_of(expr)
                if constant is not UNKNOWN:
                    return constant
                return self.calls.evaluator_for(owner.ctx).defined_object(owner.node, expr)
        return UNKNOWN

    def call_value(self, call: cst.Call, before: int) -> object:
        func = call.func
        if type(func) is cst.Attribute:
            method = func.attr.value
            receiver = self.object(func.value, before)
            if method in command_line.PARSE_METHODS:
                found = command_line.parsed(self, call, before)
                if found is not UNKNOWN:
                    return found
            if method in RETURNS_SELF and isinstance(receiver, (TorchObject, Instance)):
                return receiver
            if method in _PREPARE_METHODS and isinstance(receiver, TorchObject) and receiver.qualname in ACCELERATORS:
                return self._prepared(call, before)
            if method in DERIVED and isinstance(receiver, (TorchObject, Instance, Opaque)):
                return Derived(receiver, method)
            if isinstance(receiver, (Seq, Mapping)):
                return builtins.container_method(receiver, method, self, call, before)
            if isinstance(receiver, Const) and type(receiver.value) is str:
                return builtins.string_method(receiver.value, method, self, call, before)
            if method == "item" and not call.args and receiver is not NONE:  # a tensor's or an array's one value
                return builtins.drawn_count(self, call, before) or builtins.number(call)
            if isinstance(receiver, TorchObject) and receiver.qualname in _OBJECT_FACTORIES \
                    and builtins.numpy_scalar_draw(method, call):
                return builtins.drawn_number(self, call)  # `life = cycles + rng.integers(0, 20)`: an int
            if isinstance(receiver, TorchObject) and receiver.qualname == "random.Random":
                if method == "sample":
                    return builtins.sampled(self, call, before)
                drawn = builtins.python_draw(self, call, method, before)  # `rng.randrange(n_intents)`: an int
                if drawn is not UNKNOWN:
                    return drawn
            if method == "convert" and (receiver is UNKNOWN or isinstance(receiver, Opaque)) \
                    and pil_mode_channels(self, call, before) is not None:
                # `Image.open(path).convert("RGB")`: a PIL image of the mode's channels, whatever the file held
                return TorchObject(PIL_IMAGE, call, self.site(before))
            if method in ("items", "keys", "values") and isinstance(receiver, (TorchObject, Instance)) \
                    and isinstance(receiver.items, Mapping):  # an `nn.ModuleDict`'s views
                return builtins.container_method(receiver.items, method, self, call, before)
            # an object an attribute holds is called as a name holding it is (`self.featurizer(wave)`)
            callee = self.called(self.attribute_of(receiver, method)) if receiver is not UNKNOWN else UNKNOWN
            if callee is UNKNOWN and before >= 0:
                # `s2s.Decoder(...)` after `import nets.seq2seq as s2s`: a class of the project, else another
                # package's thing
                qualname = self.ctx.qualname(func)
                callee = self.imported(qualname) if qualname is not None else UNKNOWN
        else:
            callee = self.called(self.object(func, before))
        if isinstance(callee, Imported):
            return self.imported_call(callee.qualname, call, before)
        if isinstance(callee, ContainerInit):
            callee.instance.items = self.container_items(call, before)
            return NONE
        if isinstance(callee, (ClassValue, FunctionValue)):
            return self.calls.call(callee, call, before)
        if isinstance(callee, Partial):
            return self.calls.call(callee.func, call, before, callee)
        return UNKNOWN

    def called(self, callee: object) -> object:
        """What a call of `callee` runs: an object of a class of the project with its own `__call__` (a loss or a
        wrapper, `criterion(pred, y)`) runs that method; anything else is called as it is."""
        if isinstance(callee, Instance) and not callee.tainted and self.calls.method(callee.cls, "__call__"):
            method = self.attribute_of(callee, "__call__")
            if isinstance(method, FunctionValue):
                return method
        return callee

    def imported_call(self, qualname: str, call: cst.Call, before: int) -> object:
        """A call of something another package defines: a builtin, or a class whose object this floor keeps."""
        if qualname.startswith("builtins."):
            return builtins.call(qualname[len("builtins."):], self, call, before)
        module, _, name = qualname.rpartition(".")
        if module == "random" and name in ("randrange", "randint"):
            # `random.randint(5, 12)`, a count below a bound; `random.randrange(n_classes)`: an int all the same
            return builtins.python_draw(self, call, name, before)
        if qualname == "random.sample":
            return builtins.sampled(self, call, before)
        drawn = builtins.drawn_count(self, call, before)
        if drawn is not None:
            return drawn
        if builtins.scalar_draw(qualname, call):
            return builtins.drawn_number(self, call)  # a mixup's `np.random.beta(a, a)`: a float
        if qualname.startswith("math.") and qualname.count(".") == 1:
            return builtins.number(call)  # `math.sqrt(d)`: a float
        if qualname == "functools.partial":
            return self.calls.partial(call, before)
        if qualname in builtins.ORDERED_DICT:
            return builtins.ordered_dict(self, call, before)
        if qualname in _NAMESPACES:
            return command_line.built(self, call, before)
        if qualname in _COPIES:
            return self._copy(call, before)
        if qualname in SPLITS:
            return self._split(qualname, call, before)
        if qualname in _SAME_CALLS or qualname in _SAME_ITERATION:
            return self._wrapped(call, before)
        if _is_object_class(qualname) or builds_module(qualname) or qualname in _OBJECT_FACTORIES:
            items = None
            if qualname in _CONTAINERS:
                items = self.container_items(call, before)
            return TorchObject(qualname, call, self.site(before), items)
        return UNKNOWN

    def _split(self, qualname: str, call: cst.Call, before: int) -> object:
        """`random_split(dataset, [50000, 10000])`: as many subsets of `dataset` as the lengths list has entries,
        each read as a `Subset` whose dataset is the call's first argument."""
        if any(arg.star for arg in call.args) or len(call.args) < 2:
            return UNKNOWN
        lengths = self.object(call.args[1].value, before) if call.args[1].keyword is None else UNKNOWN
        if not isinstance(lengths, Seq) or not lengths.complete:
            return UNKNOWN
        site = self.site(before)
        subset = qualname.rsplit(".", 1)[0] + ".Subset"
        return Seq(tuple(TorchObject(subset, call, site) for _ in lengths.items), "list")

    def _wrapped(self, call: cst.Call, before: int) -> object:
        """`nn.DataParallel(model)`, `torch.compile(model)`: calling the wrapper runs the model's forward on the same
        inputs; `tqdm(loader)` goes through the loader's batches. Either is read as the object it wraps, named by
        the first positional argument (or the keyword that names it)."""
        for arg in call.args:
            if arg.star:
                return UNKNOWN
            if arg.keyword is None or arg.keyword.value in ("module", "model", "iterable"):
                return self.object(arg.value, before)
        return UNKNOWN

    def _prepared(self, call: cst.Call, before: int) -> object:
        """`accelerator.prepare(model, optimizer, loader)`: the objects given, in a tuple when there are several
        (`model, opt, loader = accelerator.prepare(...)`), the one object when there is one."""
        if any(arg.star or arg.keyword is not None for arg in call.args) or not call.args:
            return UNKNOWN
        given = tuple(self.object(arg.value, before) for arg in call.args)
        return given[0] if len(given) == 1 else Seq(given, "tuple")

    def _copy(self, call: cst.Call, before: int) -> object:
        """`copy.deepcopy(layer)` (the annotated transformer's `clones`): what it copies, an object of the project
        as another object with the same attributes (what is later set on one is not set on the other)."""
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return UNKNOWN
        value = self.object(call.args[0].value, before)
        return replace(value, attrs=dict(value.attrs)) if isinstance(value, Instance) else value

    def container_items(self, call: cst.Call, before: int) -> Seq | Mapping | None:
        """The layers `nn.Sequential(a, b)`, `nn.Sequential(*layers)`, `nn.Sequential(OrderedDict(...))`,
        `nn.ModuleList([...])` and `nn.ModuleDict({...})` hold; None when hidden."""
        if not call.args:
            return Seq(())
        if any(arg.keyword is not None for arg in call.args):
            return None
        if len(call.args) == 1 and not call.args[0].star:
            single = self.object(call.args[0].value, before)
            if isinstance(single, (Seq, Mapping)):
                return single
            if isinstance(single, Derived) or single is UNKNOWN:
                return None
        values = builtins.arguments(self, call, before)
        return values

    # ------------------------------------------------------------------------------------ path runs (SC101)

    def path_bindings_compatible(self, bindings: list[Binding]) -> bool:
        """No two of the bindings sit in branches that exclude each other."""
        root = self.ctx._frame.node
        return not any(flow.reach(a.path, b.path, root) == "never" or flow.reach(b.path, a.path, root) == "never"
                       for i, a in enumerate(bindings) for b in bindings[i + 1:])


# functions of another package, named like functions, that build an object whose methods the floors above read
# Hugging Face Accelerate's `accelerator.prepare(model, optimizer, loader)` hands back the objects it is given,
# wrapped to run on the devices (a model calls its forward, a loader gives its batches): read as those objects
ACCELERATORS = frozenset({"accelerate.Accelerator", "accelerate.accelerator.Accelerator"})
_PREPARE_METHODS = frozenset({"prepare", "prepare_model", "prepare_data_loader"})
# Lightning's trainers: `trainer.fit(model, loader)` runs the model's `training_step` on the loader's batches
LIGHTNING_TRAINERS = frozenset({"pytorch_lightning.Trainer", "lightning.Trainer", "lightning.pytorch.Trainer",
                                "pytorch_lightning.trainer.Trainer", "lightning.pytorch.trainer.Trainer",
                                "pytorch_lightning.trainer.trainer.Trainer",
                                "lightning.pytorch.trainer.trainer.Trainer"})
_OBJECT_FACTORIES = frozenset({"numpy.random.default_rng"}) | LIGHTNING_TRAINERS | ACCELERATORS
PIL_IMAGE = "PIL.Image.Image"
# The channels a PIL image of each mode converts to a tensor with (`ToTensor`, `PILToTensor`).
_PIL_CHANNELS = {"RGB": 3, "L": 1, "RGBA": 4}


def pil_mode_channels(ev: Evaluator, call: cst.Call, before: int) -> int | None:
    """The channels of the mode a `.convert(mode)` call names by a string (`"RGB"`: 3); None for any other call."""
    arg = call.args[0] if len(call.args) == 1 else None
    if arg is None or arg.star or arg.keyword is not None and arg.keyword.value != "mode":
        return None
    mode = ev.object(arg.value, before)
    return _PIL_CHANNELS.get(mode.value) if isinstance(mode, Const) and type(mode.value) is str else None
_SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
_COPIES = frozenset({"copy.deepcopy", "copy.copy"})
_NAMESPACES = frozenset({"argparse.Namespace", "types.SimpleNamespace"})  # objects whose keywords are attributes
# torch's data-parallel wrappers, by the names `Context.qualname` resolves them to: each scatters the batch it is
# given across the devices it runs on
DATA_PARALLEL = frozenset({"torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
                           "torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.data_parallel.DataParallel",
                           "torch.nn.parallel.distributed.DistributedDataParallel"})
# wrappers whose call runs the wrapped module's forward on the inputs it is given (on one device; DataParallel
# splits the batch across several, each part run the same way)
_SAME_CALLS = DATA_PARALLEL | {"torch.compile", "torch.jit.script"}
# progress bars that yield their iterable's elements unchanged
_SAME_ITERATION = frozenset({"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm",
                             "tqdm.rich.tqdm", "tqdm.autonotebook.tqdm"})
# `random_split(dataset, lengths)`: the parts it returns are `Subset`s of `dataset`
SPLITS = frozenset({"torch.utils.data.random_split", "torch.utils.data.dataset.random_split"})
_CONTAINERS = frozenset({"torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict",
                         "torch.nn.modules.container.Sequential", "torch.nn.modules.container.ModuleList",
                         "torch.nn.modules.container.ModuleDict", "torch.nn.ParameterList",
                         "torch.nn.ParameterDict"})


def _is_object_class(qualname: str) -> bool:
    """A callable of another package named like a class that builds an object (not a tensor): `torch.nn.Linear`,
    `torch.optim.SGD`, `torch.utils.data.DataLoader`."""
    last = qualname.rsplit(".", 1)[-1]
    return bool(last) and last[0].isupper() and last not in _NOT_OBJECTS and not qualname.startswith("builtins.")


_OWN_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)  # what a binding inside is not the module's


def _nonlocal_names(code: cst.CSTNode) -> frozenset[str]:
    """The names a function in `code` declares `nonlocal`."""
    return declared_names(code, cst.Nonlocal)


def _nested(binding: Binding) -> bool:
    """A `def` inside a function."""
    return any(type(node) in (cst.FunctionDef, cst.Lambda) for node in binding.path[:-1])


def _is_static(function: cst.FunctionDef) -> bool:
    return any(dotted_name(d.decorator) in ("staticmethod", "classmethod") for d in function.decorators)


def _is_classmethod(function: cst.FunctionDef) -> bool:
    return any(dotted_name(d.decorator) == "classmethod" for d in function.decorators)


def named(dim: Dim, name: str) -> Dim:
    """A dim of a tensor that the code never named, renamed after the name the code binds it to."""
    if dim.atom is not None and dim.atom.placeholder:
        return Dim.symbol(dim.atom.key, name)
    return dim


def unpacking_point(binding: Binding) -> int:
    """Where the value an unpacking binding takes its part of is read: as of the unpacking's first name, for all its
    names alike (`values, rewards, dones = self.collect()` unpacks one run of `collect`, whose lists grown on the
    same passes are as long as each other), where the target is a plain list of names, bound one after the other."""
    elements = binding.unpacking_elements()
    if binding.index is None or elements is None or not all(type(e.value) is cst.Name for e in elements):
        return binding.seq
    return binding.seq - binding.index


def join(values: list[object]) -> object:
    """What several values that may reach a read agree on: the value when they are all the same, a float the code
    does not state when each is a float or a number (a discounted return a loop carries, `running = r + gamma *
    running`; ints are sizes, which differ), else UNKNOWN."""
    first = values[0]
    for other in values[1:]:
        if other is not first and other != first:
            break
    else:
        return first
    if not all(number_kind(value) in ("float", "number") for value in values):
        return UNKNOWN
    for value in values:
        if isinstance(value, Opaque) and type(value.key) is tuple and value.key[0] == builtins.JOINED_NUMBER:
            return value  # a loop's next pass joined again: the same number, so its passes settle
    return Opaque((builtins.JOINED_NUMBER, frozenset(values)), "number", maybe_tensor=False, number=True)


# ------------------------------------------------------------------------------------------- the handlers


def _value(ev: Evaluator, expr: cst.BaseExpression, before: int) -> object:
    constant = constant_of(expr)
    if constant is not UNKNOWN:
        return constant
    kind = type(expr)
    if kind is cst.Name:
        return ev.value_of_name(expr, before)
    if kind is cst.Attribute:
        found = ev.attribute_value(expr, before)
    elif kind is cst.Call:
        found = ev.call_value(expr, before)
    elif kind in (cst.Tuple, cst.List):
        found = builtins.sequence(ev, expr, before)
    elif kind is cst.Dict:
        found = builtins.mapping(ev, expr, before)
    elif kind is cst.Subscript:
        found = builtins.subscript(ev, expr, before)
    elif kind in (cst.BinaryOperation, cst.UnaryOperation):
        found = builtins.arithmetic(ev, expr, before)
    elif kind is cst.Comparison:
        found = builtins.comparison(ev, expr, before)
    elif kind is cst.BooleanOperation:
        found = builtins.boolean(ev, expr, before)
    elif kind is cst.IfExp:
        test = truth(ev.object(expr.test, before))
        if test is None:
            sides = [ev.object(expr.body, before), ev.object(expr.orelse, before)]
            found = join(sides)
            # `rng.randrange(n) if rng.random() > 0.3 else 0`, a label drawn or a default: a number all the same
            # (two sizes the code states stay unknown: one of them, not some other size)
            if found is UNKNOWN and all(number_kind(side) is not None for side in sides) \
                    and any(isinstance(side, Opaque) for side in sides):
                found = builtins.number(expr)
            elif found is UNKNOWN and all(isinstance(side, Dim) for side in sides) \
                    and any(side.literal is None for side in sides):  # type: ignore[union-attr]
                # an int either way, of a size the code doesn't state (`1 if same else 0` stays unknown: one of two)
                found = Dim.symbol(("either", id(expr)), ev.ctx.code(expr), placeholder=True)
        else:
            found = ev.object(expr.body if test else expr.orelse, before)
    elif kind in (cst.ListComp, cst.GeneratorExp, cst.DictComp):
        found = ev.calls.comprehension(expr, before)
    elif kind is cst.Lambda:  # called like a function: inside a run, with the run's names around it
        found = FunctionValue(expr, ev.ctx, None, None, ev.frame_at(before)[0] if before < 0 else None)
    elif kind is cst.NamedExpr:
        found = ev.object(expr.value, before)
    elif kind is cst.FormattedString:
        found = builtins.formatted(ev, expr, before)
    else:
        found = UNKNOWN
    if found is UNKNOWN or found is None:
        found = ev.other_value(expr, before)
    return found


def _size(ev: Evaluator, expr: cst.BaseExpression, before: int) -> Dim | None:
    kind = type(expr)
    if kind is cst.Integer:
        return Dim.of(int(expr.value.replace("_", ""), 0))
    if kind is cst.Name:
        if expr.value in ("True", "False", "None"):
            return None
        return ev.size_of_name(expr, before)
    if kind is cst.UnaryOperation:
        inner = ev.size(expr.expression, before)
        if inner is None:
            return None
        if type(expr.operator) is cst.Minus:
            return -inner
        return inner if type(expr.operator) is cst.Plus else None
    if kind is cst.BinaryOperation:
        return _arithmetic(ev, expr, before)
    if kind is cst.NamedExpr:
        return ev.size(expr.value, before)
    if kind in (cst.Attribute, cst.Call, cst.Subscript):
        return ev.size_of_expression(expr, before)
    if kind is cst.IfExp:  # `hidden if i else n_in` of a layer stack's comprehension
        test = truth(ev.object(expr.test, before))
        if test is not None:
            return ev.size(expr.body if test else expr.orelse, before)
        body, orelse = ev.size(expr.body, before), ev.size(expr.orelse, before)
        return body if body is not None and body == orelse else None
    return None


_AUGMENTED = {
    cst.AddAssign: lambda a, b: a + b,
    cst.SubtractAssign: lambda a, b: a - b,
    cst.MultiplyAssign: lambda a, b: a * b,
    cst.FloorDivideAssign: lambda a, b: a // b,
}

_ARITHMETIC = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.FloorDivide: lambda a, b: a // b,
    cst.Divide: lambda a, b: a / b,
    cst.Modulo: lambda a, b: a % b,
}


def _arithmetic(ev: Evaluator, expr: cst.BinaryOperation, before: int) -> Dim | None:
    left = ev.size(expr.left, before)
    if left is None:
        return None
    operator = type(expr.operator)
    if operator is cst.Power:
        exponent = ev.integer(expr.right, before)
        if exponent is None or not 0 <= exponent <= 8:
            return None
        result: Dim | None = Dim.of(1)
        for _ in range(exponent):
            result = _bounded(_ARITHMETIC[cst.Multiply], result, left) if result is not None else None
        return result
    apply = _ARITHMETIC.get(operator)
    right = ev.size(expr.right, before)
    if apply is None or right is None:
        return None
    if operator in (cst.FloorDivide, cst.Divide, cst.Modulo) and right.literal == 0:
        return None
    return _bounded(apply, left, right)


# A size code computes has a few terms (`(h - k + 2 * p) // s + 1`). Products of sums over symbols the analysis names
# grow exponentially along a recurrence (generated spherical-harmonics code: `y4 = c1 * y3 * z + c2 * y2 * x`, each
# constant and input a symbol of its own), and normalizing them took minutes: past this many terms a value is no size
# any rule could compare, so it is unknown.
_MAX_TERMS = 32


def _bounded(apply: Callable[[Dim, Dim], Dim], left: Dim, right: Dim) -> Dim | None:
    if len(left.terms) * len(right.terms) > _MAX_TERMS ** 2:
        return None
    found = apply(left, right)
    return found if len(found.terms) <= _MAX_TERMS else None


Evaluator.HANDLERS = {"value": _value, "size": _size}


def _position_in(target: cst.BaseExpression, name: str) -> list[tuple[int, int]] | None:
    """Where `name` sits in an unpacking target, from the outside in, as (index, number of elements) at each level;
    None when it is not in a nested tuple, sits there twice, or a starred element shares a level with it."""
    found: list[list[tuple[int, int]]] = []

    def visit(node: cst.BaseExpression, steps: list[tuple[int, int]]) -> None:
        if type(node) is cst.Name:
            if node.value == name:
                found.append(steps)
        elif type(node) is cst.Tuple or type(node) is cst.List:
            starred = any(type(e) is cst.StarredElement for e in node.elements)
            for index, element in enumerate(node.elements):
                visit(element.value, steps + [(-1 if starred else index, len(node.elements))])

    visit(target, [])
    if len(found) != 1 or len(found[0]) < 2 or any(index < 0 for index, _ in found[0]):
        return None
    return found[0]


def _is_property(function: cst.FunctionDef) -> bool:
    """`@property` or `@cached_property` (`functools.cached_property` too): reading the attribute runs it."""
    for decorator in function.decorators:
        expr = decorator.decorator
        name = expr.value if type(expr) is cst.Name else expr.attr.value if type(expr) is cst.Attribute else None
        if name in ("property", "cached_property"):
            return True
    return False


def _empty(value: object) -> bool:
    """An empty list or dict. A generic instance is the object at any point of its life: a container its methods
    leave empty (a rollout memory's `self.rewards = []`) is what the code holding the object fills
    (`memory.rewards.append(r)` in the script's loop), so how many elements it holds by then is not known."""
    return type(value) is Seq and value.kind == "list" and value.complete and not value.items \
        or type(value) is Mapping and value.complete and not value.items


def _annotated_parameter(ev: Evaluator, function: cst.FunctionDef, name: str,
                         annotation: cst.BaseExpression | None) -> object:
    """A parameter with no call to take it from: an object of its annotated class; one annotated `int` an int of
    unknown value (the size its opaque object would be, so `idx: int` indexes like a literal: `data[idx]` drops a
    dim); else opaque."""
    written = ev.attributes_set_in(function, name)
    opaque = Opaque(("param", id(function), name), name, written=frozenset(written) if written is not None else None)
    if annotation is None:
        return opaque
    if type(annotation) is cst.Name and annotation.value == "int":
        return opaque.as_size()
    typed = ev.annotated_value(annotation)
    return typed if typed is not UNKNOWN else opaque


def _attribute_holders_of(statement: cst.CSTNode) -> frozenset[str]:
    # a method's `self.x = ...` is its class's business: no module-level name is `self`
    return frozenset(holder for holder, _ in attribute_writes(statement) if holder != "self")


def _first_party_stars(module: cst.Module) -> Iterator[str]:
    """The modules a module's top-level `from <module> import *` statements name, relative dots kept, but for
    other packages' and Python's own."""
    for statement in module.body:
        for small in statement.body if type(statement) is cst.SimpleStatementLine else ():
            if type(small) is not cst.ImportFrom or not isinstance(small.names, cst.ImportStar) \
                    or small.module is None:
                continue
            name = dotted_name(small.module)
            if name is not None and (small.relative or not not_first_party(name.split(".", 1)[0])):
                yield "." * len(small.relative) + name


def _top_level_bindings(module: cst.Module) -> dict[str, list[cst.CSTNode]]:
    """The module's top-level statements by the names they bind: `def`, `class`, assignments to names, imports
    (`if`/`try` blocks at the top level count, their statements as written there)."""
    found: dict[str, list[cst.CSTNode]] = {}
    pending: list[cst.CSTNode] = list(module.body)
    while pending:
        statement = pending.pop()
        kind = type(statement)
        if kind in (cst.FunctionDef, cst.ClassDef):
            found.setdefault(statement.name.value, []).append(statement)  # type: ignore[attr-defined]
        elif kind in (cst.If, cst.Try, cst.With, cst.For, cst.While):
            for node in walk(statement):
                if type(node) in (cst.FunctionDef, cst.ClassDef):
                    found.setdefault(node.name.value, []).append(node)  # type: ignore[attr-defined]
                elif type(node) is cst.Name:
                    found.setdefault(node.value, []).append(statement)
        elif kind is cst.SimpleStatementLine:
            for node in walk(statement):
                if type(node) is cst.Name:
                    found.setdefault(node.value, []).append(statement)
    return found
