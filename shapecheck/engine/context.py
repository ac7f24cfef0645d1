"""The bindings-and-flow floor of the engine: imports, local bindings, enclosing scopes and loops, grad mode and
call sites, which every analysis above it and every rule reads.

It is filled in by the engine's single traversal (`shapecheck.engine.traversal`), so at any node a rule sees the state
of the file *as of that point in the source*: the latest binding of a name before the node, the loops and `with
torch.no_grad()` blocks around it. Facts about the whole file (call sites, function definitions) are complete only
in a rule's `finish()`.

The analyses of the floors above (objects and calls, shapes, training loops) hang off the context through
`analysis(kind)`, one instance per file, so this module never imports them: the floors only look down.
"""

from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import field
from typing import Any, Literal, TypeVar

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.flow import Reach
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk_statements, walked

A = TypeVar("A")
F = TypeVar("F")
R = TypeVar("R")

BindingKind = Literal[
    "assign", "unpack", "for", "with", "param", "import", "aug", "def", "class", "except", "walrus", "del", "comp"
]

# Frameworks whose arrays share method names with torch tensors (`.view`, `.transpose`, `.numpy`, `.softmax`).
FOREIGN_FRAMEWORKS = frozenset(
    {"numpy", "mxnet", "tensorflow", "jax", "jaxlib", "scipy", "cupy", "pandas", "cv2", "paddle", "keras", "mlx",
     "mindspore", "oneflow", "dask", "xarray", "sklearn"}
)

# Names a star import brings with torch in the scripts that rely on one (`from utils import *` where utils does
# `import torch`, `import torch.nn as nn`): bound as those imports in torch code without an import of its own (see
# `shapecheck.engine.torch_code`); the file's own bindings of these names come later and win.
_BUILTINS = frozenset(dir(builtins))
_STAR_IMPORTED_TORCH = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional", "optim": "torch.optim"}

_NO_GRAD = frozenset(
    {"torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad", "torch.inference_mode",
     "torch.autograd.inference_mode", "torch.autograd.grad_mode.inference_mode"}
)
_ENABLE_GRAD = frozenset({"torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad"})
# Context managers that do nothing, which a shim returns where an older torch has no `no_grad`.
_NO_OP_MANAGERS = frozenset({"contextlib.suppress", "contextlib.nullcontext", "contextlib.ExitStack"})
_SET_GRAD_ENABLED = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                               "torch.autograd.grad_mode.set_grad_enabled"})


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Binding:
    """One binding of a name: what it was bound to, how, and where.

    `value` is the bound expression where there is one: the right-hand side of an assignment or unpacking, the
    iterable of a `for`, the context expression of `with ... as`, a parameter's default. `index` is the position of
    the name in an unpacking target (`B, T, C = x.shape` gives C index 2), `starred` marks `*rest`.
    """

    name: str
    kind: BindingKind
    value: cst.BaseExpression | None
    statement: cst.CSTNode
    seq: int
    index: int | None = None
    starred: bool = False
    qualname: str | None = None  # for imports: the dotted name bound
    loop: cst.CSTNode | None = None  # innermost loop around the binding, within its function
    path: tuple[cst.CSTNode, ...] = ()  # from the module down to `statement`: what `engine.flow` reasons on

    def unpacking_elements(self) -> tuple[cst.BaseElement, ...] | None:
        """The elements of the unpacking target that bound this name (`B, T, C = x.shape` gives the three, `for x,
        y in loader:` the two); None when the name was not bound by unpacking in an assignment or a loop."""
        statement = self.statement
        if self.index is None:
            return None
        if type(statement) is cst.For or type(statement) is cst.CompFor:  # `for x, y in loader:`
            targets = [statement.target]
        elif type(statement) is cst.Assign:
            targets = [target.target for target in statement.targets]
        else:
            return None
        for target in targets:
            elements = getattr(target, "elements", None)
            if elements is None or self.index >= len(elements):
                continue
            inner = elements[self.index].value
            if type(inner) is cst.Name and inner.value == self.name:
                return tuple(elements)
        return None

    def paired_value(self) -> cst.BaseExpression | None:
        """The element of a literal tuple or list of the same length that an unpacking binds this name to (`opt_g,
        opt_d = Adam(G.parameters()), Adam(D.parameters())` gives opt_d the second); None otherwise."""
        if self.starred or self.index is None or self.value is None:
            return None
        targets = self.unpacking_elements()
        return paired(targets, self.value)[self.index] if targets is not None else None


def paired(targets: Sequence[cst.BaseElement], value: cst.BaseExpression) -> list[cst.BaseExpression | None]:
    """What each target of an unpacking is bound to when the value is a literal tuple or list of as many elements
    and neither side is starred; Nones otherwise."""
    if type(value) not in (cst.Tuple, cst.List) or len(value.elements) != len(targets) \
            or any(type(e) is cst.StarredElement for e in (*targets, *value.elements)):  # type: ignore[attr-defined]
        return [None] * len(targets)
    return [element.value for element in value.elements]  # type: ignore[attr-defined]


@record(slots=True, unsafe_hash=True)
class CallSite:
    node: cst.Call
    grad_disabled: bool
    function: cst.FunctionDef | None
    loop: cst.CSTNode | None
    order: int = 0  # position among the file's calls, in source order
    seq: int = 0  # the bindings made before the call (`Binding.seq` up to this): which definition a name reaches


