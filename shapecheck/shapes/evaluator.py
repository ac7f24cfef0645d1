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

from collections.abc import Hashable, Sequence
from dataclasses import replace

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.context import Binding, Context, Scope, _latest
from shapecheck.engine.syntax import param_annotation
from shapecheck.shapes import conflicts, elementwise, indexing, ops, transposes
from shapecheck.shapes.annotations import annotation_shape
from shapecheck.shapes.values import Conflict
from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import MAX_RANK, Shape
from shapecheck.shapes.sizes import measured, size_attribute, size_call, size_sequence, size_subscript
from shapecheck.shapes.values import Items, Sizes, Value

_DEFINITE = frozenset({"param", "import", "def", "class"})
MAX_DEPTH = 64  # how far back one question may follow expressions and bindings
# Combinations of bindings tried when a view's names are bound differently on different paths: each is a fresh
# evaluation of everything the view reads, and long functions with many optional arguments (torch's own
# multi_head_attention_forward) would try every one of them for every view.
MAX_PATH_RUNS = 8


class Unknown(Exception):
    """Raised inside the evaluator to give up on a question; answered as None."""


class Evaluator:
    title = "shape analysis"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._memo: dict[tuple[str, int, int], object] = {}
        self._depth = 0
        # Values bound in another function (`self.n = n` in `__init__`, read in `forward`) are read with that
        # function's names (and the module's): this one's are not the ones meant.
        self._home: Scope | None = None
        self._loops = flow.LoopAssignments()
        self._homes: dict[int, Scope] = {}  # seq -> `_home_of(seq)`, while `ctx.closed_functions` holds as many
        self._homes_as_of = 0
        # id(class or function) -> the containers its code changes (`x.append(...)`), see `layers.module_of`
        self.mutated: dict[int, frozenset[str]] = {}
        # seq of a binding -> the path of its statement, where the names in its value are read
        self._points: dict[int, tuple[cst.CSTNode, ...]] = {}
        # names read where several bindings may reach, and the one to take when following a single path
        self._branches: list[tuple[tuple[int, ...], list[Binding]]] | None = None  # None: not recording
        self._forced: dict[tuple[int, ...], int] = {}
        self.errors: list[BaseException] = []  # crashes of the analysis itself, reported as SC999 by the linter

    # ---------------------------------------------------------------------------------------- public questions

    def shape_of(self, expr: cst.BaseExpression, before: int | None = None) -> Shape | None:
        value = self._ask("tensor", expr, before)
        return value if isinstance(value, Shape) else None

    def dim_of(self, expr: cst.BaseExpression, before: int | None = None) -> Dim | None:
        value = self._ask("size", expr, before)
        return value if isinstance(value, Dim) else None

    def sizes_of(self, expr: cst.BaseExpression, before: int | None = None) -> Shape | None:
        value = self._ask("sizes", expr, before)
        return value.shape if isinstance(value, Sizes) else None

    def items_of(self, expr: cst.BaseExpression, before: int | None = None) -> Items | None:
        value = self._ask("items", expr, before)
        return value if isinstance(value, Items) else None

    def conflict(self, node: cst.CSTNode) -> Conflict | None:
        key = ("conflict", id(node), self.now())
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        try:
            found = conflicts.find(self, node)
        except RecursionError:
            found = None
        except Exception as error:  # noqa: BLE001
            self.errors.append(error)
            found = None
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
                        if not self._compatible(chosen):
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

    def _compatible(self, bindings: list[Binding]) -> bool:
        """No two of the bindings sit in branches that exclude each other."""
        root = self.ctx._frame.node
        return not any(flow.reach(a.path, b.path, root) == "never" or flow.reach(b.path, a.path, root) == "never"
                       for i, a in enumerate(bindings) for b in bindings[i + 1:])

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
        """The memoized core: the value of `expr` read as a `want` ("tensor", "size", "sizes" or "items"), with
        names resolved as of `before`."""
        key = (want, id(expr), before, id(self._home))
        memo = self._memo
        if key in memo:
            return memo[key]
        if self._depth >= MAX_DEPTH:
            return None
        memo[key] = None  # a cycle gives up rather than recursing
        self._depth += 1
        try:
            value = _HANDLERS[want](self, expr, before)
        except Unknown:
            value = None
        finally:
            self._depth -= 1
        memo[key] = value
        return value

    def _typed(self, want: str, expr: cst.BaseExpression | None, before: int, kind: type):
        if expr is None:
            return None
        value = self.evaluate(want, expr, before)
        return value if isinstance(value, kind) else None

    def tensor(self, expr: cst.BaseExpression | None, before: int) -> Shape | None:
        return self._typed("tensor", expr, before, Shape)

    def size(self, expr: cst.BaseExpression | None, before: int) -> Dim | None:
        return self._typed("size", expr, before, Dim)

    def sizes(self, expr: cst.BaseExpression | None, before: int) -> Shape | None:
        value = self._typed("sizes", expr, before, Sizes)
        return value.shape if value is not None else None

    def items(self, expr: cst.BaseExpression | None, before: int) -> Items | None:
        return self._typed("items", expr, before, Items)

    def integer(self, expr: cst.BaseExpression | None, before: int) -> int | None:
        """An int the code states (`-1`, `2`, `N_DIMS` bound to a literal)."""
        dim = self.size(expr, before)
        return dim.literal if dim is not None else None

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
        return self._in_home(binding, lambda: self.evaluate(want, binding.value, binding.seq))

    def dim_in(self, expr: cst.BaseExpression, binding: Binding) -> Dim | None:
        """`expr`, an int-valued part of what `binding` bound (a layer's constructor argument), as a Dim."""
        return self._in_home(binding, lambda: self.size(expr, binding.seq))

    def _in_home(self, binding: Binding, read):
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

    def follow(self, expr: cst.BaseExpression, before: int, want: str) -> object:
        """The value a name holds, read as a `want`, when every binding that may reach the read is a plain
        assignment and they agree."""
        bindings = self.candidates(expr, before)
        if not bindings or any(binding.kind not in ("assign", "walrus") for binding in bindings):
            return None
        values = [self.value_of(binding, want) for binding in bindings]
        return values[0] if all(value == values[0] for value in values[1:]) else None

    def tensor_of_name(self, expr: cst.BaseExpression, before: int) -> Shape | None:
        bindings = self.candidates(expr, before)
        if not bindings:
            return None
        if len(bindings) > 1:
            key = tuple(id(binding) for binding in bindings)  # the same choice wherever the same bindings meet
            if key in self._forced:
                bindings = [bindings[self._forced[key]]]
            elif self._branches is not None:
                self._branches.append((key, bindings))
        shapes = [self._bound_tensor(binding, before) for binding in bindings]
        joined = shapes[0]
        for shape in shapes[1:]:
            joined = _join(joined, shape)
        return joined

    def _bound_tensor(self, binding: Binding, before: int) -> Shape | None:
        kind = binding.kind
        self._points[binding.seq] = binding.path
        if kind in ("assign", "walrus"):
            value = self.value_of(binding, "tensor")
            shape = value if isinstance(value, Shape) else None
            if shape is not None and shape.layout is not None and flow.under_layout_test(
                    binding.path, self.ctx._frame.node, self.ctx.code):
                shape = shape.without_layout()
        elif kind == "unpack":
            element = self.unpacked(binding)
            shape = element if isinstance(element, Shape) else None
        elif kind == "param":
            shape = self.parameter(binding)
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
        function = binding.statement
        if type(function) is cst.FunctionDef:
            annotation = param_annotation(function, binding.name)
            if annotation is not None:
                stated = annotation_shape(annotation, self.ctx.qualname, id(function))
                if stated is not None:
                    return stated
                if not _may_be_tensor(self.ctx, annotation):
                    return None
        return Shape.unknown_rank()

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
        items = self.items(value, binding.seq)
        if items is None:
            return None
        position = _unpack_position(binding)
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
        for scope in _visible_scopes(self.ctx):
            for candidate in scope.unpackings:
                if candidate.seq >= before:
                    break
                tensor = measured(candidate.value)
                if tensor is None or self.binding(tensor, candidate.seq) is not binding:
                    continue
                names = _target_names(candidate)
                if names is not None and (found is None or candidate.seq > found[0]):
                    found = (candidate.seq, names)
        result = (found[1], len(found[1])) if found is not None else None
        self._memo[key] = result  # type: ignore[assignment]
        return result

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
        if kind in ("import", "def", "class", "del"):
            return None
        found: Dim | None = None
        if kind in ("assign", "walrus"):
            value = self.value_of(binding, "size")
            found = value if isinstance(value, Dim) else None
        elif kind == "unpack" and not binding.starred and binding.value is not None:
            found = self._unpacked_size(binding)
        if found is not None:
            return _named(found, spelled)
        return Dim.symbol(("name", id(binding)), spelled, placeholder=True)

    def _unpacked_size(self, binding: Binding) -> Dim | None:
        value = binding.value
        assert value is not None
        if type(value) in (cst.Tuple, cst.List):
            elements = value.elements
            if any(type(e) is cst.StarredElement for e in elements) or binding.index is None \
                    or binding.index >= len(elements):
                return None
            return self.size(elements[binding.index].value, binding.seq)
        position = _unpack_position(binding)
        tensor = measured(value)
        if tensor is not None and position is not None:
            # as of just after the unpacking, so that the tensor's rank and dim names come from it
            self._points[binding.seq + 1] = binding.path
            return self.dim_of_tensor(tensor, position, binding.seq + 1)
        sizes = self.sizes(value, binding.seq)
        return sizes.size(position) if sizes is not None and position is not None else None

    def dim_of_tensor(self, tensor: cst.BaseExpression, index: int, before: int) -> Dim | None:
        """Dim `index` of a tensor expression: what its shape says, else a symbol for that dim of that tensor."""
        shape = self.tensor(tensor, before)
        if shape is None:
            return None
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


