"""Running one function of the project statement by statement, for `shapecheck.objects.calls`.

The run follows the code's control flow where the values decide it (an `if` on a constructor flag, a loop over a
literal list or `range(4)`), and where they don't it runs both branches and keeps what they agree on, and runs a
loop of unknown length as "any number of times": a name the body changes is what every pass agrees on, else
unknown. Statements that run on every call are marked `certain` in the trace; only those can prove an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field, replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk
from shapecheck.objects.builtins import (as_key_value, container_items, draws_in, key_of, may_draw, per_item_draws,
                                         some_int)
from shapecheck.objects.changes import incomplete
from shapecheck.objects.classes import filling_method, function_facts, own_nodes
from shapecheck.objects.decorators import called_as_written
from shapecheck.objects.dims import Dim
from shapecheck.objects.frames import Frame
from shapecheck.objects.values import (
    NONE, UNKNOWN, ClassValue, Const, FunctionValue, Imported, Instance, Mapping, Namespace, Opaque, Seq, TorchObject,
    truth, unstated_element,
)

if TYPE_CHECKING:
    from shapecheck.objects.calls import Calls
    from shapecheck.objects.evaluator import Evaluator

MAX_UNROLL = 64  # iterations of a loop over a known sequence


class OutOfBudget(Exception):
    pass


@record
class Run:
    """What running a function gave: its return value (UNKNOWN when not known) and the trace of the statements
    that ran, each with the version of the names it was read with and whether it runs on every call."""

    value: object
    trace: list[tuple[cst.CSTNode, int, bool]] = field(default_factory=list)
    title: str = ""
    frame: Frame | None = None


UNKNOWN_RUN = Run(UNKNOWN)


@record
class _Path:
    env: dict[str, object]
    certain: bool
    ended: bool = False  # returned or raised on every way through
    jump: str | None = None  # "break" / "continue" reached for certain


def target_names(target: cst.BaseExpression) -> Iterator[str]:
    if type(target) is cst.Name:
        yield target.value
    elif type(target) in (cst.Tuple, cst.List):
        for element in target.elements:  # type: ignore[attr-defined]
            yield from target_names(element.value)
    elif type(target) is cst.StarredElement:
        yield from target_names(target.value)  # type: ignore[attr-defined]


def assign_target(target: cst.BaseExpression, value: object, env: dict[str, object], ev: Evaluator) -> bool:
    """Bind a loop or comprehension target; False when it is not a plain name or tuple of names."""
    kind = type(target)
    if kind is cst.Name:
        env[target.value] = value
        return True
    if kind in (cst.Tuple, cst.List):
        elements = target.elements  # type: ignore[attr-defined]
        parts = ev.unpacked_values(value, len(elements))
        if parts is None:
            parts = [UNKNOWN] * len(elements)
        return all(assign_target(e.value, p, env, ev) for e, p in zip(elements, parts)
                   if type(e) is not cst.StarredElement)
    return False


# `nn.Module` methods that add a layer by name: a container's layers run in the order they were added
_ADDS_A_LAYER = frozenset({"add_module", "register_module"})
_MUTATORS = frozenset({"append", "extend", "insert", "add_module", "register_module", "register_buffer",
                       "register_parameter", "update", "pop", "clear", "remove"})


class Executor:
    """One run of one function."""

    def __init__(self, ev: Evaluator, calls: Calls, module_point: int | None = None) -> None:
        self.ev = ev
        self.calls = calls
        # where the function reads the module's names, when it is not defined inside another (`Frame.module_point`)
        self.module_point = module_point
        self.returns: list[tuple[object, bool]] = []
        self.yielded: list[tuple[object, bool]] | None = None  # a generator's values, when the run is one
        self.trace: list[tuple[cst.CSTNode, int, bool]] = []
        self.frame: Frame | None = None
        self.script = False  # running a module's own code: the file as a script, `__name__` is "__main__"

    def run(self, callee: FunctionValue, args: dict[str, object]) -> Run:
        facts = function_facts(callee.ctx, callee.node)
        if facts.yields and not facts.plain_yields:
            return UNKNOWN_RUN
        if facts.yields:
            self.yielded = []
        owner = callee.owner
        title = f"{owner.name}.{callee.name}" if owner is not None else callee.name
        frame = Frame(callee.node, facts.names, dict(args), parent=callee.closure,  # type: ignore[arg-type]
                      depth=len(self.calls._active), title=title, owner=owner,
                      module_point=self.module_point)
        bound = callee.bound
        if isinstance(bound, Instance) and bound.initializing is not None:
            bound.initializing.add(callee.name)
        self.frame = frame
        body = callee.node.body
        if type(callee.node) is cst.Lambda:  # its expression is what it returns, and the one statement it runs
            version = self.ev.enter(frame)
            self.trace.append((body, version, True))
            self.returns.append((self.ev.object(body, version), True))
            return Run(self._returned(), self.trace, title, frame)
        if type(callee.node) is cst.Module:  # a script's or a notebook's code, run as the body of a function
            statements = body
            self.script = True
        else:
            statements = body.body if isinstance(body, cst.IndentedBlock) else (body,)  # type: ignore[union-attr]
        path = self.block(statements, _Path(frame.env, True))
        frame.env = path.env
        if not path.ended:
            self.returns.append((NONE, path.certain))
        return Run(self._returned() if self.yielded is None else self._generated(), self.trace, title, frame)

    def _returned(self) -> object:
        values = [value for value, _ in self.returns]
        if not values:
            return UNKNOWN
        return self.ev.join_values(values)

    def _generated(self) -> object:
        """A generator: what a loop over it gets, every value a `yield` the run reached hands out (joined, so a
        value that differs between them or between passes of a loop is widened); how many is not known, but one at
        least when a `yield` runs on every call (a loop over it then runs its body)."""
        if not self.yielded:
            return UNKNOWN
        values = [value for value, _ in self.yielded]
        each = _one_record(self.ev, values) or self.ev.join_passes(values, ("yielded", id(self.frame)))
        return Seq((), "generator", complete=False, each=each, least=int(any(certain for _, certain in self.yielded)))

    # ------------------------------------------------------------------------------------------ statements

    def block(self, statements, path: _Path) -> _Path:
        for statement in statements:
            if path.ended or path.jump is not None:
                break
            path = self.statement(statement, path)
        return path

    def version(self, path: _Path) -> int:
        assert self.frame is not None
        self.frame.env = path.env
        return self.ev.enter(self.frame)

    def statement(self, node: cst.CSTNode, path: _Path) -> _Path:
        self.calls.step()
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            for small in node.body:  # type: ignore[attr-defined]
                if path.ended or path.jump is not None:
                    break
                path = self.small(small, path)
            return path
        if kind is cst.If:
            return self._if(node, path)  # type: ignore[arg-type]
        if kind is cst.For:
            return self._for(node, path)  # type: ignore[arg-type]
        if kind is cst.While:
            version = self.version(path)
            self.trace.append((node.test, version, path.certain))  # type: ignore[attr-defined]
            # a condition that holds on entry (`while True:`, `while step < max_steps:` from `step = 0`) runs the
            # first pass whenever the loop is reached, as a `for` over an iterable with an element for certain does
            entered = truth(self.ev.object(node.test, version)) is True  # type: ignore[attr-defined]
            return self._widened(node.body.body, path, None, None, once=entered)  # type: ignore[attr-defined]
        if kind is cst.With:
            version = self.version(path)
            for item in node.items:  # type: ignore[attr-defined]
                self.trace.append((item.item, version, path.certain))
                if item.asname is not None:
                    value = self.ev.object(item.item, version)
                    self.assign(item.asname.name, UNKNOWN if isinstance(value, TorchObject) else value, path)
            return self.block(node.body.body, path)  # type: ignore[attr-defined]
        if kind is cst.Try:
            return self._try(node, path)  # type: ignore[arg-type]
        if kind is cst.FunctionDef:
            path.env = dict(path.env)
            path.env[node.name.value] = FunctionValue(node, self.ev.ctx, None, None, self.frame) \
                if called_as_written(self.ev.ctx, node) else UNKNOWN  # type: ignore[arg-type]
            return path
        if kind is cst.ClassDef:
            path.env = dict(path.env)
            path.env[node.name.value] = ClassValue(node, self.ev.ctx)  # type: ignore[attr-defined]
            return path
        # match, async for/with and anything else: what it binds is unknown afterwards
        path.env = dict(path.env)
        for name in function_facts_names(node):
            path.env[name] = UNKNOWN
        path.certain = False
        return path

    def small(self, node: cst.CSTNode, path: _Path) -> _Path:
        kind = type(node)
        if kind is cst.Return:
            value = UNKNOWN
            if node.value is not None:  # type: ignore[attr-defined]
                version = self.version(path)
                self.trace.append((node, version, path.certain))
                value = self.ev.object(node.value, version)  # type: ignore[attr-defined]
            else:
                value = NONE
            self.returns.append((value, path.certain))
            path.ended = True
            return path
        if kind is cst.Raise:
            version = self.version(path)
            self.trace.append((node, version, path.certain))
            path.ended = True
            return path
        if kind is cst.Break:
            path.jump = "break"
            return path
        if kind is cst.Continue:
            path.jump = "continue"
            return path
        if kind in (cst.Pass, cst.Global, cst.Nonlocal):
            return path
        popped = _popped(node, path.env)
        if popped:
            # a list a statement pops from more than once (or not by a literal position): what each pop gives is
            # not told apart, so the list is unknown from the statement on
            path.env = {**path.env, **{name: UNKNOWN for name, at in popped.items() if at is None}}
        version = self.version(path)
        self.trace.append((node, version, path.certain))
        before = path.env
        path = self._small(node, path, version)
        changed = self.ev.changed_by_calls(node)
        if changed:
            namespaces = self.ev.namespaces_changed_by_calls(node)
            path.env = {name: _after_change(value, namespaces.get(name, frozenset())) if name in changed else value
                        for name, value in path.env.items()}
        if popped:
            # `torch.cat([skips.pop(), x], dim=1)` in a U-Net's decoder: the pop read the list as it was, and the
            # list holds one element fewer after the statement
            path.env = {**path.env, **{name: _without(before.get(name), at) for name, at in popped.items()
                                       if at is not None and path.env.get(name) is before.get(name)}}
        return path

    def _small(self, node: cst.CSTNode, path: _Path, version: int) -> _Path:
        """An assignment, an expression or another simple statement, as it runs at `version`."""
        kind = type(node)
        if kind is cst.Assign:
            value = self.ev.object(node.value, version)  # type: ignore[attr-defined]
            for target in node.targets:  # type: ignore[attr-defined]
                self.assign(target.target, value, path, node.value, version)  # type: ignore[attr-defined]
            return path
        if kind is cst.AnnAssign:
            if node.value is not None:  # type: ignore[attr-defined]
                value = self.ev.object(node.value, version)  # type: ignore[attr-defined]
                self.assign(node.target, value, path, node.value, version)  # type: ignore[attr-defined]
            return path
        if kind is cst.AugAssign:
            value = self.ev.augmented(node, version)  # type: ignore[arg-type]
            self.assign(node.target, value, path)  # type: ignore[attr-defined]
            return path
        if kind is cst.Expr and type(node.value) is cst.Yield and self.yielded is not None:  # type: ignore
            self.yielded.append((self.ev.object(node.value.value, version), path.certain))  # type: ignore
            return path
        if kind is cst.Expr:
            self.expression(node.value, path, version)  # type: ignore[attr-defined]
            return path
        if kind is cst.Del:
            path.env = dict(path.env)
            for name in target_names(node.target):  # type: ignore[attr-defined]
                path.env.pop(name, None)
            return path
        if kind in (cst.Import, cst.ImportFrom):
            path.env = dict(path.env)
            for name, qualname in _imported(node):
                path.env[name] = Imported(qualname) if qualname else UNKNOWN
            return path
        return path  # assert and the like bind nothing

    def expression(self, expr: cst.BaseExpression, path: _Path, version: int) -> None:
        """An expression statement: run for its effects on the objects it changes."""
        if type(expr) is cst.Call and type(expr.func) is cst.Attribute:
            method = expr.func.attr.value
            if method in _MUTATORS:
                self.mutate(expr, method, path, version)
                return
            if self._fill(expr, version):
                return
        self.ev.object(expr, version)

    def _fill(self, call: cst.Call, version: int) -> bool:
        """`rollout.add(obs, reward)` of an object this run built (see `Instance.appendable`): its filling method
        run on each call for what it appends (never a remembered run: each call appends again)."""
        ev = self.ev
        receiver = ev.object(call.func.value, version)  # type: ignore[attr-defined]
        if not isinstance(receiver, Instance) or receiver.tainted or not receiver.filled:
            return False
        method = ev.called(ev.object(call.func, version))
        if not isinstance(method, FunctionValue) or method.bound is not receiver or method.owner is None \
                or not filling_method(method.node):
            return False
        args = self.calls.arguments(method, call, version)
        if args is None:
            return False
        self.calls.run(method, args, memo=False)
        return True

    def mutate(self, call: cst.Call, method: str, path: _Path, version: int) -> None:
        """`layers.append(m)`, `layers.extend(ms)`, `self.add_module(name, m)`, `self.register_buffer(name, t)`:
        the container or instance changes."""
        ev = self.ev
        receiver_expr = call.func.value  # type: ignore[attr-defined]
        receiver = ev.object(receiver_expr, version)
        args = [ev.object(arg.value, version) for arg in call.args if arg.keyword is None and not arg.star]
        if isinstance(receiver, Instance) and method in ("add_module", "register_module", "register_buffer",
                                                         "register_parameter"):
            if len(args) >= 2 and isinstance(args[0], Const) and isinstance(args[0].value, str) \
                    and not any(arg.star for arg in call.args):
                receiver.attrs[args[0].value] = args[1]
                if method in _ADDS_A_LAYER and receiver.items is not None:  # a container subclass
                    # a ModuleList goes through its layers, not their names: what it holds is no longer known
                    listed = any(base.endswith(".ModuleList") for base in receiver.bases)
                    receiver.items = None if listed else _with_layer(receiver.items, args[0].value, args[1])
            else:
                receiver.tainted = True
                if method in _ADDS_A_LAYER:
                    # a container subclass's layers under a name not known (a loop of unknown length's
                    # `"block{}".format(i + 1)`): neither which layers it runs nor how many is known
                    receiver.items = None
            return
        if isinstance(receiver, TorchObject):  # `layers.append(m)` on an nn.Sequential / ModuleList
            items = receiver.items
            changed: object = UNKNOWN
            if method in _ADDS_A_LAYER:  # `block = nn.Sequential(); block.add_module("conv", ...)`, darknet style
                if receiver.qualname.endswith(".Sequential") and items is not None and len(args) == 2 \
                        and isinstance(args[0], Const) and isinstance(args[0].value, str):
                    changed = _with_layer(items, args[0].value, args[1]) or UNKNOWN
            elif isinstance(items, Seq):
                changed = self._changed(items, method, args)
            updated_module = TorchObject(receiver.qualname, receiver.call, receiver.site, changed) \
                if isinstance(changed, Seq | Mapping) else UNKNOWN
            self.assign(receiver_expr, updated_module, path)
            return
        if not isinstance(receiver, Seq | Mapping):
            ev.object(call, version)
            return
        updated: object = UNKNOWN
        if isinstance(receiver, Seq):
            updated = self._changed(receiver, method, args)
        elif isinstance(receiver, Mapping) and method == "update" and len(args) == 1 and isinstance(args[0], Mapping):
            merged = dict(receiver.items)
            merged.update(args[0].items)
            updated = Mapping(tuple(merged.items()), receiver.complete and args[0].complete)
        self.assign(receiver_expr, updated, path, in_place=True)

    def _changed(self, receiver: Seq, method: str, args: list[object]) -> object:
        """A list after `append`, `extend`, `insert` or `clear`; UNKNOWN after anything else."""
        updated: object = UNKNOWN
        if method == "clear" and not args and receiver.kind == "list":
            updated = Seq((), receiver.kind)
        elif method == "append" and len(args) == 1:
            updated = Seq(receiver.items + (args[0],), receiver.kind, receiver.complete, receiver.each)
        elif method == "extend" and len(args) == 1:
            items = container_items(args[0])
            if isinstance(items, Seq):
                updated = Seq(receiver.items + items.items, receiver.kind, receiver.complete and items.complete)
        elif method == "insert" and len(args) == 2 and isinstance(args[0], Dim) and args[0].literal is not None \
                and (receiver.complete or 0 <= args[0].literal <= len(receiver.items)):
            # `returns.insert(0, g)` of a backward recursion: before the elements it knows, so the rest stay as known
            items = list(receiver.items)
            items.insert(args[0].literal, args[1])
            updated = Seq(tuple(items), receiver.kind, receiver.complete, receiver.each)
        return updated

    def assign(self, target: cst.BaseExpression, value: object, path: _Path,
               expr: cst.BaseExpression | None = None, version: int | None = None, in_place: bool = False) -> None:
        """Bind `target` to `value`; `in_place` when the container it already holds was changed (`append`, an
        item set), not a new value bound: an attribute so changed holds one list all along, not two values."""
        kind = type(target)
        if kind is cst.Name:
            path.env = dict(path.env)
            if isinstance(value, Instance) and expr is not None and type(expr) is cst.Call:
                _take(value)
            if isinstance(value, Opaque) and value.number and expr is not None and value.key == ("number", id(expr)):
                value = replace(value, name=target.value)  # `longest = max(len(t) for t in batch)`: one int, named
            path.env[target.value] = value  # type: ignore[attr-defined]
            return
        if kind in (cst.Tuple, cst.List):
            elements = target.elements  # type: ignore[attr-defined]
            if any(type(e) is cst.StarredElement for e in elements):
                for element in elements:
                    self.assign(element.value, UNKNOWN, path)
                return
            parts = self.ev.unpacked_values(value, len(elements))
            refined: dict[str, object] = {}
            if parts is None and expr is not None and version is not None:
                names = [e.value.value if type(e.value) is cst.Name else None for e in elements]
                found = self.ev.unpacking(expr, names, version)
                if found is not None:
                    parts, refined = found
            for element, part in zip(elements, parts or [UNKNOWN] * len(elements)):
                self.assign(element.value, part, path)
            for name, refined_value in refined.items():
                path.env[name] = refined_value
            return
        if kind is cst.Attribute:
            owner = self.ev.object(target.value, self.version(path))  # type: ignore[attr-defined]
            if isinstance(owner, Namespace) and type(target.value) is cst.Name:  # type: ignore[attr-defined]
                # `args.hidden = 2 * args.hidden` in a helper the script calls
                self.assign(target.value, owner.with_field(target.attr.value, value), path)  # type: ignore
                return
            if isinstance(owner, Instance):
                name = target.attr.value  # type: ignore[attr-defined]
                if owner.initializing is not None and name in owner.attrs and not in_place and \
                        not isinstance(value, (Instance, TorchObject, FunctionValue)):
                    owner.rebound.add(name)
                owner.attrs[name] = value
            return
        if kind is cst.Subscript:
            container_expr = target.value  # type: ignore[attr-defined]
            version = self.version(path)
            container = self.ev.object(container_expr, version)
            # `self.heads["a"] = layer` on an nn.ModuleDict (or an index of a ModuleList): its layers change
            module = container if isinstance(container, TorchObject) and container.items is not None else None
            if module is not None:
                container = module.items
            index = target.slice[0].slice if len(target.slice) == 1 else None  # type: ignore[attr-defined]
            if type(index) is cst.Index and (isinstance(container, Mapping)
                                             or isinstance(container, Seq) and container.kind == "list"):
                updated = _with_element(container, self.ev.object(index.value, version), value)
                if updated is not None:
                    if module is not None:
                        updated = TorchObject(module.qualname, module.call, module.site, updated)  # type: ignore
                    self.assign(container_expr, updated, path, in_place=True)
                    return
            # `cfg[section][name] = value` of a section not known: the dict `cfg` holds may have any section changed
            if isinstance(container, (Seq, Mapping)) or type(container_expr) is cst.Subscript:
                self.assign(container_expr, UNKNOWN, path)

    # ----------------------------------------------------------------------------------------- control flow

    def _if(self, node: cst.If, path: _Path) -> _Path:
        version = self.version(path)
        self.trace.append((node.test, version, path.certain))
        known = True if self.script and _main_guard(node.test) else truth(self.ev.object(node.test, version))
        orelse = node.orelse
        other = (orelse.body.body if type(orelse) is cst.Else else (orelse,)) if orelse is not None else ()
        if known is True:
            return self.block(node.body.body, path)
        if known is False:
            return self.block(other, path)
        return self._branches(path, [node.body.body, other])

    def _branches(self, path: _Path, blocks: list, start_env: dict[str, object] | None = None) -> _Path:
        """Blocks of which any one may run, each from the same state: the instances' attributes too, which the
        blocks change in place, are put back before each and joined after."""
        instances = self._instances(path)
        saved = [dict(instance.attrs) for instance in instances]
        paths, states = [], []
        for block in blocks:
            for instance, attrs in zip(instances, saved):
                instance.attrs = dict(attrs)
            paths.append(self.block(block, _Path(dict(start_env if start_env is not None else path.env), False)))
            states.append([instance.attrs for instance in instances])
        going = [state for branch, state in zip(paths, states) if not branch.ended and branch.jump is None]
        for index, instance in enumerate(instances):
            if not going:
                instance.attrs = saved[index]
                continue
            attrs = going[0][index]
            for other in going[1:]:
                attrs = self.ev.join_envs(attrs, other[index])
            instance.attrs = attrs
        return self._merge(path, paths)

    def _instances(self, path: _Path) -> list[Instance]:
        """The objects whose attributes a block may set: those the function's names hold, and those their
        attributes hold (an agent's `self.buffer`, whose lists a loop of its method appends to)."""
        seen: dict[int, Instance] = {}
        pending = list(path.env.values())
        while pending:
            value = pending.pop()
            if isinstance(value, Instance) and not value.tainted and id(value) not in seen:
                seen[id(value)] = value
                pending.extend(value.attrs.values())
        return list(seen.values())

    def _merge(self, before: _Path, paths: list[_Path]) -> _Path:
        """Where branches meet again: the names they agree on; a branch that returned, raised or jumped adds
        nothing, and what follows no longer runs on every call."""
        going = [p for p in paths if not p.ended and p.jump is None]
        if not going:
            result = _Path(before.env, before.certain, ended=all(p.ended for p in paths))
            if not result.ended:
                result.certain = False  # a jump under a condition: the rest of the loop body may not run
                result.jump = "unsure"
            return result
        certain = before.certain and len(going) == len(paths)
        env = going[0].env
        for other in going[1:]:
            env = self.ev.join_envs(env, other.env)
        return _Path(env, certain)

    def _for(self, node: cst.For, path: _Path) -> _Path:
        if not may_draw(self.ev, node.body):  # most loops: nothing the body calls may draw a size
            return self._passes_of(node, path)
        start = dict(path.env)
        instances = self._instances(path)
        attrs = [dict(instance.attrs) for instance in instances]
        return self._drawn_per_pass(start, instances, attrs, self._passes_of(node, path))

    def _passes_of(self, node: cst.For, path: _Path) -> _Path:
        version = self.version(path)
        self.trace.append((node.iter, version, path.certain))
        iterable = loop_items(self.ev, self.ev.object(node.iter, version))
        if _unrolled_over(node, iterable):
            unrolled = self._unrolled(node, iterable, path)  # type: ignore[arg-type]
            if unrolled is not None:
                return unrolled
        each = iterable.each if isinstance(iterable, Seq) and not iterable.items else None
        if each is None and isinstance(iterable, Seq):  # more ints than are run one by one (`range(370)`)
            each = some_int(iterable, ("pass", id(node)), node.target.value if type(node.target) is cst.Name else "i")
        # a loop over more elements than are run one by one, every one of them: as many passes
        passes = len(iterable.items) if isinstance(iterable, Seq) and iterable.complete and not any(
            type(inner) in (cst.Return, cst.Raise) for statement in node.body.body for inner in _walk(statement)) \
            else None
        # a loop over a list a loop grew (or its `reversed`, `zip` or `enumerate`) takes a pass per element: the lists
        # it grows in turn have as many (n-step returns appended over the rollout's rewards)
        over = iterable.grown if isinstance(iterable, Seq) and not iterable.items else None
        if over is not None and iterable.most is not None and iterable.least == iterable.most:  # type: ignore[union-attr]
            passes = iterable.most  # type: ignore[union-attr]
        elif over is None and isinstance(iterable, Seq) and not iterable.items:
            over = _range_passes(iterable)
        return self._widened(node.body.body, path, node.target, node.orelse, each, _first_pass_certain(iterable),
                             passes, over)

    def _drawn_per_pass(self, start: dict[str, object], instances: list[Instance], attrs: list[dict[str, object]],
                        end: _Path) -> _Path:
        """The lists a loop appended to, their new elements' sizes drawn during the loop marked as varying per item
        (`n = random.randint(5, 9); clips.append(torch.randn(n, 40))`): each pass draws again, so the elements
        differ, however the analysis spells the draw. A draw made before the loop is the same on every pass."""
        grown = [(env, name, value, before.get(name)) for env, before in ((end.env, start), *(
            (instance.attrs, old) for instance, old in zip(instances, attrs)))
            for name, value in env.items() if type(value) is Seq and value is not before.get(name)]
        earlier: list[object] | None = None
        for env, name, value, old in grown:
            kept = _kept(value, old)
            added = [*value.items[kept:], *(() if value.each is None else (value.each,))]
            if not draws_in(self.ev, added):
                continue
            if earlier is None:
                earlier = [held for known in (start, *attrs) for held in known.values()]
            fresh = draws_in(self.ev, added, earlier)
            if fresh:
                items = (*value.items[:kept], *(per_item_draws(self.ev, item, fresh) for item in value.items[kept:]))
                each = per_item_draws(self.ev, value.each, fresh) if value.each is not None else None
                env[name] = replace(value, items=items, each=each)
        return end

    def _unrolled(self, node: cst.For, iterable: Seq, path: _Path) -> _Path | None:
        """Each iteration in turn; None when a `break` or `continue` under a condition the values don't decide
        makes the iterations' paths diverge (then the loop is run as of unknown length)."""
        current = _Path(path.env, path.certain)
        trace_length = len(self.trace)
        returns_length = len(self.returns)
        broke = False
        for item in iterable.items:
            self.assign(node.target, item, current)
            current = self.block(node.body.body, current)
            if current.jump == "unsure":
                del self.trace[trace_length:]
                del self.returns[returns_length:]
                return None
            if current.ended:
                return current
            if current.jump == "break":
                current.jump = None
                broke = True
                break
            current.jump = None
        if not broke and node.orelse is not None:
            current = self.block(node.orelse.body.body, current)
        return current

    def _widened(self, body, path: _Path, target: cst.BaseExpression | None, orelse, each: object = None,
                 once: bool = False, passes: int | None = None, over: object = None) -> _Path:
        """A loop run any number of times, zero included unless `once` (the iterable has an element for certain,
        so its first pass runs whenever the loop does): a name (or an attribute of an object it holds) is what
        every pass agrees on. `each` is what every element of the iterable is, where that is known; `over` the
        passes of the loop that grew the list it goes through (`Seq.grown`), which are its passes too, or the count
        `n` of a `range(n)` (`_range_passes`)."""
        instances = self._instances(path)
        saved = [dict(instance.attrs) for instance in instances]
        # the lists grown on this run's passes, names and attributes alike; the passes of `range(n)` are `n`, on
        # every run of the loop
        mark = object() if over is None else over
        result, first = self._passes(body, path, target, each, once, passes, instances, mark)
        for index, (instance, attrs) in enumerate(zip(instances, saved)):
            instance.attrs = self.ev.join_envs(attrs, instance.attrs)
            if first is not None:
                # `self.rows.append(...)` on each pass of a dataset's `__init__`: counted as a name's list is
                instance.attrs = _grown_together(attrs, first[index], instance.attrs, passes, mark)
        if orelse is not None:
            result = self.block(orelse.body.body, result)
        return result

    def _passes(self, body, path: _Path, target: cst.BaseExpression | None, each: object, once: bool,
                passes: int | None, instances: list[Instance],
                mark: object) -> tuple[_Path, list[dict[str, object]] | None]:
        """The loop's passes, and the attributes of `instances` after the first one where the lists the loop grows
        are counted (see `_grown_together`, whose lists it marks with `mark`)."""
        start = _Path(dict(path.env), False)
        current = start
        first: _Path | None = None
        first_attrs: list[dict[str, object]] | None = None
        # a loop whose first pass runs for certain, every pass to the end, binds for certain the names it binds: one
        # unbound or None before it holds what the passes agree on after it (`total = losses if total is None else
        # total + losses` over a loader's batches, `last = model(x)`)
        bound_for_certain = once and not _jumps(body)
        for count in range(3):
            entry = _Path(dict(current.env), once and count == 0 and path.certain)
            if target is not None:
                for name in target_names(target):
                    entry.env[name] = UNKNOWN
                if each is not None:
                    assign_target(target, each, entry.env, self.ev)
                # what the iterable does not state is an object all the same (see `unstated_element`)
                for name in target_names(target):
                    if entry.env[name] is UNKNOWN:
                        entry.env[name] = unstated_element(target, name)
            after = self.block(body, entry)
            if after.ended or after.jump is not None:
                after = _Path(entry.env, False)
            if first is None:
                first, first_attrs = after, [dict(instance.attrs) for instance in instances]
            joined = self.ev.join_envs(current.env, after.env)
            if count == 0 and bound_for_certain:
                joined.update((name, value) for name, value in after.env.items()
                              if start.env.get(name, NONE) == NONE)
            if joined == current.env:
                break
            current = _Path(joined, False)
        else:
            current = _Path({k: v if start.env.get(k, UNKNOWN) == v else UNKNOWN for k, v in current.env.items()},
                            False)
        if first is None or _jumps(body):
            return _Path(current.env, path.certain), None
        return _Path(_grown_together(start.env, first.env, current.env, passes, mark), path.certain), first_attrs

    def _try(self, node: cst.Try, path: _Path) -> _Path:
        """The body as it comes; a handler may run after any part of it, so from what the body's start and end
        agree on; the `else` after the body; `finally` after either."""
        body = self.block(node.body.body, _Path(dict(path.env), path.certain))
        if node.orelse is not None and not body.ended:
            body = self.block(node.orelse.body.body, body)
        merged = body
        if node.handlers:
            start = self.ev.join_envs(path.env, body.env)
            handled = self._branches(body, [handler.body.body for handler in node.handlers], start)
            merged = self._merge(path, [body, handled])
        if node.finalbody is not None:
            merged = self.block(node.finalbody.body.body, merged)
        return merged


def loop_items(ev: Evaluator, value: object) -> Seq | None:
    """What a `for` loop over `value` goes through, a dict's keys for a dict; None where that is not known."""
    iterable = ev.iterated(value)
    if isinstance(iterable, Mapping):
        return Seq(tuple(as_key_value(k) for k, _ in iterable.items), complete=iterable.complete)
    return iterable


def may_run_for_certain(node: cst.For, iterable: Seq | None) -> bool:
    """Whether a run of the loop `node` over `iterable` (`loop_items`) may run its body for certain: spelled out
    pass by pass, or a first pass of an iterable that has an element for certain. Elsewhere every statement of the
    body runs only maybe, whatever the path to the loop."""
    return _unrolled_over(node, iterable) or _first_pass_certain(iterable)


def _unrolled_over(node: cst.For, iterable: Seq | None) -> bool:
    return isinstance(iterable, Seq) and iterable.complete and len(iterable.items) <= MAX_UNROLL \
        and node.asynchronous is None


def _first_pass_certain(iterable: Seq | None) -> bool:
    """Whether the iterable has an element for certain, so a run of the loop takes its first pass: one it lists
    (`range(100)`, too long to unroll: a trainer's `for i in range(num_iterations)` on its default), or one of
    those it does not list that it has at least."""
    if not isinstance(iterable, Seq):
        return False
    return bool(iterable.items) or iterable.each is not None and iterable.least > 0


def _with_element(container: object, index: object, value: object) -> object | None:
    """`container` with the element `index` names set to `value`: a dict's entry of a key the code states, or one
    element of a list (`laterals[i - 1] = laterals[i - 1] + up` of an FPN's top-down loop); None where it is not
    told which."""
    if isinstance(container, Mapping):
        key = key_of(index)
        if key is None:
            return None
        merged = dict(container.items)
        merged[key] = value
        return Mapping(tuple(merged.items()), container.complete)
    if isinstance(container, Seq) and container.kind == "list":
        at = _list_position(container, index)
        if at is None:
            return None
        items = list(container.items)
        items[at] = value
        return replace(container, items=tuple(items))
    return None


def _list_position(container: Seq, index: object) -> int | None:
    """The element an int index names among the ones `container` knows (a negative one only in a complete list)."""
    at = index.literal if isinstance(index, Dim) else None
    if at is None:
        return None
    if at < 0 and container.complete:
        at += len(container.items)
    return at if 0 <= at < len(container.items) else None


def _one_record(ev: Evaluator, values: list[object]) -> Instance | None:
    """What the objects a generator yields agree on, where each is a new object of one project class its yield
    builds (a rollout buffer's `yield Batch(self.obs[idx], self.returns[idx])` on each pass): an object of that
    class holding what their attributes agree on; None for anything else."""
    first = values[0]
    if not isinstance(first, Instance) or len(values) < 2 or any(
            not isinstance(value, Instance) or value.cls != first.cls or value.tainted or value.generic
            or value.items is not None or set(value.attrs) != set(first.attrs) for value in values):
        return None
    attrs = {name: ev.join_values([value.attrs[name] for value in values]) for name in first.attrs}  # type: ignore
    return replace(first, attrs=attrs, call=None)


def _range_passes(iterable: Seq) -> object:
    """What stands for the passes of a loop over a `range` of a count the code does not list (each number as
    `builtins._index_below` reads it), where that is told: `range(len(rewards))` of a list a loop grew takes as many
    passes as that loop (its `Seq.grown`); `range(n)` otherwise `n` (`for _ in range(n_items)` in a dataset's
    `__init__`, `n_items` from the command line: a list each pass appends to holds `n` elements), the same on every
    run over the same count, however often the call running it is read (each name a rollout's tuple is unpacked to
    reads it once)."""
    atom = iterable.each.atom if isinstance(iterable.each, Dim) else None
    if atom is None or type(atom.key) is not tuple or atom.key[0] != "range index" or atom.below is None:
        return None
    end = atom.below.atom
    if end is not None and type(end.key) is tuple and len(end.key) == 2 and end.key[0] == "passes":
        return end.key[1]
    return atom.below


def _grown_together(start: dict[str, object], first: dict[str, object], end: dict[str, object],
                    passes: int | None, mark: object) -> dict[str, object]:
    """The lists a loop's pass appends exactly one element to, from empty, marked as grown on this run's passes (see
    `Seq.grown`): a new mark for each run of the loop, since another run may take another number of passes; as many
    elements as the loop's `passes`, where the code states them (`for s in range(len(series) - lookback)`). Lists an
    inner loop grew together on the first pass are marked together too (the pair of both marks), not counted."""
    joined = [name for name, value in end.items()
              if type(value) is Seq and not value.complete and not value.items and value.grown is None
              and start.get(name) == Seq((), value.kind) and type(first.get(name)) is Seq]
    grown = [name for name in joined if first[name].complete and len(first[name].items) == 1]
    # lists an inner loop grew together on the first pass (a `while not done` episode inside `for _ in
    # range(episodes)`) take as many elements as each other on every pass: together here too, however many
    nested = [name for name in joined if first[name].grown is not None
              and sum(first[other].grown == first[name].grown for other in joined) > 1]
    if not grown and not nested:
        return end
    counted = {} if passes is None else {"least": passes, "most": passes}
    return {**end, **{name: replace(end[name], grown=mark, **counted) for name in grown},
            **{name: replace(end[name], grown=(mark, first[name].grown)) for name in nested}}


def _popped(node: cst.CSTNode, env: dict[str, object]) -> dict[str, int | None]:
    """The lists a simple statement pops an element of inside an expression (`x = torch.cat([skips.pop(), x])`; a
    pop that is the statement itself is a change `mutate` makes): each name holding a list the code spells out, with
    the position it pops (-1 for `pop()`), None where it pops more than once or at a position not written out."""
    if type(node) is cst.Expr and type(node.value) is cst.Call:  # type: ignore[attr-defined]
        return {}
    found: dict[str, int | None] = {}
    for inner in _walk(node):
        if type(inner) is not cst.Call or type(inner.func) is not cst.Attribute or inner.func.attr.value != "pop" \
                or type(inner.func.value) is not cst.Name:
            continue
        name = inner.func.value.value
        held = env.get(name)
        if type(held) is not Seq or not held.complete or held.kind != "list":
            continue
        at = -1 if not inner.args else _literal_position(inner.args[0])
        found[name] = None if name in found else at
    return found


def _literal_position(arg: cst.Arg) -> int | None:
    value = arg.value
    if arg.keyword is not None or arg.star:
        return None
    if type(value) is cst.Integer:
        return int(value.value)
    if type(value) is cst.UnaryOperation and type(value.operator) is cst.Minus and type(value.expression) is cst.Integer:
        return -int(value.expression.value)
    return None


def _without(held: object, at: int) -> object:
    """A list the code spells out without its element at `at`; UNKNOWN where it has none there."""
    if type(held) is not Seq or not held.complete or not -len(held.items) <= at < len(held.items):
        return UNKNOWN
    items = list(held.items)
    del items[at]
    return Seq(tuple(items), held.kind)


def _kept(value: Seq, old: object) -> int:
    """How many of the list's first elements it held before the loop."""
    return len(old.items) if type(old) is Seq and value.items[:len(old.items)] == old.items else 0


def _jumps(body) -> bool:
    """Whether a loop's body may leave a pass early (`break`, `continue`): its lists may then grow unevenly."""
    return any(type(node) in (cst.Break, cst.Continue) for statement in body for node in _walk(statement))


def function_facts_names(node: cst.CSTNode) -> Iterator[str]:
    """The names a statement the executor does not follow may bind."""
    for child in _walk(node):
        kind = type(child)
        if kind in (cst.Assign,):
            for target in child.targets:  # type: ignore[attr-defined]
                yield from target_names(target.target)
        elif kind in (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr):
            yield from target_names(child.target)  # type: ignore[attr-defined]
        elif kind is cst.MatchAs and child.name is not None:  # type: ignore[attr-defined]
            yield child.name.value  # type: ignore[attr-defined]


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    return own_nodes(node)


def _imported(node: cst.CSTNode) -> Iterator[tuple[str, str | None]]:
    names = node.names  # type: ignore[attr-defined]
    if isinstance(names, cst.ImportStar):
        return
    if type(node) is cst.ImportFrom:
        module = dotted_name(node.module) if node.module is not None and not node.relative else None
        for alias in names:
            if type(alias.name) is not cst.Name:
                continue
            local = alias.asname.name.value if alias.asname is not None else alias.name.value
            yield local, f"{module}.{alias.name.value}" if module else None
        return
    for alias in names:
        dotted = dotted_name(alias.name)
        if dotted is None:
            continue
        if alias.asname is not None and type(alias.asname.name) is cst.Name:
            yield alias.asname.name.value, dotted
        else:
            root = dotted.split(".", 1)[0]
            yield root, root


def _with_layer(items: Seq | Mapping, name: str, layer: object) -> Mapping | None:
    """A container's layers after `add_module(name, layer)`: torch keeps them by name in the order they came
    (those a constructor was handed named "0", "1", ...); a name already there keeps its place. None when what it
    held is not all known."""
    if not items.complete:
        return None
    held = items.items if isinstance(items, Mapping) else tuple((str(i), item) for i, item in enumerate(items.items))
    if any(key == name for key, _ in held):
        return Mapping(tuple((key, layer if key == name else item) for key, item in held))
    return Mapping(held + ((name, layer),))


def _main_guard(test: cst.BaseExpression) -> bool:
    """`__name__ == "__main__"` (either way round): what a script runs, as the linted file does, for certain."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) is not cst.Equal:
        return False
    sides = {type(test.left), type(test.comparisons[0].comparator)}
    if sides != {cst.Name, cst.SimpleString}:
        return False
    name, text = (test.left, test.comparisons[0].comparator) if type(test.left) is cst.Name else \
        (test.comparisons[0].comparator, test.left)
    return name.value == "__name__" and text.evaluated_value == "__main__"  # type: ignore[attr-defined]


def _after_change(value: object, namespace_writes: frozenset[str] | None) -> object:
    """A value after a call that may change it in place: a list or dict with perhaps more items, a namespace with
    any value in the attributes the callee may set (`namespace_writes`, None for any)."""
    if type(value) is Mapping or isinstance(value, Seq) and value.kind == "list":
        return incomplete(value)
    return value.after_writes(namespace_writes) if isinstance(value, Namespace) else value


def _take(instance: Instance, depth: int = 0) -> None:
    """A run binds a name to an object it just built: the lists only filling methods change are, from now on, what
    the run's own calls of those methods append to them (`Executor._fill`); so are those of the objects its
    `__init__` built and keeps (an agent's `self.storage = RolloutStorage()`)."""
    kept, instance.appendable = instance.appendable, None
    for attribute, value in (kept or {}).items():
        if instance.attrs.get(attribute) is UNKNOWN:
            instance.attrs[attribute] = value
    if kept:
        instance.filled = frozenset(kept)
    if depth < 2:
        for held in list(instance.attrs.values()):
            # one its class builds, not one handed to it, which other code may hold and fill
            if isinstance(held, Instance) and held.appendable and held.call is not None \
                    and any(node is held.call for node in walk(instance.cls.node)):
                _take(held, depth + 1)
