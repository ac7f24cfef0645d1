"""Calls into the project's own code, run statement by statement with the values of their arguments.

`Net(64)` runs `Net.__init__` with `hidden=64` and gives an `Instance` whose attributes are what `__init__` set
(through helpers it calls, `super().__init__(...)`, loops over config lists, `layers.append(...)`,
`nn.Sequential(*layers)`); `conv_bn(3, 64)` gives what `conv_bn` returns; the shapes floor runs `forward` with the
shapes of a model's inputs and reads the trace of what ran.

How a function runs statement by statement is `shapecheck.objects.executor`'s.

Runs are memoized per function and argument values, and bounded: a run nested deeper than `MAX_DEPTH` calls, a loop
longer than `MAX_UNROLL` iterations, or more than `MAX_STEPS` statements for one file give up (unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk
from shapecheck.objects.builtins import (
    container_items, drawn_by, draws_in, key_of, may_draw, per_item_draws, some_int,
)
from shapecheck.objects.classes import class_facts, filling_method, function_facts
from shapecheck.objects.command_line import command_line_defaults, number_option, option_default
from shapecheck.objects.dims import Dim
from shapecheck.objects.executor import (MAX_UNROLL, UNKNOWN_RUN, Executor, OutOfBudget, Run, assign_target, loop_items,
                                         target_names)
from shapecheck.objects.frames import Frame
from shapecheck.objects.project import PROJECT, candidates, imported_from
from shapecheck.objects.values import (
    UNKNOWN, ClassValue, Const, FunctionValue, Imported, Instance, Mapping, Namespace, Opaque, Partial, Seq, Super,
    TorchObject, constant_of, hashable, truth,
    unstated_element,
)

if TYPE_CHECKING:
    from shapecheck.engine.context import Context
    from shapecheck.objects.evaluator import Evaluator

MAX_DEPTH = 6  # calls nested in calls being run


MAX_STEPS = 20_000  # statements run for one file, all calls together


_DATACLASS = frozenset({"dataclass", "dataclasses.dataclass"})
_NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})


class Calls:
    """The runs of one file's evaluator."""

    def __init__(self, ev: Evaluator, shared: Calls | None = None) -> None:
        self.ev = ev
        # Shared by every evaluator a file's analysis makes (its own and one per other module of the project): the
        # evaluators of the other modules, the files read, and the statements run so far.
        self._others: dict[int, Evaluator] = shared._others if shared is not None else {}
        self.dependencies: set[str] = shared.dependencies if shared is not None else set()
        self._budget: list[int] = shared._budget if shared is not None else [0]
        self._active: list[int] = shared._active if shared is not None else []  # the functions being run, innermost last
        # the imported names being read from the project's modules, as (file, name): a cycle of imports is unknown
        self._reading: set[tuple[str, str]] = shared._reading if shared is not None else set()
        self._runs: dict[Hashable, Run] = {}
        self._mro: dict[int, list[ClassValue]] = {}
        # (id(comprehension), version it was read at) -> the versions its element was read at, each a pass that
        # certainly ran whenever the comprehension did: what a check of the code a call runs looks into
        self.element_runs: dict[tuple[int, int], list[int]] = {}

    # ------------------------------------------------------------------------------------------ classes

    def evaluator_for(self, ctx: Context) -> Evaluator:
        """The evaluator of the module that defines what is being run: this file's, or one of its own for another
        module of the project (whose parsed context other files share, but not what this file's calls put in)."""
        if ctx is self.ev.ctx:
            return self.ev
        found = self._others.get(id(ctx))
        if found is None:
            found = self._others[id(ctx)] = type(self.ev)(ctx)
            found.calls = Calls(found, self)
        return found

    def first_party(self, qualname: str, level: int, name: str) -> object | None:
        """The value of an imported name that one of the project's modules defines; None when it names none."""
        ctx = self.ev.ctx
        tries = [*candidates(name), (name, "")]
        if level:
            tries.append(("", name))  # a name the package's `__init__.py` defines
        for module, attribute in tries:
            path = PROJECT.module_file(ctx.filename, module, level)
            if path is None:
                continue
            if not attribute:
                return None  # a module of the project: its attributes are read when asked for
            first = attribute.split(".", 1)[0]
            other = PROJECT.context(path, frozenset({first, *imported_from(ctx, module, level)}))
            if other is None:
                return None
            self.dependencies.add(str(path))
            key = (str(path), first)
            if key in self._reading:
                return UNKNOWN  # a module that imports the name from itself, or two that import it from each other
            self._reading.add(key)
            try:
                evaluator = self.evaluator_for(other)
                if not evaluator.module_defines(first) \
                        and PROJECT.module_file(ctx.filename, f"{module}.{first}" if module else first, level):
                    continue  # a submodule of the package (`proj.models` of `proj/__init__.py`), not a name it binds
                value = evaluator.module_value(first)
            finally:
                self._reading.discard(key)
            for part in attribute.split(".")[1:]:
                value = self.ev.attribute_of(value, part)
            return value
        return None

    def bases(self, cls: ClassValue) -> list[object]:
        """The values of a class's bases, read where the class is defined."""
        evaluator = self.evaluator_for(cls.ctx)
        return [evaluator.defined_object(cls.node, base.value) for base in cls.node.bases if base.keyword is None]

    def set_by_a_method(self, cls: ClassValue, name: str) -> bool:
        """Whether a method of `cls` or of a project base assigns `self.<name>` (or any attribute, by `setattr`)."""
        for owner in self.mro(cls):
            facts = class_facts(owner.ctx, owner.node)
            if facts.dynamic or name in facts.writers:
                return True
        return False

    def mro(self, cls: ClassValue) -> list[ClassValue]:
        """The class and its project bases, depth first, left to right (enough for the hierarchies models use)."""
        found = self._mro.get(id(cls.node))
        if found is not None:
            return found
        self._mro[id(cls.node)] = [cls]  # a class that (wrongly) bases on itself stops here
        order: list[ClassValue] = [cls]
        for base in self.bases(cls):
            if isinstance(base, ClassValue):
                for inherited in self.mro(base):
                    if all(inherited.node is not seen.node for seen in order):
                        order.append(inherited)
        self._mro[id(cls.node)] = order
        return order

    def torch_bases(self, cls: ClassValue) -> tuple[str, ...]:
        """The qualnames of the other packages' classes among a class's bases and its project bases' bases."""
        return tuple(name for name in self.outside_bases(cls) if name is not None)

    def outside_bases(self, cls: ClassValue) -> list[str | None]:
        """`torch_bases`, with None for each base the analysis cannot read (neither the project's nor imported)."""
        names: list[str | None] = []
        for owner in self.mro(cls):
            for base in self.bases(owner):
                if isinstance(base, Imported):
                    names.append(base.qualname)
                elif not isinstance(base, ClassValue):
                    names.append(None)
        return names

    def method(self, cls: ClassValue, name: str) -> tuple[cst.FunctionDef, ClassValue] | None:
        for owner in self.mro(cls):
            method = class_facts(owner.ctx, owner.node).methods.get(name)
            if method is not None:
                return method, owner
        return None

    def method_after(self, instance: object, owner: ClassValue, name: str) -> tuple[cst.FunctionDef, ClassValue] | None:
        """The method `super()` inside `owner` finds for `instance`."""
        if not isinstance(instance, Instance):
            return None
        order = self.mro(instance.cls)
        after = False
        for cls in order:
            if after:
                method = class_facts(cls.ctx, cls.node).methods.get(name)
                if method is not None:
                    return method, cls
            elif cls.node is owner.node:
                after = True
        return None

    def super_value(self, call: cst.Call, before: int) -> object:
        """`super()` (or `super(Class, self)`) in the method being run or read."""
        ev = self.ev
        if call.args:
            if len(call.args) != 2:
                return UNKNOWN
            owner = ev.object(call.args[0].value, before)
            instance = ev.object(call.args[1].value, before)
            return Super(instance, owner) if isinstance(owner, ClassValue) else UNKNOWN
        if before < 0:
            frame, env = ev.frame_at(before)
            while frame.owner is None and frame.parent is not None:
                frame, env = frame.parent, frame.parent.env
            owner = frame.owner
            instance = env.get("self", UNKNOWN)
            return Super(instance, owner) if isinstance(owner, ClassValue) else UNKNOWN
        function = ev.ctx.function
        owner = ev.method_owner(function) if function is not None else None
        if owner is None:
            return UNKNOWN
        return Super(ev.generic_instance(owner), owner)

    # ------------------------------------------------------------------------------------------ calls

    def call(self, callee: ClassValue | FunctionValue, call: cst.Call, before: int,
             preset: Partial | None = None) -> object:
        """The value a call of a project class or function gives; `preset`: the `functools.partial` called."""
        if isinstance(callee, ClassValue):
            key = ("construct", id(call), before, id(self.ev._home))
            found = self.ev._instances.get(key)
            if found is None:
                self.ev._instances[key] = UNKNOWN
                found = self.ev._instances[key] = self.construct(callee, call, before, preset=preset)
            return found
        args = self.arguments(callee, call, before, preset)
        if args is None:
            return UNKNOWN
        return self.run(callee, args).value

    def construct(self, cls: ClassValue, call: cst.Call | None, before: int | None, generic: bool = False,
                  preset: Partial | None = None) -> object:
        """An instance of `cls` built by `__init__` with the call's arguments (opaque ones for a generic instance),
        after `preset`'s; UNKNOWN where the class builds its instances another way (`__new__`, a metaclass)."""
        if _builds_otherwise(cls):
            return UNKNOWN
        instance = Instance(cls, generic=generic, call=call, bases=self.torch_bases(cls))
        init = self.method(cls, "__init__")
        if init is None:
            if _is_dataclass(cls) and preset is None:
                return self._dataclass(cls, instance, call, before)
            return UNKNOWN if preset is not None else instance
        function = FunctionValue(init[0], init[1].ctx, instance, init[1])
        if generic or call is None or before is None:
            args = self.generic_arguments(function)
        else:
            args = self.arguments(function, call, before, preset)
        return self._initialized(instance, function, args)

    def _initialized(self, instance: Instance, function: FunctionValue, args: dict[str, object] | None) -> Instance:
        """`instance` once `function` (its `__init__`, or a dataclass's `__post_init__`) has run on it with `args`;
        what another method may set later is not known."""
        if args is None:
            instance.tainted = True
            return instance
        instance.initializing = set()
        run = self.run(function, args, memo=False)
        initializing, instance.initializing = instance.initializing, None
        if run.frame is None:
            instance.tainted = True
            return instance
        self._forget_attributes_set_later(instance, initializing | {function.node.name.value})
        for name in instance.rebound:
            instance.attrs[name] = UNKNOWN
        return instance

    def _forget_attributes_set_later(self, instance: Instance, initializing: set[str]) -> None:
        """Attributes another method also sets (a `reset_classifier` that swaps the head) are not known: which
        value the object holds depends on calls the analysis does not see."""
        kept = self._appendable(instance, initializing)
        for owner in self.mro(instance.cls):
            facts = class_facts(owner.ctx, owner.node)
            if facts.dynamic:
                instance.tainted = True
                instance.items = None  # a module `setattr` registers joins a container subclass's layers
            for attribute, writers in facts.writers.items():
                if writers - initializing:
                    instance.attrs.pop(attribute, None)
                    instance.attrs.setdefault(attribute, UNKNOWN)
            # A container another method fills (`self.cache[1]["keys"] = k` in `forward`) holds, at a later call,
            # what an earlier one put there; a tensor written by index keeps its shape.
            for attribute, writers in facts.item_writers.items():
                if writers - initializing and isinstance(instance.attrs.get(attribute), (Seq, Mapping)):
                    instance.attrs[attribute] = UNKNOWN

        if kept and not instance.tainted:
            instance.appendable = kept

    def _appendable(self, instance: Instance, initializing: set[str]) -> dict[str, object]:
        """The lists `__init__` left in attributes that no method but the class's filling ones changes (see
        `filling_method`): what a run that holds the object from its construction reads until a call fills them."""
        if instance.generic or instance.call is None:
            return {}
        changers: dict[str, set[str]] = {}
        methods: dict[str, cst.FunctionDef] = {}
        for owner in self.mro(instance.cls):
            facts = class_facts(owner.ctx, owner.node)
            for attribute, names in (*facts.writers.items(), *facts.item_writers.items()):
                changers.setdefault(attribute, set()).update(names - initializing)
            for name, method in facts.methods.items():
                methods.setdefault(name, method)
        return {attribute: value for attribute, value in instance.attrs.items()
                if type(value) is Seq and value.kind == "list" and changers.get(attribute)
                and all(name in methods and filling_method(methods[name]) for name in changers[attribute])}

    def _dataclass(self, cls: ClassValue, instance: Instance, call: cst.Call | None, before: int | None) -> object:
        """A `@dataclass` built from its fields: annotated class attributes, with their defaults."""
        fields = self._fields(cls)
        given: dict[str, object] = {}
        if call is not None and before is not None:
            positional = [arg for arg in call.args if arg.keyword is None]
            if any(arg.star for arg in call.args):
                instance.tainted = True
                return instance
            in_init = [name for name, raw, owner in fields if _in_init(owner.ctx, raw)]
            # as a call hands its arguments (`ViTConfig(patch_size=args.patch_size)`: the option, its default kept)
            for name, arg in zip(in_init, positional):
                given[name] = _passed(self.ev, arg.value, before)
            for arg in call.args:
                if arg.keyword is not None:
                    given[arg.keyword.value] = _passed(self.ev, arg.value, before)
        if instance.generic or call is None:
            for name, _, _ in fields:
                instance.attrs[name] = given.get(name, Opaque(("field", id(cls.node), name), name))
            return instance
        return self._dataclass_defaults(cls, instance, given, frozenset())

    def _dataclass_defaults(self, cls: ClassValue, instance: Instance, given: dict[str, object],
                            building: frozenset[int]) -> Instance:
        """The fields of a dataclass built with `given` and the defaults of the others; a field whose
        `default_factory` is a project dataclass (a nested config, torchtitan's `model: Model =
        field(default_factory=Model)`) starts as that class built from its own defaults, which is all a
        factory called with no arguments can do. `building` holds the classes being built, against a class that
        nests itself. Then `__post_init__` runs on it (`self.head_dim = self.d_model // self.n_heads`), as the
        generated `__init__` calls it; a field another method sets holds no one value."""
        for name, raw, owner in self._fields(cls):
            default = _field_default(owner.ctx, raw)
            if name in given:
                instance.attrs[name] = given[name]
            elif default is not None:
                value = constant_of(default)
                instance.attrs[name] = value if value is not UNKNOWN \
                    else self.evaluator_for(owner.ctx).defined_object(owner.node, default)
            else:
                instance.attrs[name] = self._factory_product(owner, raw, building | {id(cls.node)})
        post_init = self.method(cls, "__post_init__")
        if post_init is None:
            self._forget_attributes_set_later(instance, set())
            return instance
        # a field without a value yet (`field(init=False)`) is first set there, not set again
        unset = [name for name, value in instance.attrs.items() if value is UNKNOWN]
        for name in unset:
            del instance.attrs[name]
        function = FunctionValue(post_init[0], post_init[1].ctx, instance, post_init[1])
        built = self._initialized(instance, function, self.generic_arguments(function))
        for name in unset:
            built.attrs.setdefault(name, UNKNOWN)
        return built

    def _fields(self, cls: ClassValue) -> list[tuple[str, cst.BaseExpression | None, ClassValue]]:
        """A dataclass's fields in the generated `__init__`'s order, with the class stating each: its dataclass
        bases' first (a `TrainConfig(BaseConfig)`), a field stated again keeping its first place."""
        fields: dict[str, tuple[cst.BaseExpression | None, ClassValue]] = {}
        for owner in reversed(self.mro(cls)):
            if _is_dataclass(owner):
                for name, raw in _own_fields(owner):
                    fields[name] = (raw, owner)
        return [(name, raw, owner) for name, (raw, owner) in fields.items()]

    def _factory_product(self, owner: ClassValue, raw: cst.BaseExpression | None, building: frozenset[int]) -> object:
        factory = _default_factory(owner.ctx, raw)
        if factory is None:
            return UNKNOWN
        made = self.evaluator_for(owner.ctx).defined_object(owner.node, factory)
        if not isinstance(made, ClassValue) or not _is_dataclass(made) or id(made.node) in building \
                or self.method(made, "__init__") is not None or _builds_otherwise(made):
            return UNKNOWN
        return self._dataclass_defaults(made, Instance(made, bases=self.torch_bases(made)), {}, building)

    def partial(self, call: cst.Call, before: int) -> object:
        """`functools.partial(Model, 64, hidden=32)` of a class or function of the project, its arguments read
        here; UNKNOWN for anything else, or arguments spread from a container. Of a function of torch's
        (`partial(F.cross_entropy, label_smoothing=0.1)`, a loss a factory returns), an object that reads its
        arguments where the partial is made, as a module's are read where it is built."""
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            return UNKNOWN
        func = self.ev.object(call.args[0].value, before)
        if isinstance(func, Imported) and func.qualname.startswith("torch."):
            return TorchObject(func.qualname, call, self.ev.site(before))
        if any(arg.star for arg in call.args):
            return UNKNOWN
        if isinstance(func, Partial):  # `partial(partial(Model, 64), hidden=32)`
            inner, func = func, func.func
        else:
            inner = None
        if not isinstance(func, (ClassValue, FunctionValue)):
            return UNKNOWN
        positional = tuple(self.ev.object(arg.value, before) for arg in call.args[1:] if arg.keyword is None)
        keywords = {arg.keyword.value: self.ev.object(arg.value, before) for arg in call.args if arg.keyword is not None}
        if inner is not None:
            positional = inner.positional + positional
            keywords = {**dict(inner.keywords), **keywords}
        return Partial(func, positional, tuple(keywords.items()))

    def arguments(self, callee: FunctionValue, call: cst.Call, before: int,
                  preset: Partial | None = None) -> dict[str, object] | None:
        """The values of the callee's parameters for this call, after `preset`'s (a `functools.partial`), defaults
        included; None when they can't be told apart (`*args` of unknown length before a parameter)."""
        ev = self.ev
        facts = function_facts(callee.ctx, callee.node)
        positional: list[object] = list(preset.positional) if preset is not None else []
        keywords: dict[str, object] = dict(preset.keywords) if preset is not None else {}
        open_ended = False
        # the elements a `*xs` of unknown length spreads over the parameters left, each one like `xs.each`
        # (`model(*views)` over a batch of as many views as the dataset gives): only as the last positional one
        spread: object = None
        for arg in call.args:
            if spread is not None and arg.keyword is None and arg.star != "**":
                open_ended = True
                break
            if arg.star == "*":
                inner = ev.object(arg.value, before)
                items = container_items(inner)
                if not isinstance(items, Seq) or not items.complete and items.each is None:
                    open_ended = True
                    break
                positional.extend(items.items)
                if not items.complete:
                    spread = items.each
            elif arg.star == "**":
                inner = keywords_spread(ev, arg.value, before)
                if not isinstance(inner, Mapping) or not inner.complete:
                    open_ended = True
                    break
                keywords.update({str(k): v for k, v in inner.items})
            elif arg.keyword is not None:
                keywords[arg.keyword.value] = _passed(ev, arg.value, before)
            else:
                positional.append(_passed(ev, arg.value, before))
        params = list(facts.params)
        values: dict[str, object] = {}
        if callee.bound is not None and params and not _static(callee.node):
            values[params[0].name.value] = callee.bound
            params = params[1:]
        if open_ended:
            return None
        bound = positional_parameters(params, facts.star, positional, spread)
        if bound is None:
            return None
        values.update(bound)
        rest: dict[str, object] = {}
        names = {p.name.value for p in (*params, *facts.kwonly)}
        for name, value in keywords.items():
            if name in names:
                values[name] = value
            else:
                rest[name] = value
        if facts.star_kwargs is not None:
            values[facts.star_kwargs.name.value] = Mapping(tuple(rest.items()))
        elif rest:
            return None
        evaluator = self.evaluator_for(callee.ctx)
        for param in (*params, *facts.kwonly):
            name = param.name.value
            if name in values:
                continue
            if param.default is None:
                return None
            default = constant_of(param.default)
            values[name] = default if default is not UNKNOWN else evaluator.defined_object(callee.node, param.default)
        return values

    def generic_arguments(self, callee: FunctionValue) -> dict[str, object]:
        """Parameters read on their own: opaque (or what the floors above say, a jaxtyping annotation's shape)."""
        facts = function_facts(callee.ctx, callee.node)
        evaluator = self.evaluator_for(callee.ctx)
        values: dict[str, object] = {}
        params = list(facts.params)
        if callee.bound is not None and params and not _static(callee.node):
            values[params[0].name.value] = callee.bound
            params = params[1:]
        for param in (*params, *facts.kwonly):
            values[param.name.value] = evaluator.generic_argument(callee.node, param)
        if facts.star is not None:
            values[facts.star.name.value] = Seq((), "tuple", complete=False)
        if facts.star_kwargs is not None:
            values[facts.star_kwargs.name.value] = Mapping((), complete=False)
        return values

    def run(self, callee: FunctionValue, args: dict[str, object], memo: bool = True) -> Run:
        """Run `callee` with `args`, once per function and argument values (but every time for a method of an
        object its `__init__` is building: `self._make_layer(3)` gives another stage after the last one moved
        `self.in_planes` on)."""
        key: Hashable = None
        bound = callee.bound
        evaluator = self.evaluator_for(callee.ctx)
        # A function of the module reads the module's names as they are bound where it is called (`model = Net()`
        # before a loop rebinds `nn`, what `nn.Linear` in `__init__` means), whatever line asked about the call
        # first: one run per such point. One defined in another function reads them through its closure.
        point = evaluator.global_point() if callee.closure is None else None
        if memo and not (isinstance(bound, Instance) and bound.initializing is not None):
            try:
                # a function defined in a call being run reads that call's values: one run per such call
                closure = callee.closure
                outer = id(closure) if closure is not None and closure.env else point
                key = (id(callee.node), id(callee.bound), outer, tuple((k, hashable(v)) for k, v in args.items()))
                hash(key)
            except TypeError:
                key = None
            if key is not None and key in self._runs:
                return self._runs[key]
        if id(callee.node) in self._active or len(self._active) >= MAX_DEPTH:
            return UNKNOWN_RUN
        if key is not None:
            self._runs[key] = UNKNOWN_RUN  # a function that (through others) calls itself gives up
        self._active.append(id(callee.node))
        try:
            run = Executor(evaluator, self, point).run(callee, args)
        except OutOfBudget:
            run = UNKNOWN_RUN
        except RecursionError:
            run = UNKNOWN_RUN
        finally:
            self._active.pop()
        if key is not None:
            self._runs[key] = run
        return run

    def step(self) -> None:
        self._budget[0] += 1
        if self._budget[0] > MAX_STEPS:
            raise OutOfBudget

    # --------------------------------------------------------------------------------------- comprehensions

    def comprehension(self, expr: cst.ListComp | cst.GeneratorExp | cst.DictComp, before: int) -> object:
        """`[nn.Linear(d, d) for _ in range(n)]`: the elements, where the iterables and conditions are known;
        `{name: head(h) for name, head in heads.items()}`: the entries, where their keys are known too."""
        ev = self.ev
        clauses: list[cst.CompFor] = []
        clause: cst.CompFor | None = expr.for_in
        while clause is not None:
            if clause.asynchronous is not None:
                return UNKNOWN
            clauses.append(clause)
            clause = clause.inner_for_in
        names = frozenset(name for c in clauses for name in target_names(c.target))
        if before < 0:
            frame = Frame(expr, names, {}, parent=ev.frame_at(before)[0])
        else:
            frame = Frame(expr, names, {}, outer=before, outer_home=ev._home)
        results: list[object] = []
        ran: list[int] = []
        if type(expr) is not cst.GeneratorExp:  # a generator may never be consumed, or only in part (`any(...)`)
            ran = self.element_runs[(id(expr), before)] = []

        def expand(index: int) -> bool:
            if len(results) > MAX_UNROLL:
                return False
            if index == len(clauses):
                version = ev.enter(frame)
                ran.append(version)
                results.append(_element(ev, expr, version))
                return True
            clause = clauses[index]
            version = ev.enter(frame)
            iterable = loop_items(ev, ev.object(clause.iter, version))  # a dict's keys for a dict
            if not isinstance(iterable, Seq) or not iterable.complete or len(iterable.items) > MAX_UNROLL:
                return False
            for item in iterable.items:
                if not assign_target(clause.target, item, frame.env, ev):
                    return False
                keep = True
                for condition in clause.ifs:
                    version = ev.enter(frame)
                    known = truth(ev.object(condition.test, version))
                    if known is None:
                        return False
                    keep = keep and known
                if keep and not expand(index + 1):
                    return False
            return True

        if type(expr) is cst.DictComp:
            if not expand(0):
                return Mapping((), complete=False, each=self._any_element(expr, clauses, frame, ran))
            keys = [key_of(key) for key, _ in results]  # type: ignore[misc]
            if any(key is None for key in keys):
                return UNKNOWN
            return Mapping(tuple((key, value) for key, (_, value) in zip(keys, results)))  # type: ignore[misc]
        if expand(0):
            return _drawn_per_element(ev, expr, Seq(tuple(results)))
        each = self._any_element(expr, clauses, frame, ran)
        counted = _one_per_item(ev, clauses, before)
        return _drawn_per_element(ev, expr, Seq((), complete=False, each=each, **counted))

    def _any_element(self, expr: cst.ListComp | cst.GeneratorExp | cst.DictComp, clauses: list[cst.CompFor],
                     frame: Frame,
                     ran: list[int]) -> object:
        """What every element of a comprehension over sequences of unknown length is, when it doesn't depend on
        which element of them it comes from (`[nn.Linear(d, d) for _ in range(n_layers)]`); None when it does
        or can't be told. The element runs for certain when each sequence has an element for certain and no
        condition filters them (`[step(x, y) for x, y in loader]` over a dataset of known rows)."""
        ev = self.ev
        frame.env = {}
        certain = True
        for clause in clauses:
            iterable = loop_items(ev, ev.object(clause.iter, ev.enter(frame)))
            each = iterable.each if isinstance(iterable, Seq) and not iterable.items else None
            listed = _listed_ints(iterable, clause)
            if listed is not None:  # `for i in range(110)`, too many to run one by one: an int below 110
                each = listed
            certain = certain and each is not None and (iterable.least > 0 or listed is not None) \
                and not clause.ifs  # type: ignore[union-attr]
            for name in target_names(clause.target):
                frame.env[name] = unstated_element(clause.target, name)
            if each is not None and not assign_target(clause.target, each, frame.env, ev):
                return None
        version = ev.enter(frame)
        if certain:
            ran.append(version)
        value = _element(ev, expr, version)
        if type(expr) is cst.DictComp:
            value = value[1]  # type: ignore[index]
        return None if value is UNKNOWN else value