@record(slots=True)
class Scope:
    kind: Literal["module", "function", "class", "lambda", "comprehension"]
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    # the first name of each unpacking (`B, T, C = x.shape` gives B's binding), in source order
    unpackings: list[Binding] = field(default_factory=list)
    # Only function frames own these; other scopes share their function's.
    loops: list[cst.CSTNode] = field(default_factory=list)
    grad: list[bool | None] = field(default_factory=list)  # True: disabled, False: enabled on purpose, None: unknown
    start: int = 0  # the seq when the scope was entered: its bindings have higher ones


@record(slots=True, unsafe_hash=True)
class Point:
    """Where the traversal was, kept to read names there later (`Context.at`): the scope, the enclosing classes and
    functions, and how far the bindings went (bindings from `seq` on are not seen)."""

    scope: Scope
    seq: int
    classes: tuple[cst.ClassDef, ...]
    functions: tuple[cst.FunctionDef, ...]


class Context:
    """Per-file analysis state shared by all rules. Rules read it; only the engine writes it."""

    def __init__(self, module: cst.Module, filename: str, implicit_torch: bool = False) -> None:
        self.module = module
        self.filename = filename
        self.ancestors: list[cst.CSTNode] = []
        # What the rules report (`engine.rule.Report`), kept for the linter and the editor server: a floor below the
        # rules holds them without knowing their type.
        self.reports: list[Any] = []
        self.functions: dict[str, list[cst.FunctionDef]] = {}
        self.class_defs: list[cst.ClassDef] = []  # every class of the file, in source order, once the traversal is done
        self.calls: dict[str, list[CallSite]] = {}
        self._seq = 0
        self._scope = Scope("module", module, None)
        self._frame = self._scope  # innermost function (or module) scope: owns loops and grad mode
        self._classes: list[cst.ClassDef] = []
        self._functions: list[cst.FunctionDef] = []
        self._attributes: dict[tuple[int, str], list[Binding]] = {}  # (id(class), attr) -> bindings of self.attr
        # id(method) -> the class whose body defines it, for the methods met so far: a fact of the function itself,
        # unlike `class_defs` (which grows with the file)
        self._method_classes: dict[int, cst.ClassDef] = {}
        self.imports_torch = False
        # the torch module of the file's `from torch.nn import *`; "" after star imports of two modules
        self._star_module: str | None = None
        self._order = 0  # calls seen so far: `CallSite.order` and `Event.order`
        self._analyses: dict[type, object] = {}  # the floors above, one instance each: see `analysis`
        self._bound_at: dict[int, int] = {}  # id(statement) -> the seq of its first binding
        self._branched: set[int] = set()  # the seqs of the bindings made in a branch (`flow.branched`)
        self._code: dict[int, str] = {}  # id(node) -> its source
        # id(node) -> (the point it was asked at, its qualname)
        self._qualnames: dict[int, tuple[tuple[int, Scope, int | None], str | None]] = {}
        self._cap: int | None = None  # under `at()`: bindings from this seq on are not seen yet
        self._facts: dict[str, frozenset] = {}  # see `module_fact`
        self._walked: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}  # id(node) -> it and its walk
        if implicit_torch:  # torch training code that gets torch from a star import, or only as objects
            self.imports_torch = True
            for name, qualname in _STAR_IMPORTED_TORCH.items():
                self._bind(name, "import", None, module, qualname=qualname)
        # (first seq, last seq, scope) of each function already left: where a value bound in `__init__` (read in
        # `forward` through `self.x`) finds the names it was written with
        self.closed_functions: list[tuple[int, int, Scope]] = []
        self._closed: dict[int, tuple[int, int, Scope]] = {}  # id(function node) -> its entry there
        # id(node) -> the innermost of the first `_within_indexed` closed functions whose walk holds it (`point_within`)
        self._within: dict[int, tuple[int, int, Scope]] = {}
        self._within_indexed = 0
        # which names each loop body binds, for `reaching`: a memo of the nodes alone (the editor server's
        # checkpoints leave it out, as the other memos)
        self._loop_assignments = flow.LoopAssignments()

    def release(self) -> None:
        """Let go of the analysis once the findings are out. Rules, this context and the shape and loop analyses
        refer to one another, so without this the file's whole tree waits for a full garbage collection to be
        freed (the editor server's keystrokes paid for those); after it, reference counting frees it at once."""
        for analysis in self._analyses.values():
            release = getattr(analysis, "release", None)
            if release is not None:
                release()
        self.__dict__.clear()

    # ----------------------------------------------------------------------------------------------- where are we

    @property
    def parent(self) -> cst.CSTNode | None:
        """The parent of the node being visited."""
        return self.ancestors[-2] if len(self.ancestors) > 1 else None

    @property
    def function(self) -> cst.FunctionDef | None:
        return self._functions[-1] if self._functions else None

    def class_of_method(self, function: cst.FunctionDef) -> cst.ClassDef | None:
        """The class whose body defines `function`, if the traversal has met it; None for a plain function."""
        return self._method_classes.get(id(function))

    @property
    def class_def(self) -> cst.ClassDef | None:
        return self._classes[-1] if self._classes else None

    @property
    def loop(self) -> cst.CSTNode | None:
        """The innermost `for`/`while` around the node within the same function (comprehensions don't count)."""
        loops = self._frame.loops
        return loops[-1] if loops else None

    @property
    def loops(self) -> tuple[cst.CSTNode, ...]:
        return tuple(self._frame.loops)

    @property
    def grad_disabled(self) -> bool:
        """Under `with torch.no_grad()` / `inference_mode()` / `set_grad_enabled(False)` or in a function
        decorated with `@torch.no_grad()` / `@torch.inference_mode()`, with no `enable_grad()` closer in; or at the
        module's top level where the module switches autograd off for the process (`torch.set_grad_enabled(False)`
        as a statement of its own) and never back on: a notebook that analyses a trained model does this in its first
        cell. The code above the switch is taken as under it too (it runs with autograd on: a finding missed there,
        never one made)."""
        frame = self._frame
        grad = frame.grad
        if grad:
            return grad[-1] is True
        return frame.kind == "module" and self.module_fact("grad switched for the process", _grad_switches) == {True}

    @property
    def grad_enabled_explicitly(self) -> bool:
        """Under `with torch.enable_grad()` / `set_grad_enabled(True)` or in a function decorated so."""
        grad = self._frame.grad
        return bool(grad) and grad[-1] is False

    # ------------------------------------------------------------------------------------------------ names

    def qualname(self, expr: cst.CSTNode) -> str | None:
        """The dotted name `expr` refers to through imports: `F.softmax` -> "torch.nn.functional.softmax",
        `th.cat` -> "torch.cat", `nn.functional.softmax` -> "torch.nn.functional.softmax". None when the root name
        is not bound by an import at this point (locals, parameters, `self.x`, calls)."""
        # Every rule with a `visit_Call` asks this of the same callee at the same point: answer once per point.
        point = (self._seq, self._scope, self._cap)
        memo = self._qualnames.get(id(expr))
        if memo is not None and memo[0] == point:
            return memo[1]
        found = self._qualname(expr)
        self._qualnames[id(expr)] = (point, found)
        return found

    def _qualname(self, expr: cst.CSTNode) -> str | None:
        parts: list[str] = []
        while type(expr) is cst.Attribute:
            parts.append(expr.attr.value)
            expr = expr.value
        if type(expr) is not cst.Name:
            return None
        binding = self.binding(expr.value)
        if binding is None:
            qualname = self.star_imported(expr.value)
            if qualname is None:
                return None
        elif binding.kind != "import" or binding.qualname is None:
            return None
        else:
            qualname = binding.qualname
        if not parts:
            return qualname
        parts.append(qualname)
        return ".".join(reversed(parts))

    def _star_imported(self, module: str) -> None:
        """`from torch.nn import *`: names nothing binds are that module's; which module's is unknown after two."""
        self._star_module = module if self._star_module in (None, module) else ""

    def star_imported(self, name: str) -> str | None:
        """The qualname of a name that nothing binds, not a builtin, after the file's one `from torch... import *`
        (`Linear` -> "torch.nn.Linear"); None without one."""
        if not self._star_module or name in _BUILTINS:
            return None
        return f"{self._star_module}.{name}"

    def binding(self, name: str | cst.CSTNode, before: int | None = None) -> Binding | None:
        """The latest binding of a name (or of `self.attr` inside a class) made before `before` (a `Binding.seq`;
        default: now) that can reach the read: read at the node being visited, a binding made in the other branch
        of an `if`, `match` or `try` around it is never the value seen and is passed over (the `if` branch's `x = ...`
        read in the `else`). Elsewhere (a rule's `finish()`, under `at()`, as of an earlier binding) the latest in
        source order. Whether the binding is certainly the value seen: `reach`; every binding that may be:
        `reaching`."""
        read = self._read_path(before)
        found = self._bindings_of(name, before)
        if found is None:
            return None
        bindings, before = found
        if read is not None:  # pass over what the other branch bound
            branched = self._branched
            for binding in reversed(bindings):
                if binding.seq not in branched or flow.reach(binding.path, read) != "never":
                    return binding
            return None
        return _latest(bindings, before)

    def reaching(self, name: str | cst.CSTNode, before: int | None = None, at: Binding | None = None
                 ) -> tuple[Binding, ...] | None:
        """Every binding of a name (or `self.attr`) that may be the value read at the node being visited, or in the
        value `at` binds (as of it: `train_loader = DataLoader(ds, sampler=train_sampler)` reads `train_sampler`
        there), latest first: one where it is certain, the branches' bindings where it depends on the path (`if c:
        x = a` / `else: x = b`, or `x = a` and `if c: x = b` before the read); None where a loop around the read
        binds the name again after it (the next iteration reads that value too) or more than a few may reach.
        Elsewhere (see `binding`) the latest in source order alone; () when the name is bound nowhere before."""
        if at is not None:
            return self._reaching(name, at.seq, at.path)
        read = self._read_path(before)
        if read is None:
            binding = self.binding(name, before)
            return (binding,) if binding is not None else ()
        return self._reaching(name, before, read)

    def _reaching(self, name: str | cst.CSTNode, before: int | None, read: Sequence[cst.CSTNode],
                  loops: bool = True) -> tuple[Binding, ...] | None:
        """`reaching` of a read at `read`; with `loops` False, without asking whether a loop carries another value
        into it (`_rebound_in_loop`)."""
        if loops and self._rebound_in_loop(name, read, before):
            return None
        found = self._bindings_of(name, before)
        if found is None:
            return ()
        bindings, before = found
        reaching: list[Binding] = []
        for binding in reversed(bindings):
            if binding.seq >= before:
                continue
            verdict = flow.reach(binding.path, read)
            if verdict == "never":
                continue
            reaching.append(binding)
            if verdict == "always":
                return tuple(reaching)
            if len(reaching) == _MAX_REACHING:
                return None
        return tuple(reaching)

    def _rebound_in_loop(self, name: str | cst.CSTNode, read: Sequence[cst.CSTNode], before: int | None) -> bool:
        """A loop around `read` binds the name again after it: the next iteration reads that value."""
        if before is None:
            before = self._seq + 1
        key = name if type(name) is str else name.value if type(name) is cst.Name else dotted_name(name)
        root = next((node for node in reversed(read) if type(node) is cst.FunctionDef), self.module)
        return key is not None and self._loop_assignments.rebound(
            key, read, root, lambda statement: self.bound_before(statement, before))

    def _bindings_of(self, name: str | cst.CSTNode, before: int | None) -> tuple[list[Binding], int] | None:
        """The bindings, in source order, of the innermost scope (or class) binding the name before `before`, and
        the `before` to read them with (a bound that every binding so far is under, for "now")."""
        if before is None:
            before = self._cap if self._cap is not None else self._seq + 1
        if type(name) is not str:
            if type(name) is cst.Name:
                name = name.value
            elif type(name) is cst.Attribute:
                if type(name.value) is not cst.Name or name.value.value != "self" or not self._classes:
                    return None
                found = self._attributes.get((id(self._classes[-1]), name.attr.value))
                return (found, before) if found and found[0].seq < before else None
            else:
                return None
        scope: Scope | None = self._scope
        first = True
        while scope is not None:
            if first or scope.kind != "class":  # class bodies are not visible from the methods inside them
                found = scope.bindings.get(name)
                if found and found[0].seq < before:
                    return found, before
            first = False
            scope = scope.parent
        return None

    def _read_path(self, before: int | None) -> Sequence[cst.CSTNode] | None:
        """The path of the read when it is at the node being visited (as of now, not under `at()`); None when the
        read is elsewhere."""
        if self._cap is not None or before is not None and before <= self._seq or not self.ancestors:
            return None
        return self.ancestors

    def attribute_bindings(self, node: cst.Attribute) -> tuple[Binding, ...]:
        """Every binding of `self.attr` in the methods of the class being visited, in source order: which of them a
        method sees depends on the order the methods run in, which source order does not say."""
        if type(node.value) is not cst.Name or node.value.value != "self" or not self._classes:
            return ()
        return tuple(self._attributes.get((id(self._classes[-1]), node.attr.value), ()))

    def point_of(self, binding: Binding) -> Point | None:
        """Where the names in `binding`'s value are read (for `Context.at`): its function's scope, classes and
        functions, before the binding; None while that function is still being visited."""
        classes = tuple(node for node in binding.path if type(node) is cst.ClassDef)
        functions = tuple(node for node in binding.path if type(node) is cst.FunctionDef)
        if not functions:
            return Point(self._module_scope(), binding.seq, classes, ())
        closed = self._closed.get(id(functions[-1]))
        return Point(closed[2], binding.seq, classes, functions) if closed is not None else None

    def value_of(self, expr: cst.BaseExpression, before: int | None = None) -> tuple[cst.BaseExpression, int | None]:
        """Follow a local name (or `self.attr`) to the expression it was assigned, through chains of plain
        assignments. Returns the expression and the `seq` to resolve names inside it with (None: now). Read at the
        node being visited, a name is followed only where the bindings that may reach the read agree (one, or
        branches that assign the same code): bound differently on two paths, or again later in a loop around the
        read, it is not followed, and the name itself comes back."""
        read = self._read_path(before)
        for _ in range(8):  # a chain of aliases is short; a cycle (x = y; y = x in a loop) must not hang
            if type(expr) is not cst.Name and type(expr) is not cst.Attribute:
                break
            if read is None:
                binding = self.binding(expr, before)
                if binding is not None and self._other_branch_binds(expr, binding, before):
                    break
            else:
                reaching = self._reaching(expr, before, read, loops=False)
                binding = reaching[0] if reaching and self._agree(reaching) else None
            bound = None if binding is None else binding.value if binding.kind == "assign" else \
                binding.paired_value() if binding.kind == "unpack" else None
            # a loop's rebinding is looked for last: most names are not followed (parameters, imports)
            if bound is None or read is not None and self._rebound_in_loop(expr, read, before):
                break
            expr, before, read = bound, binding.seq, binding.path  # type: ignore[union-attr]
        return expr, before

    def receiver_value_of(self, expr: cst.BaseExpression) -> tuple[cst.BaseExpression, int | None]:
        """`value_of` a name whose attribute the node visited reads (`scheduler.step()`): a binding to `None` is
        never what it holds there (that read would raise), so of the bindings that may reach, those are passed over
        (`scheduler = None` / `if args.sched: scheduler = CycleScheduler(opt)`)."""
        read = self._read_path(None)
        if read is None or type(expr) is not cst.Name:
            return self.value_of(expr)
        reaching = self._reaching(expr, None, read)
        if not reaching:
            return self.value_of(expr)
        held = tuple(binding for binding in reaching if not (
            binding.kind == "assign" and type(binding.value) is cst.Name and binding.value.value == "None"))
        if not held or len(held) == len(reaching) or not self._agree(held) or held[0].kind != "assign":
            return self.value_of(expr)
        return self.value_of(held[0].value, held[0].seq)  # type: ignore[arg-type]

    def _other_branch_binds(self, name: cst.Name | cst.Attribute, latest: Binding, before: int | None) -> bool:
        """Read away from the node being visited, the latest binding in source order is not the value when the
        other branch of its `if` binds the name to something else (`if args.loss == "bce": criterion = BCELoss()` /
        `else: criterion = BCEWithLogitsLoss()`, read at the call after it): either may be, so neither is."""
        if latest.seq not in self._branched or not latest.path:
            return False
        found = self._bindings_of(name, before)
        return found is not None and any(
            other is not latest and other.seq < latest.seq and other.seq in self._branched
            and other.path and flow.reach(other.path, latest.path) == "never"
            and not self._agree((latest, other)) for other in found[0])

    def _agree(self, bindings: tuple[Binding, ...]) -> bool:
        """The bindings that may reach a read bind the same thing: one, or plain assignments of the same code."""
        first = bindings[0]
        return len(bindings) == 1 or first.kind == "assign" and first.value is not None and all(
            other.kind == "assign" and other.value is not None
            and self.code(other.value) == self.code(first.value) for other in bindings[1:])

    def aliased_names(self, names: Collection[str], within: cst.CSTNode, function: cst.FunctionDef | None
                      ) -> set[str]:
        """The plain names that plain assignments in `within` (a loop or a block of `function`, or `function`
        itself; None: of the module) bind one of `names` to: `losses` for `loss = losses`, the same object under
        another name. From the bindings of `function`'s scope, once the traversal has left it (a rule's `finish`),
        so an assignment in a function defined inside `within` is not one."""
        if function is None:
            scope = self._module_scope()
        else:
            closed = self._closed.get(id(function))
            if closed is None:
                return set()
            scope = closed[2]
        return {binding.value.value for name in names for binding in scope.bindings.get(name, ())  # type: ignore
                if binding.kind == "assign" and type(binding.value) is cst.Name
                and type(statement := binding.statement) is cst.Assign
                and len(statement.targets) == 1 and any(node is within for node in binding.path)}

    def reach(self, binding: Binding) -> Reach:
        """Whether `binding` (found by `binding()`) is certainly the value seen at the node being visited: "never"
        when it was made in another branch of an `if`/`match` (bound in the `if` body, read in the `else`), "maybe"
        when it was made under a condition, a loop or a `try` that the node is not in, or when a loop around the
        node binds the name again after it (the next iteration reads that value), "always" otherwise."""
        verdict = flow.reach(binding.path, self.ancestors)
        if verdict == "always" and self.ancestors:
            root = self._frame.node
            if self._loop_assignments.rebound(binding.name, self.ancestors, root,
                                             lambda statement: self.bound_before(statement, self._seq + 1)):
                return "maybe"
        return verdict

    def bound_before(self, statement: cst.CSTNode, before: int) -> bool:
        """Whether the engine had made the bindings of `statement` before `before` (a `Binding.seq`)."""
        seq = self._bound_at.get(id(statement))
        return seq is not None and seq < before

    def framework_of(self, expr: cst.BaseExpression, before: int | None = None) -> str | None:
        """The top-level module an expression's value comes from, following method chains, calls, subscripts and
        local names back to an import: `np.random.randn(3).T` -> "numpy", `x.view(-1)` with `x = torch.ones(3)` ->
        "torch". None when it can't be told."""
        for _ in range(32):
            kind = type(expr)
            if kind is cst.Call:
                expr = expr.func
            elif kind is cst.Subscript:
                expr = expr.value
            elif kind is cst.Attribute:
                qualname = self.qualname(expr)
                if qualname is not None:
                    return qualname.split(".", 1)[0]
                expr = expr.value
            elif kind is cst.Name:
                binding = self.binding(expr, before)
                if binding is None:
                    return None
                if binding.kind == "import":
                    return binding.qualname.split(".", 1)[0] if binding.qualname else None
                if binding.value is None or binding.kind not in ("assign", "walrus"):
                    return None
                expr, before = binding.value, binding.seq
            else:
                return None
        return None

    def is_foreign(self, expr: cst.BaseExpression) -> bool:
        """The expression's value certainly comes from numpy, TensorFlow, JAX, MXNet, SciPy or another framework
        whose arrays have torch-like methods: torch rules must stay quiet about it."""
        return self.framework_of(expr) in FOREIGN_FRAMEWORKS

    def spelling(self, qualname: str) -> str | None:
        """How this file can spell a dotted name with the imports it has: "torch.nn.functional.log_softmax" ->
        "F.log_softmax" under `import torch.nn.functional as F`, or "torch.nn.functional.log_softmax" under
        `import torch`. None when no import reaches it."""
        best: str | None = None
        for name, bindings in self._module_scope().bindings.items():
            binding = bindings[-1]
            if binding.kind != "import" or not binding.qualname:
                continue
            target = binding.qualname
            if qualname == target or qualname.startswith(target + "."):
                candidate = name + qualname[len(target):]
                if best is None or len(candidate) < len(best):
                    best = candidate
        return best

    def _module_scope(self) -> Scope:
        scope = self._scope
        while scope.parent is not None:
            scope = scope.parent
        return scope

    # ------------------------------------------------------------------------------------- the floors above

    def analysis(self, kind: type[A]) -> A:
        """The file's instance of an analysis of a floor above this one (the shape evaluator, the training-loop
        record), made with `kind(self)` on first use: files nothing asks about pay nothing, and this module never
        imports them."""
        found = self._analyses.get(kind)
        if found is None:
            found = self._analyses[kind] = kind(self)
        return found  # type: ignore[return-value]

    def analyses(self) -> list[object]:
        """The analyses made so far."""
        return list(self._analyses.values())

    @contextmanager
    def replaced(self, kind: type[A], instance: A) -> Iterator[None]:
        """`analysis(kind)` answers `instance` for the duration (a model run's own evaluator)."""
        saved = self._analyses.get(kind)
        self._analyses[kind] = instance
        try:
            yield
        finally:
            if saved is None:
                self._analyses.pop(kind, None)
            else:
                self._analyses[kind] = saved

    def point(self) -> Point:
        """Where the traversal is now, to read names here later with `at`."""
        return Point(self._scope, self._seq + 1, tuple(self._classes), tuple(self._functions))

    def point_within(self, node: cst.CSTNode) -> Point | None:
        """Where the names of `node` are read when it lies in a function the traversal has already left (code a
        run of a call looked into, while the traversal is at the call): the end of the innermost such function,
        so its locals resolve to their last bindings there; None when `node` is in no function left so far."""
        # An index made once a lint, as functions close: asked at every call of a rule's `finish`, a walk of every
        # function each time was most of an edit's CPU.
        within = self._within
        for entry in self.closed_functions[self._within_indexed:]:
            start = entry[0]
            for found in self.walk(entry[2].node):
                known = within.get(id(found))
                if known is None or start > known[0]:
                    within[id(found)] = entry
        self._within_indexed = len(self.closed_functions)
        return self._end_of(within.get(id(node)))

    def point_after(self, function: cst.FunctionDef) -> Point | None:
        """`point_within` of a node whose innermost function is `function` (a call site's), without looking for
        it: the end of `function`, or None while the traversal has not left it."""
        return self._end_of(self._closed.get(id(function)))

    def _end_of(self, closed: tuple[int, int, Scope] | None) -> Point | None:
        if closed is None:
            return None
        _, end, scope = closed
        function = scope.node
        assert type(function) is cst.FunctionDef
        owner = self.class_of_method(function)
        return Point(scope, end + 1, (owner,) if owner is not None else (), (function,))

    def module_point(self) -> Point:
        """Module-level code as far as the traversal went, wherever `at` has put the context: module-level calls
        of a helper are read there while a rule looks at the helper's body."""
        return Point(self._module_scope(), self._seq + 1, (), ())

    @contextmanager
    def at(self, point: Point) -> Iterator[None]:
        """Resolve names as they were at `point`: its scope, class and function, its bindings."""
        saved = self._scope, self._classes, self._functions, self._cap
        self._scope, self._cap = point.scope, point.seq
        self._classes, self._functions = list(point.classes), list(point.functions)
        try:
            yield
        finally:
            self._scope, self._classes, self._functions, self._cap = saved

    # --------------------------------------------------------------------------------------------- whole file

    @property
    def minimum_torch(self) -> tuple[int, int] | None:
        """The lowest torch version (major, minor) the project around this file requires in its packaging files,
        or None when none says (see `shapecheck.engine.torch_requirement`)."""
        from shapecheck.engine.torch_requirement import minimum_torch  # SC501's alone: the other lints do without

        return minimum_torch(self.filename)

    def calls_to(self, name: str) -> list[CallSite]:
        """Call sites of a function or method by its last name (`f(...)`, `self.f(...)`, `obj.f(...)`). Complete
        in `finish()`."""
        return self.calls.get(name, [])

    def calls_of(self, function: cst.FunctionDef) -> list[CallSite]:
        """Call sites of `function`, by its name as `calls_to` finds them, less the module-level `f(...)` calls where
        `f` names another binding: a notebook that redefines `validate` calls each definition in turn. Complete in
        `finish()`."""
        name = function.name.value
        sites = []
        for site in self.calls_to(name):
            if site.function is None and type(site.node.func) is cst.Name:
                with self.at(self.module_point()):
                    binding = self.binding(name, before=site.seq + 1)
                if binding is not None and binding.statement is not function:
                    continue
            sites.append(site)
        return sites

    def walk(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        """`node` and its descendants, for a rule that must look inside a subtree on its own (e.g. a helper
        function's body in `finish()`). Rules and analyses walk the same bodies again at every call they look at,
        and nodes never change, so each node's walk is made once."""
        found = self._walked.get(id(node))
        if found is None:
            found = self._walked[id(node)] = (node, walked(node))  # the node, so its id stays its own
        return iter(found[1])

    def functions_by_name(self) -> dict[str, cst.FunctionDef]:
        """The functions the file defines at module level, by name (the last definition of a name wins), and those
        defined inside them under a name no other function of the file has (a notebook's `train` and `test` inside
        `run()`), wherever in the module they are: for an analysis that follows a call into the file's functions
        by name (the objects floor). Look names up; do not iterate: the editor server notes each name looked up,
        and analyses a statement again when a definition of a name it looked up changes, not after every edit."""
        return functions_by_name(map(defined_functions, self.module.body))

    def module_fact(self, kind: str, of_statement: Callable[[cst.CSTNode], frozenset[F]]) -> frozenset[F]:
        """A fact of the whole module that is the union of its top-level statements' parts: `of_statement` gives a
        statement's part (the names something in it changes in place, the tests of its `if`s); `kind` names the fact
        and is always asked with the same `of_statement`, which reads the statement alone (never this context: the
        editor server calls it for an edited statement after the lint that first asked is over). Ask this rather
        than walk the whole module: the editor server keeps each statement's part between edits, and analyses again
        what read the fact only when the union changes."""
        found = self._facts.get(kind)
        if found is None:
            found = self._facts[kind] = frozenset().union(*map(of_statement, self.module.body))
        return found

    def finish_part(self, key: tuple[object, ...], given: tuple[object, ...], work: Callable[[], R]) -> R:
        """`work()`: a part of a rule's `finish` whose result and reports depend only on `given` (compared with `==`,
        which compares nodes by identity) and on what it reads of the module through this context (names,
        functions, unpackings, module facts, as a statement-scope rule's visits read them). `work` changes nothing
        but the reports it makes; `key` (the rule's code first) names the part. The editor server keeps the result
        and the reports between edits and hands them back without running `work` while `given` is the same and the
        reads find the same statements."""
        return work()

    def code(self, node: cst.CSTNode) -> str:
        """The node's source. Nodes never change, and rules and the shape analysis spell the same ones again and
        again (a layer's constructor in every message about it), so each is generated once."""
        code = self._code.get(id(node))
        if code is None:
            code = self._code[id(node)] = self.module.code_for_node(node)
        return code

    # ------------------------------------------------------------------------------------- engine-only writers

    def _bind(self, name: str, kind: BindingKind, value: cst.BaseExpression | None, statement: cst.CSTNode,
              index: int | None = None, starred: bool = False, qualname: str | None = None,
              scope: Scope | None = None) -> None:
        binding = self._new_binding(name, kind, value, statement, index, starred, qualname)
        scope = scope or self._scope
        scope.bindings.setdefault(name, []).append(binding)
        if index == 0 and kind == "unpack":
            scope.unpackings.append(binding)

    def _bind_target(self, target: cst.BaseExpression, kind: BindingKind, value: cst.BaseExpression | None,
                     statement: cst.CSTNode) -> None:
        target_type = type(target)
        if target_type is cst.Name:
            self._bind(target.value, kind, value, statement)
        elif target_type is cst.Tuple or target_type is cst.List:
            unpack_kind: BindingKind = "unpack" if kind == "assign" else kind
            # `self.opt_g, self.opt_d = Adam(...), Adam(...)`: an attribute is bound to its own element
            pairs = paired(target.elements, value) if value is not None and kind == "assign" else None
            for index, element in enumerate(target.elements):
                inner = element.value
                if type(element) is cst.StarredElement and type(inner) is cst.Name:
                    self._bind(inner.value, unpack_kind, value, statement, index, True)
                elif type(inner) is cst.Name:
                    self._bind(inner.value, unpack_kind, value, statement, index)
                else:
                    self._bind_target(inner, kind, pairs[index] if pairs else None, statement)
        elif target_type is cst.Attribute and self._classes:
            if type(target.value) is cst.Name and target.value.value == "self":
                key = (id(self._classes[-1]), target.attr.value)
                binding = self._new_binding("self." + target.attr.value, kind, value, statement)
                self._attributes.setdefault(key, []).append(binding)
        elif target_type is cst.StarredElement:
            self._bind_target(target.value, kind, None, statement)

    def _new_binding(self, name: str, kind: BindingKind, value: cst.BaseExpression | None, statement: cst.CSTNode,
                     index: int | None = None, starred: bool = False, qualname: str | None = None) -> Binding:
        """The next binding in source order, with the path of its statement (what `engine.flow` reasons on)."""
        self._seq += 1
        ancestors = self.ancestors
        path = tuple(ancestors) if ancestors and ancestors[-1] is statement else (*ancestors, statement)
        self._bound_at.setdefault(id(statement), self._seq)
        if flow.branched(path):
            self._branched.add(self._seq)
        return Binding(name, kind, value, statement, self._seq, index, starred, qualname, self.loop, path)

    def _push_scope(self, kind: Literal["function", "class", "lambda", "comprehension"], node: cst.CSTNode) -> None:
        scope = Scope(kind, node, self._scope, start=self._seq)
        self._scope = scope
        if kind == "function":
            self._frame = scope

    def _pop_scope(self) -> None:
        scope = self._scope
        assert scope.parent is not None
        self._scope = scope.parent
        if scope.kind == "function":
            self.closed_functions.append((scope.start, self._seq, scope))
            self._closed.setdefault(id(scope.node), self.closed_functions[-1])
        if scope is self._frame:
            frame = self._scope
            while frame.kind not in ("function", "module"):
                assert frame.parent is not None
                frame = frame.parent
            self._frame = frame

    def _grad_effect(self, expr: cst.BaseExpression, shims: bool = True) -> bool | None | Literal["none"]:
        """What a `with` item or decorator does to grad mode: True disables, False enables, None unknown,
        "none" when it is not a grad-mode manager at all. With `shims`, a call of the file's version shim (see
        `_shim_effect`) does what it returns."""
        call_args: tuple[cst.Arg, ...] = ()
        called = type(expr) is cst.Call
        if called:
            call_args = tuple(expr.args)  # type: ignore[attr-defined]
            expr = expr.func  # type: ignore[attr-defined]
        if shims and called and not call_args and type(expr) is cst.Name:
            effect = self._shim_effect(expr.value)
            if effect != "none":
                return effect
        qualname = self.qualname(expr)
        if qualname is None and self._unbound_torch(expr):
            qualname = dotted_name(expr)
        if qualname is None:
            return "none"
        if qualname in _NO_GRAD:
            if call_args and qualname.endswith("inference_mode"):
                return _literal_bool(call_args[0].value)
            return True
        if qualname in _ENABLE_GRAD:
            return False
        if qualname in _SET_GRAD_ENABLED and call_args:
            enabled = _literal_bool(call_args[0].value)
            return None if enabled is None else not enabled
        return "none"

    def _shim_effect(self, name: str) -> bool | Literal["none"]:
        """`with _get_no_grad_ctx_mgr():`: a parameterless function of the file, defined before the call, every
        `return` of which gives a grad-mode manager that disables grad or, on an older torch, one that does nothing
        (`contextlib.suppress()`). A compatibility shim, whose choice no call can change: True; "none" for any other
        function (one that may enable grad, or choose by an argument, is not read)."""
        definitions = self.functions.get(name, ())
        if len(definitions) != 1 or self.class_of_method(definitions[0]) is not None:
            return "none"
        params = definitions[0].params
        if params.params or params.posonly_params or params.kwonly_params or isinstance(params.star_arg, cst.Param) \
                or params.star_kwarg is not None:
            return "none"
        disables = False
        for node in walked(definitions[0].body):
            kind = type(node)
            if kind in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
                return "none"
            if kind is not cst.Return:
                continue
            value = node.value  # type: ignore[attr-defined]
            effect = self._grad_effect(value, shims=False) if value is not None else "none"
            if effect is True:
                disables = True
            elif effect != "none" or type(value) is not cst.Call or self.qualname(value.func) not in _NO_OP_MANAGERS:
                return "none"
        return True if disables else "none"

    def _unbound_torch(self, expr: cst.BaseExpression) -> bool:
        """`torch.no_grad` where nothing binds `torch`: a notebook page or script whose import lives elsewhere (an
        earlier cell, a star import). The name can mean nothing else."""
        while type(expr) is cst.Attribute:
            expr = expr.value
        return type(expr) is cst.Name and expr.value == "torch" and self.binding("torch") is None



def _grad_switches(statement: cst.CSTNode) -> frozenset[bool | None]:
    """What a top-level `torch.set_grad_enabled(...)` statement does to the process's grad mode: True disables,
    False enables, None unknown (not a literal); empty for any other statement."""
    if type(statement) is not cst.SimpleStatementLine:
        return frozenset()
    found: set[bool | None] = set()
    for small in statement.body:
        call = small.value if type(small) is cst.Expr else None
        if type(call) is cst.Call and dotted_name(call.func) in _SET_GRAD_ENABLED:
            enabled = _literal_bool(call.args[0].value) if call.args else None
            found.add(None if enabled is None else not enabled)
    return frozenset(found)


# More bindings than this that may each be the value read: not worth telling apart (`reaching` gives up).
_MAX_REACHING = 4


# A top-level statement's function, when it is one, and the functions defined inside that function.
DefinedFunctions = tuple[cst.FunctionDef | None, tuple[cst.FunctionDef, ...]]


def defined_functions(statement: cst.CSTNode) -> DefinedFunctions:
    """What a top-level statement adds to `Context.functions_by_name`: it alone decides it."""
    if type(statement) is not cst.FunctionDef:
        return None, ()
    # its statements only: a `def` is in no expression
    return statement, tuple(node for node in walk_statements(statement.body) if type(node) is cst.FunctionDef)


def functions_by_name(parts: Iterable[DefinedFunctions]) -> dict[str, cst.FunctionDef]:
    """`Context.functions_by_name` from each top-level statement's `defined_functions`, in order."""
    top: list[cst.FunctionDef] = []
    nested: list[cst.FunctionDef] = []
    for function, inside in parts:
        if function is not None:
            top.append(function)
            nested += inside
    counts = Counter(function.name.value for function in (*top, *nested))
    return {**{function.name.value: function for function in nested if counts[function.name.value] == 1},
            **{function.name.value: function for function in top}}


def _latest(found: list[Binding], before: int | None) -> Binding | None:
    """The last of `found` (bindings in source order) made before `before`; None: the last of all."""
    if before is None:
        return found[-1]
    for binding in reversed(found):
        if binding.seq < before:
            return binding
    return None


def _literal_bool(expr: cst.BaseExpression) -> bool | None:
    if type(expr) is cst.Name and expr.value in ("True", "False"):
        return expr.value == "True"
    return None