def evaluator(ctx: Context) -> Evaluator:
    """The file's shape evaluator, made on first use: files no shape rule asks about pay nothing."""
    return ctx.analysis(Evaluator)


def shape_of(ctx: Context, expr: cst.BaseExpression) -> Shape | None:
    """The shape of a tensor-valued expression as of the node being visited; None when unknown."""
    return ctx.analysis(Evaluator).shape_of(expr)


def shape_conflict(ctx: Context, node: cst.CSTNode) -> Conflict | None:
    """The shape error `node` certainly raises (matmul inner dims, cat/stack, broadcasting, view element counts, a
    layer's input size), with the shapes that prove it; None when nothing is proven."""
    return ctx.analysis(Evaluator).conflict(node)


# ------------------------------------------------------------------------------------------- the handlers


def _tensor(ev: Evaluator, expr: cst.BaseExpression, before: int) -> Shape | None:
    kind = type(expr)
    if kind is cst.Name:
        return ev.tensor_of_name(expr, before)
    if kind is cst.Attribute:
        if type(expr.value) is cst.Name and expr.value.value == "self":
            return ev.tensor_of_name(expr, before)
        return transposes.attribute(ev, expr, before)
    if kind is cst.Call:
        return ops.call(ev, expr, before)
    if kind is cst.BinaryOperation:
        return elementwise.binary(ev, expr, before)
    if kind is cst.Comparison:
        return elementwise.comparison(ev, expr, before)
    if kind is cst.UnaryOperation:
        return ev.tensor(expr.expression, before) if type(expr.operator) is not cst.Not else None
    if kind is cst.Subscript:
        return indexing.subscript(ev, expr, before)
    if kind is cst.IfExp:
        return _join(ev.tensor(expr.body, before), ev.tensor(expr.orelse, before))
    if kind is cst.NamedExpr:
        return ev.tensor(expr.value, before)
    return None


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
    if kind is cst.Attribute:
        return size_attribute(ev, expr, before)
    if kind is cst.Call:
        return size_call(ev, expr, before)
    if kind is cst.Subscript:
        return size_subscript(ev, expr, before)
    if kind is cst.NamedExpr:
        return ev.size(expr.value, before)
    return None


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
        result = Dim.of(1)
        for _ in range(exponent):
            result = result * left
        return result
    apply = _ARITHMETIC.get(operator)
    right = ev.size(expr.right, before)
    if apply is None or right is None:
        return None
    if operator in (cst.FloorDivide, cst.Divide, cst.Modulo) and right.literal == 0:
        return None
    return apply(left, right)