def _listed_ints(iterable: object, clause: cst.CompFor) -> Dim | None:
    """What a name bound by `clause` is on any pass over a list of ints the code states, too long to run one by one
    (`range(110)`): an int below the largest plus one, of this clause alone (another loop over the same list is
    another int)."""
    if not isinstance(iterable, Seq) or not iterable.complete or not iterable.items \
            or type(clause.target) is not cst.Name:
        return None
    return some_int(iterable, ("comprehension", id(clause)), clause.target.value)


def _one_per_item(ev: Evaluator, clauses: list[cst.CompFor], before: int) -> dict[str, object]:
    """How many elements a comprehension of one `for` clause and no condition makes, as `Seq` counts them: one per
    item of a list of known length (`np.stack([x[i:i + w] for i in range(110)])` stacks 110 windows) or of an array
    of known rows (`[float(r.sum()) for r in feats]`), as a list a loop grew by one element a pass is counted; or
    one per sample of a list counted by a size the code names (`[y for _, y in batch]` of a `collate_fn`'s
    samples: see `Seq.grown`)."""
    if len(clauses) != 1 or clauses[0].ifs:
        return {}
    iterable = loop_items(ev, ev.object(clauses[0].iter, before))
    if not isinstance(iterable, Seq):
        return {}
    count = len(iterable.items) if iterable.complete else \
        iterable.most if iterable.most is not None and iterable.least == iterable.most else None
    if count is not None:
        return {"least": count, "most": count, "grown": object()}
    return {"grown": iterable.grown} if isinstance(iterable.grown, Dim) else {}


