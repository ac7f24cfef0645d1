"""The shape evaluator: lazy, demand-driven and memoized, one per file (`evaluator(ctx)`), which rules reach through
`shape_of(ctx, expr)` and `shape_conflict(ctx, node)`.

Nothing is computed until a rule asks about an expression; then the evaluator walks back through the expression and
the bindings of the names in it (`ctx.binding(name, before)`, as of the point where each name is read), applying the
transfer functions of `shapecheck.shapes.ops`, and remembers every answer per (node, point in the file). Anything it
does not understand is unknown (None): it never guesses a size, a rank or a layout.

Three kinds of questions, because a name means a tensor in one place and a size in another:
- `shape_of(expr)`: the Shape of a tensor-valued expression;
- `dim_of(expr)`: the Dim of an int-valued expression (`B`, `x.size(-1)`, `C // self.n_head`, `32 * 13 * 13`);
- `sizes_of(expr)`: a sequence of sizes (`x.shape`, `(B, T, C)`, `x.size()[:-2] + (n, d)`), as a Shape.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.context import Binding, Context
from shapecheck.engine.syntax import dotted_name, is_self_attribute, param_annotation
from shapecheck.objects.builtins import grown_count
from shapecheck.objects.dims import DEFAULTS_USED, Atom, Dim
from shapecheck.objects.carried import Carried, carried
from shapecheck.objects.executor import Run, loop_items, may_run_for_certain
from shapecheck.objects.classes import function_facts
from shapecheck.objects.evaluator import UNSTATED_COUNT, Derived, Evaluator, named, unpacking_point
from shapecheck.objects.frames import Frame
from shapecheck.objects.values import UNKNOWN, Const, FunctionValue, Instance, Mapping, Opaque, Seq, TorchObject, truth
from shapecheck.shapes import conflicts, elementwise, indexing, layers, numpy_arrays, ops, packing, transposes, value_bounds
from shapecheck.shapes.annotations import stated_shape
from shapecheck.shapes.indexing import rows
from shapecheck.shapes.loaders import batches
from shapecheck.shapes.shape import MAX_RANK, Shape
from shapecheck.shapes.sizes import measured, size_attribute, size_call, size_sequence, size_subscript
from shapecheck.shapes.values import Array, Conflict, Items, Path, Sizes, Value

# Combinations of bindings tried when a view's names are bound differently on different paths: each is a fresh
# evaluation of everything the view reads, and long functions with many optional arguments (torch's own
# multi_head_attention_forward) would try every one of them for every view.
MAX_PATH_RUNS = 8
# statements whose bodies a run never runs for certain (see `objects.executor`)
_NEVER_CERTAIN = (cst.ExceptHandler, cst.TryStar, cst.Match, cst.ClassDef)
# what a module's `parameters()` and `buffers()` go through: tensors, of shapes each layer keeps to itself
_TENSORS_OF_A_MODULE = frozenset({"parameters", "buffers"})


class ShapeEvaluator(Evaluator):
    """The objects floor's evaluator, with tensors: "tensor" (a `Shape`), "sizes" (a torch.Size or a tuple of
    sizes) and "items" (a tuple of tensors) besides "value" and "size"."""

    title = "shape analysis"
    REJOINED = (Shape,)  # a join keeps only what both sides agree on, and drops `origin` and `permuted_by`

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # id(class or function) -> the containers its code changes (`x.append(...)`), see `layers.module_of`
        self.mutated: dict[int, frozenset[str]] = {}
        # id(function) -> its run on its own signature, and where each of its statements ran in it
        self._generic_runs: dict[int, tuple[Run | None, dict[int, list[tuple[int, bool]]]]] = {}
        self._carried: dict[int, Carried] = {}  # id(function) -> what only its run may tell
        self._loops_maybe: dict[int, bool] = {}  # id(for statement) -> see `_loop_maybe`
        # id(DataLoader call) -> why collating its batches fails, and the path there (`loaders.collation_conflict`)
        self.collations: dict[int, tuple[str, Path]] = {}

    def is_object(self, value: object) -> bool:
        return isinstance(value, Shape) or super().is_object(value)

    # ------------------------------------------------------------------- what the bindings can't say, a run says

    def _ask(self, want: str, expr: cst.BaseExpression, before: int | None) -> object:
        found = super()._ask(want, expr, before)
        if before is None and want != "value" and (found is None or isinstance(found, Shape) and (
                not found.dims or _counts_unstated(found))):
            ran = self._in_generic_run(want, expr)
            if ran is not None and (found is None or isinstance(ran, Shape) and ran.dims):
                found = ran
        return found

    def _in_generic_run(self, want: str, expr: cst.BaseExpression) -> object:
        """What `expr` holds at the node being visited in the function's run on its own signature, where the
        bindings alone can't say: a name a loop rebinds (`for layer in self.layers: x = layer(x)`), a list filled by
        `append`. A statement a loop ran several times must agree with itself each time."""
        try:
            values = [self.evaluate(want, expr, version) for version, _ in self._versions_answered(expr)]
        except RecursionError:
            return None
        except Exception as error:  # noqa: BLE001 - as in `Evaluator._ask`: a bug in the analysis answers "unknown"
            self.errors.append(error)
            return None
        if not values:
            return None
        if any(value is None for value in values):
            return None
        joined = self.join_values(values)
        return None if joined is UNKNOWN else joined

    def certain_runs(self, node: cst.CSTNode) -> list[int]:
        """The versions the statement being visited certainly ran at, in the run of its function (or module) on
        its own signature: a pass of a loop, where a loop variable has the value of that pass; none where `node`
        reads nothing a run knows better than the bindings, or where the bindings tell that the run never certainly
        reaches it (the run is not made for it)."""
        if self._never_certain(node):
            return []
        return [version for version, certain in self._versions_answered(node) if certain]

    def _never_certain(self, node: cst.CSTNode) -> bool:
        """Whether the run of the function being visited on its own signature never runs `node` for certain, as
        the syntax and the bindings tell: `node` is in the body of a `while` (whose passes a run makes only maybe),
        of an `except`, a `try` with `except*`, a `match` or a class (never run for certain), or of a `for` a run
        goes through only maybe (`_loop_maybe`). Most of the questions a run would be made for are of statements
        in such loops (`for p in params:`), and it would answer each of them with none."""
        function = self._run_here()
        if function is None:
            return False
        ancestors = self.ctx.ancestors
        inner = ancestors if ancestors and ancestors[-1] is node else [*ancestors, node]
        start = len(inner) - 1
        while start >= 0 and inner[start] is not function:
            start -= 1
        if start < 0:
            return False
        for position in range(start + 1, len(inner) - 1):
            outer, below = inner[position], inner[position + 1]
            kind = type(outer)
            if kind is cst.While and below is not outer.test or kind in _NEVER_CERTAIN:  # type: ignore[attr-defined]
                return True
            if kind is cst.For and below is outer.body and self._loop_maybe(outer):  # type: ignore[attr-defined]
                return True
        return False

    def _loop_maybe(self, loop: cst.For) -> bool:
        """Whether a run of the function being visited goes through the body of `loop` only maybe (its iterable's
        length unknown), as the bindings tell: where the iterable reads no name a run knows better than the bindings
        (`objects.carried`), it holds in the run what it holds here. A name the loop's body binds is such a name,
        so the answer is the same anywhere in the body."""
        found = self._loops_maybe.get(id(loop))
        if found is None:
            try:
                found = not self.read_in_runs(loop.iter) and \
                    not may_run_for_certain(loop, loop_items(self, self.object(loop.iter, self.now())))
            except RecursionError:
                found = False
            except Exception as error:  # noqa: BLE001 - as in `Evaluator._ask`: the run is made, as before
                self.errors.append(error)
                found = False
            self._loops_maybe[id(loop)] = found
        return found

    def _versions_answered(self, node: cst.CSTNode) -> list[tuple[int, bool]]:
        """`_versions_here`, none where the run crashed (a bug in the analysis, kept to be reported)."""
        try:
            return self._versions_here(node) or []
        except RecursionError:
            return []
        except Exception as error:  # noqa: BLE001
            self.errors.append(error)
            return []

    def read_in_runs(self, node: cst.CSTNode) -> bool:
        """Whether `node` reads a name whose value a run of the function (or module) being visited may know better
        than the bindings (`objects.carried`): a cheap test, the run is not made."""
        function = self._run_here()
        if function is None:
            return False
        names = self._carried.get(id(function))
        if names is None:
            names = self._carried[id(function)] = carried(function)
        return names.read_by(node)

    def _run_here(self) -> cst.FunctionDef | cst.Module | None:
        """The function (or module) whose run on its own signature answers for the node being visited; None where
        no such run applies (inside a call's run, a branch or a forced path)."""
        function = self.ctx.function or (self.ctx.module if self.ctx.class_def is None else None)
        if function is None or self._home is not None or self._branches is not None or self._forced:
            return None
        return function

    def _versions_here(self, node: cst.CSTNode) -> list[tuple[int, bool]] | None:
        """The versions (and whether it ran for certain) of the statement being visited, in the run of the
        function (or module) it is in on its own signature; None where `node` reads nothing that a run knows
        better than the bindings (no loop, comprehension or in-place change reaches it): the run is not made."""
        function = self._run_here()
        if function is None or not self.read_in_runs(node):
            return None
        _, where = self._generic_run(function)
        ancestors = self.ctx.ancestors
        for index in range(len(ancestors) - 1, -1, -1):
            found = where.get(id(ancestors[index]))
            if found:
                return self._element_versions(ancestors[index + 1:], found)
            if ancestors[index] is function:
                break
        return None

    def _element_versions(self, below: list[cst.CSTNode], found: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
        """A node in a list or dict comprehension's element, below a statement that ran at `found`: each pass of
        the element that ran (where the comprehension's names hold that pass's values: `[train(model, loader) for
        loader in loaders]`), when the comprehension recorded its passes; else the statement's versions."""
        for position, node in enumerate(below[:-1]):
            if type(node) is cst.ListComp and below[position + 1] is node.elt or type(node) is cst.DictComp \
                    and below[position + 1] in (node.key, node.value):
                passes = [(run, certain) for version, certain in found
                          for run in self.calls.element_runs.get((id(node), version), ())]
                return passes or found
            if type(node) in (cst.ListComp, cst.DictComp, cst.GeneratorExp, cst.SetComp, cst.Lambda):
                break  # its iterables or conditions, or a scope of its own: read at the statement's versions
        return found

    def _generic_run(self, function: cst.FunctionDef | cst.Module) -> tuple[Run | None,
                                                                         dict[int, list[tuple[int, bool]]]]:
        found = self._generic_runs.get(id(function))
        if found is not None:
            return found
        self._generic_runs[id(function)] = (None, {})  # a question asked while it runs finds nothing
        owner = self.method_owner(function)
        bound = None
        facts = function_facts(self.ctx, function)
        if owner is not None and facts.params and not any(
                dotted_name(d.decorator) == "staticmethod" for d in function.decorators):
            bound = self.generic_instance(owner)
        closure = None
        if len(self.ctx._functions) > 1:  # a function inside another: the outer names, as the traversal has them
            closure = Frame(function, frozenset(), {}, outer=self.now(), outer_home=None)
        callee = FunctionValue(function, self.ctx, bound, owner, closure)
        run = self.calls.run(callee, self.calls.generic_arguments(callee))
        where: dict[int, list[tuple[int, bool]]] = {}
        for statement, version, certain in run.trace:
            where.setdefault(id(statement), []).append((version, certain))
        found = self._generic_runs[id(function)] = (run, where)
        return found

    # ---------------------------------------------------------------------------------------- public questions

    def shape_of(self, expr: cst.BaseExpression, before: int | None = None) -> Shape | None:
        value = self._ask("tensor", expr, before)
        return value if isinstance(value, Shape) else None

    def sizes_of(self, expr: cst.BaseExpression, before: int | None = None) -> Shape | None:
        value = self._ask("sizes", expr, before)
        return value.shape if isinstance(value, Sizes) else None

    def items_of(self, expr: cst.BaseExpression, before: int | None = None) -> Items | None:
        value = self._ask("items", expr, before)
        return value if isinstance(value, Items) else None

    def conflict(self, node: cst.CSTNode, before: int | None = None) -> Conflict | None:
        """The shape error `node` certainly raises, read as of `before` (default: the node being visited, and
        then also in each run of the statement, on every call, in its function's run on its own signature: an
        iteration of a loop over a `ModuleList`)."""
        if before is None:
            found = self.conflict(node, self.now())
            if found is None and conflicts.checked(self.ctx, node) and not conflicts.settled(self, node):
                for version in self.certain_runs(node):
                    found = self.conflict(node, version)
                    if found is not None:
                        break
            return found
        key = ("conflict", id(node), before, id(self._home))
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        options: list[Atom] = []
        token = DEFAULTS_USED.set(options)
        try:
            found = conflicts.find(self, node, before)
        except RecursionError:
            found = None
        except Exception as error:  # noqa: BLE001
            self.errors.append(error)
            found = None
        finally:
            DEFAULTS_USED.reset(token)
        if found is not None:
            found = _at_defaults(found, options)
        self._memo[key] = found  # type: ignore[assignment]
        return found

    def layout_conflict(self, call: cst.Call) -> Conflict | None:
        """`t.view(...)` that must merge dims a transpose/permute left out of memory order: it raises whatever
        the sizes are (as long as the merged dims are not 1), on every path or on one path through the branches
        that bind the names it reads."""
        key = ("layout", id(call), self.now())
        if key not in self._memo:
            try:
                self._memo[key] = self._on_some_path(call)  # type: ignore[assignment]
            except RecursionError:
                self._memo[key] = None
            except Exception as error:  # noqa: BLE001
                self.errors.append(error)
                self._memo[key] = None
        return self._memo[key]  # type: ignore[return-value]

    def _on_some_path(self, call: cst.Call) -> Conflict | None:
        """The conflict on every path, else on one path: names that several bindings reach are pinned to one
        binding each (pairs the code's branches make exclusive are not combined), a few combinations at most."""
        found = conflicts.view_layout(self, call)
        receiver = self.shape_of(call.func.value) if type(call.func) is cst.Attribute else None
        if found is not None or receiver is not None and receiver.layout is not None and receiver.rank is not None:
            return found  # every path agrees on the tensor's layout and rank
        saved = self._memo
        self._memo, self._branches = {}, []  # again, noting the names several bindings reach
        conflicts.view_layout(self, call)
        pending, self._branches = [({}, self._branches)], None
        known: dict[tuple[int, ...], list[Binding]] = {}
        tried: set[frozenset] = set()
        runs = 0
        try:
            while pending and runs < MAX_PATH_RUNS:
                forced, branches = pending.pop(0)
                for key, bindings in branches:
                    known[key] = bindings
                    if key in forced:
                        continue
                    for index in range(len(bindings)):
                        choice = {**forced, key: index}
                        signature = frozenset(choice.items())
                        if signature in tried or runs >= MAX_PATH_RUNS:
                            continue
                        tried.add(signature)
                        chosen = [known[k][i] for k, i in choice.items()]
                        if not self.path_bindings_compatible(chosen):
                            continue
                        runs += 1
                        self._memo, self._forced, self._branches = {}, choice, []
                        found = conflicts.view_layout(self, call)
                        if found is not None:
                            statement = self.ctx.code(bindings[index].statement).strip().splitlines()[0]
                            return replace(found, message=f"{found.message}, on the path through `{statement}`")
                        fresh = [(k, b) for k, b in self._branches if k not in choice]
                        if fresh:
                            pending.append((choice, fresh))
        finally:
            self._memo, self._forced, self._branches = saved, {}, None
        return None

    def tensor(self, expr: cst.BaseExpression | None, before: int) -> Shape | None:
        return self._typed("tensor", expr, before, Shape)

    def sizes(self, expr: cst.BaseExpression | None, before: int) -> Shape | None:
        value = self._typed("sizes", expr, before, Sizes)
        return value.shape if value is not None else None

    def items(self, expr: cst.BaseExpression | None, before: int) -> Items | None:
        return self._typed("items", expr, before, Items)

    def tensor_of_name(self, expr: cst.BaseExpression, before: int) -> Shape | None:
        bindings = self.candidates(expr, before)
        if not bindings:
            if bindings is not None and is_self_attribute(expr):
                return self._instance_tensor(expr, before)
            return None
        shapes = [self._bound_tensor(binding, before) for binding in self.choose(bindings)]
        joined = shapes[0]
        for shape in shapes[1:]:
            joined = _join(joined, shape)
        return joined

    def _instance_tensor(self, expr: cst.Attribute, before: int) -> Shape | None:
        """A tensor attribute no assignment of the class binds (`self.register_buffer("pe", pe)`): what building
        the instance gave it."""
        value = self.object(expr, before)
        return value if isinstance(value, Shape) else None

    def _bound_tensor(self, binding: Binding, before: int) -> Shape | None:
        kind = binding.kind
        self._points[binding.seq] = binding.path
        if self._rebound_global(binding):
            return None
        if kind in ("assign", "walrus"):
            value = self.value_of(binding, "tensor")
            shape = value if isinstance(value, Shape) else None
            if shape is not None and shape.layout is not None and flow.under_layout_test(
                    binding.path, self.ctx._frame.node, self.ctx.code):
                shape = shape.without_layout()
        elif kind == "unpack":
            # a name inside a nested target (`a, (b, c) = ...`) has no value of its own to unpack
            element = self.unpacked(binding) if binding.value is not None else self.bound_value(binding)
            shape = element if isinstance(element, Shape) else None
        elif kind == "param":
            shape = self.parameter(binding)
        elif kind in ("for", "comp"):
            # an element the iterable does not state may be a tensor, of any rank, as a parameter may
            shape = self.as_want(self.bound_value(binding), "tensor")  # type: ignore[assignment]
        else:
            return None
        if shape is not None and shape.variadic is not None:
            shape = self.refined(shape, binding, before)
            if shape.variadic is not None and shape.origin is None:
                shape = replace(shape, origin=id(binding))
        return shape

    def parameter(self, binding: Binding) -> Shape | None:
        """A parameter's annotation, or a tensor of unknown rank in row-major layout (callers pass ordinary
        tensors; a permuted argument is their business)."""
        annotation, stated = self._annotated_parameter(binding)
        if stated is not None:
            return stated
        if annotation is not None and not _may_be_tensor(self.ctx, annotation):
            return None
        return Shape.unknown_rank()

    def _annotated_parameter(self, binding: Binding) -> tuple[cst.BaseExpression | None, Shape | None]:
        """A parameter's annotation and the shape it states (jaxtyping), each None where there is none."""
        function = binding.statement
        if type(function) is not cst.FunctionDef:
            return None, None
        annotation = param_annotation(function, binding.name)
        if annotation is None:
            return None, None
        return annotation, stated_shape(self.ctx, annotation, function)

    def unpacked(self, binding: Binding) -> Value | None:
        """The element an unpacking target took: `q, k, v = x.chunk(3, -1)`, `a, b = x, y`."""
        if binding.starred or binding.index is None or binding.value is None:
            return None
        value = binding.value
        if type(value) in (cst.Tuple, cst.List):
            elements = value.elements
            if any(type(e) is cst.StarredElement for e in elements) or binding.index >= len(elements):
                return None
            return self.tensor(elements[binding.index].value, binding.seq)
        point = unpacking_point(binding)
        items = self.items(value, point)
        position = _unpack_position(binding)
        if items is None and type(value) is cst.Call:
            # `dist, value = policy(obs)`: a tuple with a distribution in it, each element read on its own
            returned = ops.returned_object(self, value, point)
            if isinstance(returned, Seq) and position is not None and -len(returned.items) <= position < len(
                    returned.items):
                found = returned.items[position]
                return found if isinstance(found, Shape) else None
        if items is None:
            whole = self.tensor(value, point)  # `q, k, v = qkv`: the rows of a tensor
            elements = binding.unpacking_elements()
            parts = self.unpacked_values(whole, len(elements)) if whole is not None and elements is not None \
                and not any(type(e) is cst.StarredElement for e in elements) else None
            return parts[binding.index] if parts is not None else None  # type: ignore[return-value]
        return items.at(position) if position is not None else None

    def refined(self, shape: Shape, binding: Binding, before: int) -> Shape:
        """What the code's own `B, T, C = x.shape` (made before `before`) says about the rank of the tensor a name
        holds: its dims become symbols named as the code names them."""
        unpack = self._shape_unpacking(binding, before)
        if unpack is None:
            return shape
        names, rank = unpack
        known = len(shape.dims)
        if known > rank:
            return shape
        assert shape.variadic is not None
        v = shape.variadic
        middle = tuple(Dim.symbol(("dim", id(binding), i), names[i]) for i in range(v, v + rank - known))
        dims = shape.dims[:v] + middle + shape.dims[v:]
        layout = None
        if shape.layout is not None:
            added = len(middle)
            layout = tuple(r if r < v else r + added for r in shape.layout[:v]) + tuple(range(v, v + added)) + \
                tuple(r if r < v else r + added for r in shape.layout[v:])
        return Shape(dims, None, "...", layout, shape.dtype)

    def _shape_unpacking(self, binding: Binding, before: int) -> tuple[list[str], int] | None:
        """The names of the latest `a, b, c = x.shape` / `= x.size()` of the tensor `binding` holds, and its rank."""
        key = ("unpacking", id(binding), before)
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        found = None
        read = self.point(before)
        root = self.ctx._frame.node
        for scope in _visible_scopes(self.ctx):
            for candidate in scope.unpackings:
                if candidate.seq >= before:
                    break
                tensor = measured(candidate.value)
                if tensor is None or self.binding(tensor, candidate.seq) is not binding:
                    continue
                # only an unpacking every path to the read runs tells the rank: one under `if x.ndim == 4:` says
                # nothing in the `elif x.ndim == 3:` branch, nor after the `if`
                if read is not None and flow.reach(candidate.path, read, root) != "always":
                    continue
                names = _target_names(candidate)
                if names is not None and (found is None or candidate.seq > found[0]):
                    found = (candidate.seq, names)
        result = (found[1], len(found[1])) if found is not None else None
        self._memo[key] = result  # type: ignore[assignment]
        return result

    def bound_value(self, binding: Binding) -> object:
        """A name of `B, T, C = x.shape` holds that dim of `x` as a value too, so that a call it is passed to
        (`self._shape(q, B, T)`) reads the same size as the caller's own views do."""
        found = super().bound_value(binding)
        if found is UNKNOWN and binding.kind == "unpack" and not binding.starred and binding.value is not None \
                and measured(binding.value) is not None:
            size = self._unpacked_size(binding)
            return size if size is not None else UNKNOWN
        return found

    def _unpacked_size(self, binding: Binding) -> Dim | None:
        """The objects floor's sizes of a literal tuple, and here a tensor's sizes: `B, T, C = x.shape`."""
        value = binding.value
        assert value is not None
        position = _unpack_position(binding)
        if type(value) not in (cst.Tuple, cst.List) and position is not None:
            tensor = measured(value)
            if tensor is not None:
                # as of just after the unpacking, so that the tensor's rank and dim names come from it
                self._points[binding.seq + 1] = binding.path
                return self.dim_of_tensor(tensor, position, binding.seq + 1)
            sizes = self.sizes(value, binding.seq)
            if sizes is not None:
                return sizes.size(position)
        return super()._unpacked_size(binding)

    def dim_of_tensor(self, tensor: cst.BaseExpression, index: int, before: int) -> Dim | None:
        """Dim `index` of a tensor expression: what its shape says, else a symbol for that dim of that tensor; of a
        numpy array (`self.features.shape[0]` in a dataset's `__len__`), what its shape says."""
        shape = self.tensor(tensor, before)
        if shape is None:
            array = numpy_arrays.array_shape(self, tensor, before)
            return array.size(index) if array is not None else None
        dim = shape.size(index)
        if dim is not None:
            return dim
        if shape.rank is not None:
            return None  # out of range
        owner = shape.origin if shape.origin is not None else self.owner(tensor, before)
        return Dim.symbol(("dim", owner, index), f"{self.ctx.code(tensor)}.size({index})", placeholder=True)

    def owner(self, tensor: cst.BaseExpression, before: int) -> Hashable:
        """What identifies the tensor an expression holds, for naming its dims: the binding of a name, else the
        expression itself."""
        if type(tensor) is cst.Name or type(tensor) is cst.Attribute:
            binding = self.binding(tensor, before)
            if binding is not None:
                return id(binding)
        return id(tensor)

    def materialized(self, shape: Shape, dims: int, owner: Hashable, trailing: int = 0) -> Shape | None:
        """`shape` with at least `dims` leading and `trailing` trailing dims named: dims taken from its unknown run
        get symbols of their own, keyed by the tensor they measure (so `x.size(1)` is the same dim); None when
        that is not possible."""
        if shape.variadic is None:
            return shape if len(shape.dims) >= max(dims, trailing) else None
        if dims > MAX_RANK or trailing > MAX_RANK:
            return None
        owner = shape.origin if shape.origin is not None else owner
        v = shape.variadic
        known_leading, known_trailing = v, len(shape.dims) - v
        # The unknown run may be empty: new leading dims could be the known trailing ones and the other way round.
        if dims > known_leading and known_trailing or trailing > known_trailing and known_leading:
            return None
        if dims > v:
            new = tuple(Dim.symbol(("dim", owner, i), f"d{i}", placeholder=True) for i in range(v, dims))
            added = len(new)
            layout = None
            if shape.layout is not None:
                layout = tuple(shape.layout[:v]) + tuple(range(v, dims)) + tuple(r + added for r in shape.layout[v:])
            shape = Shape(shape.dims[:v] + new + shape.dims[v:], dims, shape.variadic_name, layout, shape.dtype,
                          origin=owner)
            v = dims
        known = len(shape.dims) - v
        if trailing > known:
            count = trailing - known
            new = tuple(Dim.symbol(("dim", owner, -i), f"d{-i}", placeholder=True)
                        for i in range(trailing, known, -1))
            layout = None
            if shape.layout is not None:
                layout = tuple(shape.layout[:v]) + tuple(range(v, v + count)) + \
                    tuple(r + count for r in shape.layout[v:])
            shape = Shape(shape.dims[:v] + new + shape.dims[v:], v, shape.variadic_name, layout, shape.dtype,
                          origin=owner)
        return shape


    # ------------------------------------------------------------------------- values of the objects floor

    def attribute_of(self, receiver: object, name: str) -> object:
        found = super().attribute_of(receiver, name)
        if found is UNKNOWN and isinstance(receiver, TorchObject):
            return layers.kept_argument(receiver, name)
        return found

    def as_want(self, value: object, want: str) -> object:
        if want == "tensor":
            if isinstance(value, Shape):
                return value
            if isinstance(value, Opaque) and value.maybe_tensor:
                return Shape.unknown_rank()
            return None
        if want == "items":
            if isinstance(value, Items):
                return value
            if isinstance(value, Seq):
                if value.complete:
                    return Items(tuple(item if isinstance(item, Shape) else None for item in value.items))
                shapes = [item for item in value.items if isinstance(item, Shape)]
                if isinstance(value.each, Shape) and len(shapes) == len(value.items) and all(
                        _join(shape, value.each) is not None for shape in shapes):
                    count = grown_count(value)
                    return Items(None, value.each, count)  # any number of tensors of one shape
            return None
        if want == "sizes":
            if isinstance(value, Sizes):
                return value
            if isinstance(value, Seq) and value.complete and all(isinstance(item, Dim) for item in value.items):
                return Sizes(Shape(value.items, layout=()))  # type: ignore[arg-type]
            return None
        return super().as_want(value, want)

    def other_value(self, expr: cst.BaseExpression, before: int) -> object:
        """A tensor's shape, a tuple of tensors, a dict of them a model's `forward` returns or a torch.Size, where
        the expression holds one."""
        shape = self.tensor(expr, before)
        if shape is not None:
            return shape
        items = self.items(expr, before)
        if items is not None:
            return items
        array = numpy_arrays.array_shape(self, expr, before)
        if array is not None:
            return Array(array)
        audio = numpy_arrays.loaded_audio(self, expr) if type(expr) is cst.Call else None
        if audio is not None:
            return audio
        sequence = packing.packed(self, expr, before) if type(expr) is cst.Call else None
        if sequence is not None:
            return sequence
        returned = ops.returned_object(self, expr, before) if type(expr) is cst.Call else None
        if returned is not None:
            return returned
        sizes = self.evaluate("sizes", expr, before)
        if isinstance(sizes, Sizes):
            return sizes
        # `len(x)`, `x.size(0)`, `x.shape[-1]`, and a rank a guard tests (`if y.ndim == 1: y = y[:, None]`)
        measures = type(expr) in (cst.Call, cst.Subscript) or (type(expr) is cst.Attribute
                                                                and expr.attr.value == "ndim")
        size = self.size(expr, before) if measures else None
        return size if size is not None else UNKNOWN

    def join_values(self, values: list[object]) -> object:
        if any(isinstance(value, Shape) for value in values):
            # a parameter a loop rebinds to tensors (`x = layer(x)`) is a tensor before the loop too
            values = [Shape.unknown_rank() if isinstance(value, Opaque) and value.maybe_tensor else value
                      for value in values]
            # an accumulator a loop starts at zero and carries as a tensor (`gae = 0`, then `gae = delta + gamma *
            # lam * gae` on each pass): once a pass has run it is the tensor, and zero added to or scaled into one
            # takes its shape; the loop's first pass reads the zero itself
            values = [value for value in values if not _zero_number(value)]
        if all(isinstance(value, Shape) for value in values):
            joined: Shape | None = values[0]  # type: ignore[assignment]
            for value in values[1:]:
                joined = _join(joined, value)  # type: ignore[arg-type]
            return joined if joined is not None else UNKNOWN
        return super().join_values(values)

    def join_passes(self, values: list[object], key: Hashable) -> object:
        return self._widened(values, key) if len(values) > 1 else values[0]

    def _widened(self, values: list[object], key: Hashable) -> object:
        """Tensors of one rank keep the sizes they agree on, each other one a size of its own (at most the
        largest where each is a literal); tuples of as many elements, element by element."""
        first = values[0]
        if all(isinstance(value, Shape) for value in values):
            joined = self.join_values(values)
            shapes: list[Shape] = values  # type: ignore[assignment]
            if joined is not UNKNOWN or shapes[0].rank is None or any(shape.rank != shapes[0].rank
                                                                       for shape in shapes):
                return joined
            dims = []
            for position, dim in enumerate(shapes[0].dims):
                sizes = [shape.dims[position] for shape in shapes]
                if all(size == dim for size in sizes):
                    dims.append(dim)
                    continue
                literals = [size.literal for size in sizes]
                most = None if None in literals else max(literals)  # type: ignore[type-var]
                dims.append(Dim((((Atom((key, position), "n", compound=True, at_most=most),), 1),)))
            same = all(shape.layout == shapes[0].layout for shape in shapes)
            dtype = shapes[0].dtype if all(shape.dtype == shapes[0].dtype for shape in shapes) else None
            return Shape(tuple(dims), None, "...", shapes[0].layout if same else None, dtype)
        if isinstance(first, Seq) and first.complete and all(
                isinstance(value, Seq) and value.complete and value.kind == first.kind
                and len(value.items) == len(first.items) for value in values):
            return Seq(tuple(self._widened([value.items[index] for value in values], (key, index))  # type: ignore
                             for index in range(len(first.items))), first.kind)
        return self.join_values(values)

    def with_sizes(self, value: object, change: Callable[[Dim], Dim]) -> object:
        if isinstance(value, Shape):
            dims = tuple(change(dim) for dim in value.dims)
            return value if dims == value.dims else replace(value, dims=dims)
        if isinstance(value, Array | Sizes):
            return replace(value, shape=self.with_sizes(value.shape, change))
        if isinstance(value, Items):
            items = None if value.items is None else tuple(None if item is None else self.with_sizes(item, change)
                                                           for item in value.items)
            each = None if value.each is None else self.with_sizes(value.each, change)
            return replace(value, items=items, each=each)
        return super().with_sizes(value, change)

    def kind_of(self, value: object) -> str | None:
        return "torch.Tensor" if isinstance(value, Shape) else super().kind_of(value)

    def iterated(self, value: object) -> Seq | Mapping | None:
        if isinstance(value, Shape):
            row = rows(value)
            if row is None:
                return None
            return Seq((), complete=False, each=row, **_row_count(value))
        if isinstance(value, Array) and value.shape.rank:
            # a numpy array's rows, or the numbers of a 1-D one (`for y in labels`): numpy scalars
            row = rows(value.shape)
            each = Opaque(("array element", value.shape), "element", maybe_tensor=False, number=True) \
                if value.shape.rank == 1 else Array(row) if row is not None else None
            return Seq((), complete=False, each=each, **_row_count(value.shape)) if each is not None else None
        if isinstance(value, Sizes):  # `for s in x.size()[1:]:` goes through the sizes
            return Seq(value.shape.dims, "tuple") if value.shape.rank is not None else None
        if isinstance(value, Items):
            if value.items is not None:
                return Seq(tuple(UNKNOWN if item is None else item for item in value.items), "tuple")
            return Seq((), complete=False, each=value.each) if value.each is not None else None
        if isinstance(value, TorchObject):
            loaded = batches(value)
            if loaded is not None:
                return loaded
        if isinstance(value, Derived) and value.method in _TENSORS_OF_A_MODULE:
            return Seq((), complete=False, each=Shape.unknown_rank(layout_known=False))
        return super().iterated(value)

    def unpacked_values(self, value: object, count: int) -> list[object] | None:
        if isinstance(value, Items) and value.items is not None and len(value.items) == count:
            return [item if item is not None else UNKNOWN for item in value.items]
        if isinstance(value, Sizes) and value.shape.rank == count:
            return list(value.shape.dims)
        if isinstance(value, Shape) and value.variadic != 0 and value.rank and value.size(0) == Dim.of(count):
            row = rows(value)  # `q, k, v = qkv` of a (3, B, H, T, d) tensor: its rows, as unpacking iterates
            return [row] * count if row is not None else None
        if isinstance(value, Array) and value.shape.rank and value.shape.rank > 1 \
                and value.shape.size(0) == Dim.of(count):
            row = rows(value.shape)  # `ys, xs = np.mgrid[0:h, 0:w]`: an array's rows, as for a tensor
            return [Array(row)] * count if row is not None else None
        return super().unpacked_values(value, count)

    def unpacking(self, expr: cst.BaseExpression, names: list[str | None],
                  before: int) -> tuple[list[object], dict[str, object]] | None:
        """`B, T, C = x.shape` with `x` of unknown rank: `x` has exactly as many dims, named as the code names
        them."""
        tensor = measured(expr)
        shape = self.tensor(tensor, before) if tensor is not None else None
        if shape is None:
            return None
        count = len(names)
        if shape.variadic is None:
            if shape.rank != count:
                return None
            exact = shape
        else:
            known = len(shape.dims)
            if known > count:
                return None
            v = shape.variadic
            middle = tuple(Dim.symbol(("dim", id(expr), i), names[i] or f"d{i}") for i in range(v, v + count - known))
            layout = None
            if shape.layout is not None:
                added = len(middle)
                layout = tuple(r if r < v else r + added for r in shape.layout[:v]) + tuple(range(v, v + added)) + \
                    tuple(r if r < v else r + added for r in shape.layout[v:])
            exact = Shape(shape.dims[:v] + middle + shape.dims[v:], None, "...", layout, shape.dtype)
        dims = [named(dim, name) if name else dim for dim, name in zip(exact.dims, names)]
        exact = exact.with_dims(tuple(dims), exact.layout)
        return list(dims), ({tensor.value: exact} if type(tensor) is cst.Name else {})

    def augmented(self, node: cst.AugAssign, before: int) -> object:
        """`x += y` on a tensor keeps its shape where the shapes broadcast into it."""
        found = super().augmented(node, before)
        if found is not UNKNOWN:
            return found
        old = self.tensor(node.target, before)
        return old if old is not None else UNKNOWN

    def parameter_value(self, binding: Binding) -> object:
        """A parameter with a jaxtyping annotation holds a tensor of that shape."""
        stated = self._annotated_parameter(binding)[1]
        return stated if stated is not None else super().parameter_value(binding)

    def generic_argument(self, function: cst.FunctionDef, param: cst.Param) -> object:
        if param.annotation is not None:
            stated = stated_shape(self.ctx, param.annotation.annotation, function)
            if stated is not None:
                return stated
        found = super().generic_argument(function, param)
        if isinstance(found, Opaque) and param.annotation is not None and \
                not _may_be_tensor(self.ctx, param.annotation.annotation):
            # `gamma: float`: a Python number, which arithmetic with other numbers keeps one
            annotation = param.annotation.annotation
            return replace(found, maybe_tensor=False,
                           number=type(annotation) is cst.Name and annotation.value == "float")
        return found

    def size_of_expression(self, expr: cst.BaseExpression, before: int) -> Dim | None:
        kind = type(expr)
        if kind is cst.Attribute:
            found = size_attribute(self, expr, before)
        elif kind is cst.Call:
            found = size_call(self, expr, before)
        else:
            found = size_subscript(self, expr, before)
        return found if found is not None else super().size_of_expression(expr, before)


def _zero_number(value: object) -> bool:
    """The number zero the code states (`0`, `0.0`)."""
    return isinstance(value, Dim) and value.literal == 0 or isinstance(value, Const) and type(value.value) is float \
        and value.value == 0.0


def _counts_unstated(shape: Shape) -> bool:
    """Whether a dim of `shape` is a count the code does not state as of the point read (`len(CACHE)`)."""
    return any(type(atom.key) is tuple and atom.key[0] == UNSTATED_COUNT for dim in shape.dims for atom in dim.atoms)


def evaluator(ctx: Context) -> ShapeEvaluator:
    """The file's shape evaluator, made on first use: files no shape rule asks about pay nothing."""
    return ctx.analysis(ShapeEvaluator)


def shape_of(ctx: Context, expr: cst.BaseExpression) -> Shape | None:
    """The shape of a tensor-valued expression as of the node being visited; None when unknown."""
    return ctx.analysis(ShapeEvaluator).shape_of(expr)


def _at_defaults(found: Conflict, options: list[Atom]) -> Conflict:
    """A conflict proven on command-line options' defaults says so: another value may fit (`--patch 96`)."""
    notes = list(dict.fromkeys(f"{option.name} = {option.default}" for option in options))
    note = f" (with {', '.join(notes)}, the command line's default{'s' if len(notes) > 1 else ''})"
    if not notes or found.message.endswith(note):
        return found
    return replace(found, message=found.message + note)


def shape_conflict(ctx: Context, node: cst.CSTNode) -> Conflict | None:
    """The shape error `node` certainly raises (matmul inner dims, cat/stack, broadcasting, view element counts, a
    layer's input size), with the shapes that prove it; None when nothing is proven."""
    return ctx.analysis(ShapeEvaluator).conflict(node)


# ------------------------------------------------------------------------------------------- the handlers


def _tensor(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Shape | None:
    kind = type(expr)
    if kind is cst.Name:
        return ev.tensor_of_name(expr, before)
    if kind is cst.Attribute:
        if is_self_attribute(expr):
            if before < 0:  # a call being run: the instance holds it
                value = ev.object(expr, before)
                return value if isinstance(value, Shape) else None
            return ev.tensor_of_name(expr, before)
        found = transposes.attribute(ev, expr, before)
        return found if found is not None else _instance_attribute(ev, expr, before)
    if kind is cst.Call:
        return ops.call(ev, expr, before)
    if kind is cst.BinaryOperation:
        found = elementwise.binary(ev, expr, before)
        return found.without_values() if found is not None else None
    if kind is cst.Comparison:
        return elementwise.comparison(ev, expr, before)
    if kind is cst.UnaryOperation:
        found = ev.tensor(expr.expression, before) if type(expr.operator) is not cst.Not else None
        return found.without_values() if found is not None else None
    if kind is cst.Subscript:
        return value_bounds.indexed(indexing.subscript(ev, expr, before), ev.tensor(expr.value, before))
    if kind is cst.IfExp:
        # a test the code settles (`x if self.shortcut is None else self.shortcut(o)` of a block built without one)
        # takes one branch: the other may not even be a call that can run
        test = truth(ev.object(expr.test, before))
        if test is not None:
            return ev.tensor(expr.body if test else expr.orelse, before)
        return _join(ev.tensor(expr.body, before), ev.tensor(expr.orelse, before))
    if kind is cst.NamedExpr:
        return ev.tensor(expr.value, before)
    return None


def _instance_attribute(ev: ShapeEvaluator, expr: cst.Attribute, before: int) -> Shape | None:
    """A tensor an object of the project holds (`rope.inv_freq` of `rope = RotaryEmbedding(16)`), read from outside
    its class: what building that object gave it."""
    receiver = ev.object(expr.value, before)
    if not isinstance(receiver, Instance):
        return layers.parameter_of(ev, receiver, expr.attr.value)
    value = ev.attribute_of(receiver, expr.attr.value)
    return value if isinstance(value, Shape) else None


def _sizes(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Sizes | None:
    shape = size_sequence(ev, expr, before)
    return Sizes(shape) if shape is not None else None


def _items(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Items | None:
    found = ops.items(ev, expr, before)
    if found is None and type(expr) is cst.Name:  # a batch a loop or an unpacking bound: `for batch in loader:`
        value = ev.as_want(ev.value_of_name(expr, before), "items")
        found = value if isinstance(value, Items) else None
    elif found is None and type(expr) is cst.Attribute:
        # `self.hidden = (h0, c0)`, or a rollout memory's `memory.states` a loop of the caller appended to: what
        # the object holds there
        value = ev.as_want(ev.object(expr, before), "items")
        found = value if isinstance(value, Items) else None
    return found


ShapeEvaluator.HANDLERS = {**Evaluator.HANDLERS, "tensor": _tensor, "sizes": _sizes, "items": _items}


# ----------------------------------------------------------------------------------------------- helpers


def _join(a: Shape | None, b: Shape | None) -> Shape | None:
    """What two branches agree on: the same dims, with layout and dtype kept only where they agree too."""
    if a is None or b is None or a.dims != b.dims or a.variadic != b.variadic:
        return None
    return Shape(a.dims, a.variadic, a.variadic_name, a.layout if a.layout == b.layout else None,
                 a.dtype if a.dtype == b.dtype else None, a.below if a.below == b.below else None)


def _unpack_position(binding: Binding) -> int | None:
    """The index a non-starred unpacking target takes, counted from the end when it follows a `*rest`."""
    elements = binding.unpacking_elements()
    if elements is None or binding.index is None:
        return None
    stars = [i for i, e in enumerate(elements) if type(e) is cst.StarredElement]
    if not stars or binding.index < stars[0]:
        return binding.index
    return binding.index - len(elements)


def _target_names(binding: Binding) -> list[str] | None:
    """The names of an unpacking without `*rest` (`B, T, C = ...` -> ["B", "T", "C"]; `_` kept as written)."""
    elements = binding.unpacking_elements()
    if elements is None or any(type(e) is cst.StarredElement for e in elements):
        return None
    names = []
    for element in elements:
        if type(element.value) is not cst.Name:
            return None
        names.append(element.value.value)
    return names


def _visible_scopes(ctx: Context):
    scope = ctx._scope
    while scope is not None:
        yield scope
        if scope.kind in ("function", "module"):
            break
        scope = scope.parent


_NOT_TENSORS = frozenset({"int", "float", "bool", "str", "bytes", "list", "tuple", "dict", "set", "None"})


def _may_be_tensor(ctx: Context, annotation: cst.BaseExpression) -> bool:
    """An annotation that rules out a tensor: `int`, `str`, `list[int]`, `Optional[int]`..."""
    if type(annotation) is cst.Name:
        return annotation.value not in _NOT_TENSORS
    if type(annotation) is cst.Subscript and type(annotation.value) is cst.Name:
        return annotation.value.value not in ("list", "tuple", "dict", "set", "List", "Tuple", "Dict", "Set")
    return True


def _row_count(shape: Shape) -> dict[str, int]:
    """How many rows a loop over a tensor or an array goes through, where its first dim is a literal: at least and
    at most that many (a comprehension over them makes as many elements)."""
    first = shape.size(0) if shape.variadic != 0 else None
    count = first.literal if first is not None else None
    return {"least": count, "most": count} if count is not None and count > 0 else {}