def _sizes(ev: Evaluator, expr: cst.BaseExpression, before: int) -> Sizes | None:
    shape = size_sequence(ev, expr, before)
    return Sizes(shape) if shape is not None else None


def _items(ev: Evaluator, expr: cst.BaseExpression, before: int) -> Items | None:
    return ops.items(ev, expr, before)


_HANDLERS = {"tensor": _tensor, "size": _size, "sizes": _sizes, "items": _items}


# ----------------------------------------------------------------------------------------------- helpers


def _join(a: Shape | None, b: Shape | None) -> Shape | None:
    """What two branches agree on: the same dims, with layout and dtype kept only where they agree too."""
    if a is None or b is None or a.dims != b.dims or a.variadic != b.variadic:
        return None
    return Shape(a.dims, a.variadic, a.variadic_name, a.layout if a.layout == b.layout else None,
                 a.dtype if a.dtype == b.dtype else None)


def _named(dim: Dim, name: str) -> Dim:
    """A dim of a tensor that the code never named, renamed after the name the code binds it to."""
    if len(dim.terms) == 1 and dim.terms[0][1] == 1 and len(dim.terms[0][0]) == 1:
        atom = dim.terms[0][0][0]
        if atom.placeholder:
            return Dim.symbol(atom.key, name)
    return dim


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