def _drawn_per_element(ev: Evaluator, expr: cst.ListComp | cst.GeneratorExp, elements: Seq) -> Seq:
    """`[torch.randn(random.randint(50, 100), 40) for _ in range(n)]`: the sizes each element draws vary per
    element (the draws its own expression makes: not one a helper it calls may have made once and kept)."""
    if not may_draw(ev, expr.elt):
        return elements
    found = draws_in(ev, (elements,))
    if not found:
        return elements
    calls = {id(node) for node in walk(expr.elt) if type(node) is cst.Call}
    inside = {atom for atom in found if drawn_by(atom) in calls}
    return per_item_draws(ev, elements, inside) if inside else elements  # type: ignore[return-value]


def _element(ev: Evaluator, expr: cst.ListComp | cst.GeneratorExp | cst.DictComp, version: int) -> object:
    """One element of a comprehension: a value, or for a dict comprehension its (key, value) pair."""
    if type(expr) is cst.DictComp:
        return ev.object(expr.key, version), ev.object(expr.value, version)
    return ev.object(expr.elt, version)


def _passed(ev: Evaluator, expr: cst.BaseExpression, before: int) -> object:
    """What an argument hands the callee: its value, or where the caller does not know it, one object all the same
    (`Model(args.hidden)` after a `parse_args()` that reads the command line): the parameter then reads as it does
    in a run with no caller, a size or a tensor of its own, rather than as nothing at all. Keyed by the argument
    and the point it is read at, so two calls, or two passes of a loop, never hand the same object."""
    value = ev.object(expr, before)
    # a parsed command line handed on whole (`train(model, args)`): its options keep their defaults
    options = command_line_defaults(ev, expr, before) if type(expr) in (cst.Name, cst.Call) and not isinstance(
        value, Namespace) else None
    if value is UNKNOWN or options is not None:
        number = options is None and number_option(ev, expr, before)  # `gamma=args.gamma`: a number, no tensor
        return Opaque(("argument", id(expr), before), ev.ctx.code(expr), default=option_default(ev, expr, before),
                      options=options, choice=_option_choice(ev, expr, before) if value is UNKNOWN else None,
                      maybe_tensor=not number, number=number)
    return value


def _option_choice(ev: Evaluator, expr: cst.BaseExpression, before: int) -> str | None:
    """The string default of `args.dataset` handed to a call (`build_dataset(args.dataset, args.n)`), as a command
    line option handed on whole keeps it: a registry the callee indexes with it (`DATASETS[name]`) gives, where its
    entries disagree, the entry of the run with no flags."""
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return None
    defaults = command_line_defaults(ev, expr.value, before)
    stated = defaults.get(expr.attr.value) if defaults is not None else None
    return stated.value if isinstance(stated, Const) and type(stated.value) is str else None


def positional_parameters(params: Sequence[cst.Param], star: cst.Param | None, positional: Sequence[object],
                          spread: object = None) -> dict[str, object] | None:
    """The values a call's positional arguments give `params` and the `*star` parameter: one each in order, the
    rest to star as a tuple. A `*xs` of unknown length after them whose elements are each like `spread`
    (`model(*views)` over as many views as the dataset gives) goes on over the parameters left, a parameter with a
    default being left UNKNOWN (whether the spread reaches it is not told), and gives star a tuple of unknown length
    of such elements, or an unknown value where arguments before the spread reach star already. None where the
    arguments don't fit: more than `params` and no star. The one binding of positional arguments, `*xs` spread or
    not, that the calls of project functions and the shapes' runs of a model's `forward` both make."""
    values: dict[str, object] = {param.name.value: value for param, value in zip(params, positional)}
    extra = positional[len(params):]
    if extra and star is None:
        return None
    if spread is not None:
        for param in params[len(positional):]:
            values[param.name.value] = spread if param.default is None else UNKNOWN
    if star is not None:
        values[star.name.value] = Seq(tuple(extra), "tuple") if spread is None else \
            UNKNOWN if extra else Seq((), "tuple", complete=False, each=spread)
    return values


def _static(function: cst.FunctionDef) -> bool:
    return any(dotted_name(d.decorator) == "staticmethod" for d in function.decorators)


def _field_default(ctx: Context, default: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """What a field starts as: `field(default=x)` is `x`, `field(default_factory=lambda: [64, 32])` a fresh
    `[64, 32]`; another factory (`list`, a function) is not read."""
    if type(default) is not cst.Call or ctx.qualname(default.func) != "dataclasses.field":
        return default
    for arg in default.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "default":
            return arg.value
        if keyword == "default_factory" and type(arg.value) is cst.Lambda and not arg.value.params.params \
                and arg.value.params.star_arg is cst.MaybeSentinel.DEFAULT:
            return arg.value.body
    return None


def spread_namespace(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """The namespace of `vars(args)`, the expression of a `**vars(args)` argument: the dict is spread into
    keywords at once, so it reads the namespace's attributes and keeps nothing of it."""
    if type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value == "vars" and len(expr.args) == 1 \
            and not expr.args[0].star and expr.args[0].keyword is None:
        return expr.args[0].value
    return None


def keywords_spread(ev: Evaluator, expr: cst.BaseExpression, before: int) -> object:
    """What `**expr` spreads: a dict, or a parsed namespace's attributes for `**vars(args)` (read only there: a
    `vars` dict that is kept is the namespace's own and changes with it)."""
    namespace = spread_namespace(expr)
    if namespace is None:
        return ev.object(expr, before)
    if ev.object(cst.ensure_type(expr, cst.Call).func, before) is not UNKNOWN:
        return UNKNOWN  # a project's own `vars`
    found = ev.object(namespace, before)
    return Mapping(found.fields) if isinstance(found, Namespace) else UNKNOWN


def stated_keyword(call: cst.Call, name: str, read: Callable[[cst.BaseExpression], object]) -> object:
    """What `call` passes as the keyword `name`, each expression read by `read` where the call sits: by keyword, or
    through a `**kwargs` that holds a dict the analysis knows whole (a factory's `get_loss(name, **kwargs)` building
    `nn.CrossEntropyLoss(**kwargs)` for a caller that passed `reduction="none"`); None when the call certainly passes
    no such keyword, UNKNOWN when a spread it cannot read may."""
    found: object = None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            found = read(arg.value)
        elif arg.star == "**":
            spread = read(arg.value)
            if not isinstance(spread, Mapping) or not spread.complete:
                return UNKNOWN
            for key, value in spread.items:
                if key == name:
                    found = value
    return found


def _default_factory(ctx: Context, default: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """The factory of `field(default_factory=Factory)` when it is named, not a lambda."""
    if type(default) is not cst.Call or ctx.qualname(default.func) != "dataclasses.field":
        return None
    for arg in default.args:
        if arg.keyword is not None and arg.keyword.value == "default_factory" \
                and type(arg.value) in (cst.Name, cst.Attribute):
            return arg.value
    return None


def _in_init(ctx: Context, default: cst.BaseExpression | None) -> bool:
    """Whether a field is a parameter of the generated `__init__`: not `field(init=False)`."""
    if type(default) is not cst.Call or ctx.qualname(default.func) != "dataclasses.field":
        return True
    return not any(arg.keyword is not None and arg.keyword.value == "init" and type(arg.value) is cst.Name
                   and arg.value.value == "False" for arg in default.args)


def _own_fields(cls: ClassValue) -> list[tuple[str, cst.BaseExpression | None]]:
    """The fields a dataclass states itself, in order: its annotated class attributes and what they are assigned."""
    fields: list[tuple[str, cst.BaseExpression | None]] = []
    for statement in cls.node.body.body:
        if type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                    fields.append((small.target.value, small.value))
    return fields


def _builds_otherwise(cls: ClassValue) -> bool:
    """Whether the class makes its instances other than through `__init__` (`__new__`, a metaclass)."""
    return "__new__" in class_facts(cls.ctx, cls.node).methods \
        or any(k.keyword is not None and k.keyword.value == "metaclass" for k in cls.node.keywords)


def _is_dataclass(cls: ClassValue) -> bool:
    """A `@dataclass`, or a `typing.NamedTuple` class, built from its annotated fields alike (a rollout buffer's
    minibatch samples)."""
    if any(cls.ctx.qualname(base.value) in _NAMED_TUPLE for base in cls.node.bases):
        return True
    for decorator in cls.node.decorators:
        target = decorator.decorator
        if type(target) is cst.Call:
            target = target.func
        name = cls.ctx.qualname(target) or dotted_name(target)
        if name in _DATACLASS:
            return True
    return False

