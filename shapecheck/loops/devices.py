"""Shared by the device rules: which calls move a module or tensor to an accelerator, which tensors are certainly
made on the CPU (`creates_on_cpu`, and the factory call behind a value: `cpu_creation`), and where a new tensor goes
from the call that made it, up its method chain and the arithmetic that keeps it on the CPU (`follow_tensor`).

Certain answers only: `.to(device)` with `device` unknown is a move (the code means an accelerator when one is
there); `.to("cpu")`, `.to(torch.float16)` and `.to(dtype=...)` are not.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import libcst as cst

from shapecheck.engine import dependencies
from shapecheck.engine.context import Context
from shapecheck.engine.syntax import keyword_arg
from shapecheck.engine.walker import walk
from shapecheck.objects.executor import target_names
from shapecheck.objects.project import PROJECT, first_party_texts, importer_files, importers_through_packages
from shapecheck.objects.tensor_facts import dtype_kind, is_builtin_call, is_int, positional, string_value
from shapecheck.objects.values import FunctionValue, Instance
from shapecheck.shapes.evaluator import evaluator

# Factory functions that put their result on the CPU unless given `device=`.
CREATIONS = frozenset({f"torch.{name}" for name in (
    "zeros", "ones", "randn", "rand", "randint", "randperm", "arange", "tensor", "full", "empty", "eye", "linspace",
    "logspace", "normal", "as_tensor", "from_numpy", "Tensor", "FloatTensor", "LongTensor", "hann_window",
    "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
)})
# Calls that put a tensor where another one is: the creation is moved, or its device is taken from an input.
_PLACING = frozenset({"to", "cuda", "type_as", "to_device"})
# einops functions of one tensor and a pattern: the result is where the tensor is.
_LAYOUT = frozenset({"einops.rearrange", "einops.repeat", "einops.reduce"})
# Torch functions of one tensor that keep its device: `torch.exp(torch.arange(n) / n)` is on the CPU.
_ELEMENTWISE = frozenset({f"torch.{name}" for name in (
    "exp", "log", "sin", "cos", "sqrt", "rsqrt", "sigmoid", "tanh", "abs", "neg", "reciprocal", "tril", "triu",
    "outer", "flip", "cumsum",
)})
# Operators of tensor arithmetic: both operands must share a device.
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.MatrixMultiply, cst.Power, cst.FloorDivide)
_CPU = frozenset({"cpu"})
_DEVICE_CALLS = frozenset({"torch.device"})


def moves_to_device(ctx: Context, call: cst.Call) -> bool:
    """`x.cuda()`, `x.to(device)`, `x.to("cuda:0")`, `x.to(device=dev)`: a move away from the CPU."""
    return _destination(ctx, call) == "device"


def moves_to_cpu(ctx: Context, call: cst.Call) -> bool:
    """`x.cpu()`, `x.to("cpu")`, `x.to(torch.device("cpu"))`: a move back to the CPU."""
    return _destination(ctx, call) == "cpu"


def _destination(ctx: Context, call: cst.Call) -> str | None:
    """"device" or "cpu" for a call that moves its receiver there; None for any other call (`.to(dtype=...)`,
    `.to(torch.float16)`)."""
    func = call.func
    if type(func) is not cst.Attribute or ctx.qualname(func) is not None:
        return None
    if func.attr.value in ("cuda", "cpu"):
        return "device" if func.attr.value == "cuda" else "cpu"
    if func.attr.value != "to":
        return None
    device = keyword_arg(call, "device")
    args = positional(call)
    target = device.value if device is not None else (args[0].value if args else None)
    if target is None or device is None and dtype_kind(ctx, target) is not None:
        return None
    return "cpu" if _is_cpu(ctx, target) else "device"


def _is_cpu(ctx: Context, expr: cst.BaseExpression) -> bool:
    value, _ = ctx.value_of(expr)
    if type(value) is cst.Call and ctx.qualname(value.func) in _DEVICE_CALLS and value.args:
        value = value.args[0].value
    text = string_value(value)
    return text is not None and text.split(":")[0] in _CPU


def creates_on_cpu(ctx: Context, call: cst.Call) -> bool:
    """A torch factory call without `device=` that makes a tensor with at least one dimension (a 0-d CPU tensor
    such as `torch.tensor(0.5)` mixes with CUDA tensors without error)."""
    if ctx.qualname(call.func) not in CREATIONS or keyword_arg(call, "device") is not None:
        return False
    args = positional(call)
    if args is None:
        return False
    if ctx.qualname(call.func) in ("torch.tensor", "torch.as_tensor"):
        value = args[0].value if args else None
        return value is not None and type(value) in (cst.List, cst.Tuple, cst.ListComp)  # not a number: 0-d
    if ctx.qualname(call.func) == "torch.normal":
        # `torch.normal(mu, std)` of tensors samples where they are; only the numbers' form takes a size
        return len(args) >= 3 or keyword_arg(call, "size") is not None
    return bool(args) or keyword_arg(call, "size") is not None


_DTYPES = frozenset({"float", "float16", "float32", "float64", "half", "double", "bfloat16", "int", "long",
                     "int64", "int32", "bool", "uint8", "int8", "complex64"})


# A layer of `layers.py` held by a model of `model.py` that `train.py` moves: the holder's importers are searched
# once more; a chain of holders past that is rare, and each step searches the project again.
_HOLDERS = 1


def moved_by_importers(filename: str, builders: dict[str, str], depth: int = 0) -> set[str]:
    """The classes that a module of the project importing the module `filename` moves to a device, of those its
    `builders` give instances of (the name called -> the class: a class itself, or a factory `build_model` returning
    one): `model = Net(cfg).to(device)`, `self.model = build_model(cfg); self.model.cuda()` in `train.py` beside
    `model.py`, or through a package's `__init__` that re-exports them; in a project too large to search whole, by the
    importers nearest the file. Also a class an importer's module class holds as a submodule (`self.pos =
    PositionalEncoding(d)` in `model.py`'s `TransformerClassifier`) where that module is moved, there or by the
    holder's own importers (`train.py`): `.to()` moves the submodules with it."""
    found = importers_through_packages(filename, lambda _, text: any(name in text for name in builders), partial=True)
    wanted_from = {filename: dict(builders)}  # a module -> its local names of the classes wanted
    moved: set[str] = set()
    for importer, text, imported in found:
        wanted = wanted_from.get(imported)
        if not wanted:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        local = _imported_names(tree, importer, Path(imported).resolve(), wanted)
        if local:
            moved |= {local[bound] for bound in _moved_constructions(tree, set(local), importer)}
            wanted_from[importer] = local
            holders = _holders(tree, set(local)) if depth < _HOLDERS else {}
            if holders:
                kept = _moved_constructions(tree, set(holders), importer) | moved_by_importers(
                    importer, {**_factories(tree, set(holders)), **{name: name for name in holders}}, depth + 1)
                moved |= {local[bound] for holder in kept for bound in holders[holder]}
            factories = _factories(tree, set(local)) if depth <= _HOLDERS else {}
            if factories:
                # a package's `__init__` with `def build_model(cfg): return Encoder(...)`, moved by its importers
                moved |= {local[bound] for bound in moved_by_importers(importer, factories, depth + 1)}
    return moved


def _factories(tree: ast.Module, classes: set[str]) -> dict[str, str]:
    """The module-level functions of `tree` whose every `return` constructs the same one of `classes`
    (`def build_model(cfg): return Net(cfg.d)`), each with that class."""
    found = {}
    for statement in tree.body:
        if type(statement) is ast.FunctionDef:
            built = {_constructed(node.value, classes) if node.value is not None else None
                     for node in ast.walk(statement) if type(node) is ast.Return}
            if len(built) == 1 and None not in built:
                found[statement.name] = built.pop()
    return found  # type: ignore[return-value]


# torch.nn containers: what is built inside one (`nn.ModuleList([Block(d) for _ in range(n)])`) is held.
_CONTAINERS = frozenset({"ModuleList", "Sequential", "ModuleDict"})


def _holders(tree: ast.Module, classes: set[str]) -> dict[str, set[str]]:
    """The module-level classes of `tree` that build one of `classes` (local names) as an attribute of their own
    (`self.pos = PositionalEncoding(d_model)`), or build a class of `tree` that does (`self.encoder = Encoder(...)`
    in `Seq2Seq`, whose `Encoder` holds the layer), each with those of `classes` it holds so."""
    built: dict[str, set[str]] = {}  # a class of the module -> the names it builds as attributes of its own
    for statement in tree.body:
        if type(statement) is not ast.ClassDef:
            continue
        for node in ast.walk(statement):
            if type(node) is ast.Assign and type(node.value) is ast.Call \
                    and all(type(target) is ast.Attribute and type(target.value) is ast.Name
                            and target.value.id == "self" for target in node.targets):
                if type(node.value.func) is ast.Name:
                    built.setdefault(statement.name, set()).add(node.value.func.id)
                elif type(node.value.func) is ast.Attribute and node.value.func.attr in _CONTAINERS:
                    # `self.blocks = nn.ModuleList([Block(d) for _ in range(n)])`: the modules it holds
                    built.setdefault(statement.name, set()).update(
                        inner.func.id for inner in ast.walk(node.value)
                        if type(inner) is ast.Call and type(inner.func) is ast.Name)
    found = {holder: names & classes for holder, names in built.items() if names & classes}
    while True:  # a holder of a holder, to a fixed point
        grown = {holder: names | {held for inner in names & found.keys() for held in found[inner]}
                 for holder, names in built.items()}
        grown = {holder: held & classes for holder, held in grown.items() if held & classes}
        if grown == found:
            return found
        found = grown


def _imported_names(tree: ast.Module, importer: str, target: Path, wanted: dict[str, str]) -> dict[str, str]:
    """The names `importer` binds, at its top level, to the classes `wanted` maps from their names in `target`:
    the local name -> the class's own name."""
    local = {}
    for statement in tree.body:
        if type(statement) is not ast.ImportFrom:
            continue
        names = [alias for alias in statement.names if alias.name in wanted]
        if names and PROJECT.module_file(importer, statement.module or "", statement.level) == target:
            local.update((alias.asname or alias.name, wanted[alias.name]) for alias in names)
    return local


def _moved_constructions(tree: ast.Module, classes: set[str], importer: str | None = None) -> set[str]:
    """The classes among `classes` (local names) whose instances the module moves to a device: `.to(device)` or
    `.cuda()` of a construction, or of a name or attribute bound to one (`model = Net(); model.to(device)`), or
    one handed to a class or function of the module that moves that parameter (`Trainer(Net(), cfg)` whose
    `__init__` does `self.model = model.to(self.device)`), or of a project module it imports them from (the file
    `importer` is: `from trainer import Trainer`)."""
    holders: dict[str, str] = {}
    for node in ast.walk(tree):
        if type(node) is ast.Assign and (built := _constructed(node.value, classes)) is not None:
            holders.update((ast.unparse(target), built) for target in node.targets
                           if type(target) in (ast.Name, ast.Attribute))
    moved = set()
    on_cpu = _cpu_names(tree)
    movers = _moving_parameters(tree, on_cpu)
    if importer is not None:
        movers = {**_imported_movers(tree, importer), **movers}
    for node in ast.walk(tree):
        if type(node) is not ast.Call:
            continue
        receivers = []
        if type(node.func) is ast.Attribute and _to_device(node, on_cpu):
            receivers.append(node.func.value)
        elif type(node.func) is ast.Name and node.func.id in movers:
            positions, names = movers[node.func.id]
            receivers += [arg for index, arg in enumerate(node.args) if index in positions]
            receivers += [keyword.value for keyword in node.keywords if keyword.arg in names]
        for receiver in receivers:
            built = _constructed(receiver, classes) or holders.get(ast.unparse(receiver))
            if built is not None:
                moved.add(built)
    return moved


def _imported_movers(tree: ast.Module, importer: str) -> dict[str, tuple[set[int], set[str]]]:
    """`_moving_parameters` of the classes and functions the file `importer` (parsed as `tree`) imports by name from
    the project's modules at its top level (`from trainer import Trainer`), by the names it binds them to."""
    found: dict[str, tuple[set[int], set[str]]] = {}
    for statement in tree.body:
        if type(statement) is not ast.ImportFrom or any(alias.name == "*" for alias in statement.names):
            continue
        path = PROJECT.module_file(importer, statement.module or "", statement.level)
        movers = _movers_in(path) if path is not None else None
        if movers is None:
            continue
        found.update((alias.asname or alias.name, movers[alias.name]) for alias in statement.names
                     if alias.name in movers)
    return found


# module file -> (its size and time stamp, its `_moving_parameters`): every module importing it asks again (a
# project's trainers, evaluators and scripts all import one model module), and each ask read and parsed it anew
_MOVERS: dict[Path, tuple[tuple[int, int], dict[str, tuple[set[int], set[str]]] | None]] = {}
dependencies.remembered(_MOVERS.clear)


def _movers_in(path: Path) -> dict[str, tuple[set[int], set[str]]] | None:
    """`_moving_parameters` of the module file at `path`; None where it can't be read or parsed."""
    try:
        info = path.stat()
    except OSError:
        return None
    stamp = (info.st_size, info.st_mtime_ns)
    cached = _MOVERS.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        theirs = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        movers = None
    else:
        movers = _moving_parameters(theirs, _cpu_names(theirs))
    _MOVERS[path] = (stamp, movers)
    return movers


def _moving_parameters(tree: ast.Module, on_cpu: frozenset[str]) -> dict[str, tuple[set[int], set[str]]]:
    """The module-level functions and classes of `tree` that move a parameter to a device in their body (a class in
    its `__init__`): `model.to(device)`, `self.model = model.cuda()`, or a class keeping it as it is (`self.model =
    model`) whose methods move that attribute (`self.model.to(self.device)`); each with the positions a call passes
    such a parameter at (`self` left out) and their names."""
    found: dict[str, tuple[set[int], set[str]]] = {}
    for statement in tree.body:
        function = statement
        if type(statement) is ast.ClassDef:
            function = next((inner for inner in statement.body if type(inner) is ast.FunctionDef
                             and inner.name == "__init__"), None)
        if type(function) is not ast.FunctionDef or function.args.vararg or function.args.kwarg:
            continue
        params = [arg.arg for arg in function.args.args][1 if type(statement) is ast.ClassDef else 0:]
        moved = {node.func.value.id for node in ast.walk(function) if type(node) is ast.Call
                 and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
                 and node.func.value.id in params and _to_device(node, on_cpu)}
        if type(statement) is ast.ClassDef:
            moved |= _kept_and_moved(statement, function, params, on_cpu)
        if moved:
            found[statement.name] = ({index for index, name in enumerate(params) if name in moved}, moved)
    return found


def _kept_and_moved(cls: ast.ClassDef, init: ast.FunctionDef, params: list[str], on_cpu: frozenset[str]) -> set[str]:
    """The parameters of `init` that it keeps as they are in an attribute (`self.model = model`) which a method of
    the class moves (`self.model.to(self.device)`, `self.model.cuda()`), and no statement of it binds again."""
    kept: dict[str, str] = {}
    bound: dict[str, int] = {}
    for node in ast.walk(cls):
        targets = node.targets if type(node) is ast.Assign else [node.target] \
            if type(node) in (ast.AnnAssign, ast.AugAssign) else []
        for target in targets:
            if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self":
                if type(node) is ast.Assign and type(node.value) is ast.Call \
                        and ast.unparse(node.value).startswith(f"self.{target.attr}."):
                    continue  # `self.model = self.model.to(self.device)`: the same module, moved
                bound[target.attr] = bound.get(target.attr, 0) + 1
                if node in init.body and type(node) is ast.Assign and len(node.targets) == 1 \
                        and type(node.value) is ast.Name and node.value.id in params:
                    kept[target.attr] = node.value.id
    return {kept[node.func.value.attr] for node in ast.walk(cls) if type(node) is ast.Call
            and type(node.func) is ast.Attribute and type(node.func.value) is ast.Attribute
            and type(node.func.value.value) is ast.Name and node.func.value.value.id == "self"
            and node.func.value.attr in kept and bound[node.func.value.attr] == 1 and _to_device(node, on_cpu)}


def _constructed(expr: ast.expr, classes: set[str]) -> str | None:
    """The class of `classes` that `expr` constructs, through method calls chained on it (`Net(cfg).float()`)."""
    while type(expr) is ast.Call:
        if type(expr.func) is ast.Name:
            return expr.func.id if expr.func.id in classes else None
        if type(expr.func) is not ast.Attribute:
            return None
        expr = expr.func.value
    return None


def _to_device(call: ast.Call, on_cpu: frozenset[str] = frozenset()) -> bool:
    """`.cuda()`, `.to(device)`, `.to(device=...)`; not `.to(torch.float16)` nor `.to(dtype=...)` nor `.to("cpu")`,
    nor `.to(device)` of a name in `on_cpu` (`device = "cpu"`)."""
    assert type(call.func) is ast.Attribute
    if call.func.attr == "cuda":
        return True
    if call.func.attr != "to":
        return False
    devices = [keyword.value for keyword in call.keywords if keyword.arg == "device"]
    target = devices[0] if devices else call.args[0] if call.args else None
    if target is None or not devices and type(target) is ast.Attribute and target.attr in _DTYPES:
        return False
    return not (_is_cpu_constant(target) or type(target) is ast.Name and target.id in on_cpu)


def _is_cpu_constant(expr: ast.expr) -> bool:
    """`"cpu"`, `"cpu:0"` or `torch.device("cpu")`."""
    if type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr == "device" and expr.args:
        expr = expr.args[0]
    return type(expr) is ast.Constant and str(expr.value).split(":")[0] in _CPU


def _cpu_names(tree: ast.Module) -> frozenset[str]:
    """The names the module binds to the CPU and to nothing else, anywhere in it (`device = "cpu"` in a script that
    never asks for a GPU): the same names in any function (a parameter or an import of the name is something
    else), so the name means the CPU wherever it is read."""
    cpu: set[int] = set()
    for node in ast.walk(tree):
        if type(node) in (ast.Assign, ast.AnnAssign) and node.value is not None and _is_cpu_constant(node.value):
            targets = node.targets if type(node) is ast.Assign else [node.target]
            cpu.update(id(target) for target in targets if type(target) is ast.Name)
    if not cpu:
        return frozenset()
    kinds: dict[str, set[bool]] = {}
    for node in ast.walk(tree):
        if type(node) is ast.Name and type(node.ctx) is not ast.Load:
            kinds.setdefault(node.id, set()).add(id(node) in cpu)
        elif type(node) is ast.arg:
            kinds.setdefault(node.arg, set()).add(False)
        elif type(node) is ast.alias:
            kinds.setdefault((node.asname or node.name).split(".")[0], set()).add(False)
    return frozenset(name for name, found in kinds.items() if found == {True})


def device_kept_from(ctx: Context, value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The tensor whose device `value` is on, one step in: the receiver of a method that does not place its result
    (`(x[:, 0] > 0).long()`, `y.unsqueeze(1)`; not `.to(...)`, `.cuda()`), the tensor side of a comparison with a
    number (`x[:, 0] > 0`); else None."""
    if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value not in _PLACING \
            and ctx.qualname(value.func) is None:
        return value.func.value
    if type(value) is cst.Comparison and len(value.comparisons) == 1 \
            and type(value.comparisons[0].comparator) in (cst.Integer, cst.Float):
        return value.left
    return None


def cpu_creation(ctx: Context, value: cst.BaseExpression, init: cst.FunctionDef, depth: int = 0
                 ) -> cst.Call | None:
    """The factory call without a device behind `value` in `__init__`: the call itself, a method chain on it
    (`.unsqueeze(0)`, `.float()`; `.to(...)` places it), or a local assigned once from one."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value not in _PLACING \
            and ctx.qualname(value.func) is None:
        value = value.func.value
    if type(value) is cst.Call:
        if creates_on_cpu(ctx, value):
            return value
        if depth > 3:
            return None
        if ctx.qualname(value.func) in _ELEMENTWISE:  # `torch.sqrt(torch.FloatTensor([d_k]))`: where its input is
            args = positional(value)
            return cpu_creation(ctx, args[0].value, init, depth + 1) if args else None
        if type(value.func) is cst.Name and returned_on_cpu(ctx, value, 1) is not None:
            return value  # `self.pe = sinusoid_table(max_len, d)`: a function of the project that builds it there
        return None
    if type(value) is cst.BinaryOperation and type(value.operator) in ARITHMETIC and depth <= 3:
        # `torch.ones(1) * scale`, `torch.arange(n) / n`: arithmetic of one such tensor with numbers
        sides = (value.left, value.right)
        for side, other in (sides, sides[::-1]):
            if not any(type(node) is cst.Call for node in walk(other)):
                found = cpu_creation(ctx, side, init, depth + 1)
                if found is not None:
                    return found
        return None
    if type(value) is not cst.Name or depth > 3:
        return None
    bound = [node.value for node in walk(init.body) if type(node) is cst.Assign and len(node.targets) == 1
             and type(node.targets[0].target) is cst.Name and node.targets[0].target.value == value.value]
    return cpu_creation(ctx, bound[0], init, depth + 1) if len(bound) == 1 else None


def returned_on_cpu(ctx: Context, call: cst.Call, depth: int = 0) -> str | None:
    """The torch factory (`torch.zeros`) that makes, on the CPU, what every `return` of the project function or
    method `call` runs gives, read in the module defining it (`cpu_creation`: the call, a method chain on it, or a
    local assigned once from one and filled in place: `out = torch.zeros(n, k); out[i, :m] = ...; return out`); else
    None. The function is one of the file's or of a project module (`self.featurize(rows)`, `vocab.encode(texts)`),
    or the `__call__` of a project object (`self.tokenizer(texts)` with `self.tokenizer = HashTokenizer()` of
    another module): a tokenizer or featurizer that builds a batch on the CPU. A `return` of another such call
    (`__call__` returning `self.encode(texts)`) is followed into it."""
    value = evaluator(ctx).value(call.func)
    if isinstance(value, Instance):
        calls = [statement for statement in value.cls.node.body.body
                 if type(statement) is cst.FunctionDef and statement.name.value == "__call__"]
        value = FunctionValue(calls[0], value.cls.ctx) if len(calls) == 1 else None
    if not isinstance(value, FunctionValue) or value.closure is not None:
        return None
    definition, where = value.node, value.ctx
    point = where.point_after(definition)
    if point is None:
        return None
    made = []
    for node in where.walk(definition.body):
        if type(node) in (cst.FunctionDef, cst.Lambda):
            return None  # a nested function's returns are not this one's: not followed
        if type(node) is not cst.Return or node.value is None:
            continue
        creation = cpu_creation(where, node.value, definition)
        if creation is not None:
            made.append(where.qualname(creation.func))
            continue
        inner = node.value
        while type(inner) is cst.Call and type(inner.func) is cst.Attribute and inner.func.attr.value not in _PLACING \
                and where.qualname(inner.func) is None and type(inner.func.value) is cst.Call:
            inner = inner.func.value  # `self.encode(texts).unsqueeze(0)`: the call under the method chain
        if type(inner) is not cst.Call or depth >= 2:
            return None
        with where.at(point):
            found = returned_on_cpu(where, inner, depth + 1)
        if found is None:
            return None
        made.append(found)
    return made[0] if made else None


def follow_tensor(node: cst.CSTNode, parents: dict[int, cst.CSTNode], ctx: Context | None = None,
                  constant: Callable[[cst.CSTNode], bool] | None = None) -> tuple[cst.CSTNode, bool]:
    """Up the method chain on a value (`torch.arange(n).float().unsqueeze(0)`) to what holds it: the name it is
    assigned to, or the outermost expression; True when a call on the way places it (`.to(...)`, `.cuda()`).
    With `ctx` and `constant` (what tells an operand that carries no device), also up through arithmetic with such
    operands and torch functions of the value alone (and integer options: `torch.triu(torch.ones(t, t), diagonal=1)`):
    `torch.exp(-math.log(1e4) * torch.arange(half) / half)` is still a CPU tensor."""
    current = node
    while True:
        parent = parents.get(id(current))
        grand = parents.get(id(parent)) if parent is not None else None
        if type(parent) is cst.Attribute and parent.value is current and type(grand) is cst.Call:
            if parent.attr.value in _PLACING:
                return current, True
            current = grand
            continue
        if type(parent) is cst.Subscript and parent.value is current and type(grand) is cst.Attribute:
            current = parent  # `freqs[None, :].to(device)`: an index of the CPU tensor, then placed
            continue
        if constant is not None and type(parent) is cst.BinaryOperation and type(parent.operator) in ARITHMETIC:
            other = parent.right if parent.left is current else parent.left
            if constant(other):
                current = parent
                continue
        if constant is not None and type(parent) is cst.UnaryOperation:
            current = parent
            continue
        if constant is not None and type(parent) is cst.Subscript and parent.value is current \
                and all(constant(element) for element in parent.slice):
            current = parent  # `torch.arange(t)[None]`, `torch.tril(torch.ones(t, t))[None, None]`: still on the CPU
            continue
        if ctx is not None and type(parent) is cst.Arg and type(grand) is cst.Call and parent.value is current \
                and ctx.qualname(grand.func) in _ELEMENTWISE \
                and all(arg is parent or arg.keyword is not None and is_int(ctx, arg.value) for arg in grand.args):
            current = grand
            continue
        if ctx is not None and type(parent) is cst.Arg and type(grand) is cst.Call and grand.args[0] is parent \
                and ctx.qualname(grand.func) in _LAYOUT:
            current = grand  # `rearrange(~torch.eye(n, dtype=torch.bool), 'i j -> () i j')`
            continue
        if type(parent) is cst.Assign and parent.value is current and len(parent.targets) == 1:
            target = parent.targets[0].target
            return (target if type(target) is cst.Name else current), False
        return current, False


# numpy-only methods: what they return is a numpy array (or Python values), which is on the CPU.
_NUMPY_METHODS = frozenset({"astype", "numpy", "tolist", "item"})
_NUMBERS = frozenset({"int", "float", "bool"})


def yields_on_cpu(value: object, handed: Callable[[cst.FunctionDef, str], bool] | None = None) -> bool:
    """`value` (the objects floor's) is a project function, or an object of a project class, whose every `return`
    (of `__getitem__` for an object: a `Dataset`'s item) gives only data on the CPU: tensors a torch factory makes
    without `device=` (`torch.from_numpy(window)`), numpy arrays (`np.stack(...)`, `x.astype(np.float32)`), numbers,
    and tuples, lists or dicts of them (a dict literal filled by key after: `item["y"] = int(label)`); the
    attributes it reads are those `__init__` sets once (`self.features = torch.randn(n, 8)`). A default-collated
    batch of such items, or what such a `collate_fn` returns, is on the CPU. Anything else the code does not
    state (a transform's output, a constructor argument, a nested function) makes it unknown: False; but a
    constructor argument `__init__` keeps (`self.series = series`) or copies into a tensor (`self.x =
    torch.tensor(x, dtype=torch.float32)`) is on the CPU where `handed(init, name)` says the construction passes it
    CPU data (a numpy array, a tensor a torch factory makes without `device=`)."""
    init = None
    if isinstance(value, Instance):
        methods = {statement.name.value: statement for statement in value.cls.node.body.body
                   if type(statement) is cst.FunctionDef}
        function, init, where = methods.get("__getitem__"), methods.get("__init__"), value.cls.ctx
    elif isinstance(value, FunctionValue) and value.closure is None and value.bound is None:
        function, where = value.node, value.ctx
    else:
        return False
    if function is None:
        return False
    returns = []
    for node in walk(function.body):
        if type(node) in (cst.FunctionDef, cst.Lambda, cst.Yield):
            return False
        if type(node) is cst.Return:
            returns.append(node.value)
    return bool(returns) and all(value is not None and _data_on_cpu(where, value, function, init, handed=handed)
                                 for value in returns)


def _data_on_cpu(ctx: Context, expr: cst.BaseExpression, function: cst.FunctionDef, init: cst.FunctionDef | None,
                 depth: int = 0, handed: Callable[[cst.FunctionDef, str], bool] | None = None) -> bool:
    """`expr`, read in `function` (a method of a class whose `__init__` is `init`), is data on the CPU (see
    `yields_on_cpu`); a parameter of `__init__` counts as `handed` says."""
    if depth > 10:  # a guard against cycles; a window sliced from an attribute copied from a parameter is 8 deep
        return False
    if handed is not None and type(expr) is cst.Name and init is None and function.name.value == "__init__" \
            and any(param.name.value == expr.value for param in function.params.params) \
            and not _rebound(function, expr.value) and handed(function, expr.value):
        # `self.x = torch.tensor(x)` of the numpy array the construction hands it, or `self.series = series` of a
        # tensor it makes on the CPU: indexed, then collated, it stays there
        return True
    kind = type(expr)
    if kind in (cst.Integer, cst.Float):
        return True
    if kind in (cst.Tuple, cst.List):
        return all(type(element) is cst.Element
                   and _data_on_cpu(ctx, element.value, function, init, depth + 1, handed)
                   for element in expr.elements)  # type: ignore[attr-defined]
    if kind is cst.Dict:
        return all(type(element) is cst.DictElement
                   and _data_on_cpu(ctx, element.value, function, init, depth + 1, handed)
                   for element in expr.elements)  # type: ignore[attr-defined]
    if kind is cst.Subscript:  # `self.features[i]`, `window[:n]`: indexing keeps the device
        return _data_on_cpu(ctx, expr.value, function, init, depth + 1, handed)  # type: ignore[attr-defined]
    if kind is cst.Call:
        func = expr.func  # type: ignore[attr-defined]
        qualname = ctx.qualname(func) or ""
        if qualname.startswith("numpy.") or is_builtin_call(ctx, expr, *_NUMBERS):
            return True
        if qualname in CREATIONS and keyword_arg(expr, "device") is None:  # type: ignore[arg-type]
            if qualname not in ("torch.tensor", "torch.as_tensor"):
                return True
            # a copy of a tensor keeps its device: what it copies must be data on the CPU, or a literal list
            data = positional(expr)  # type: ignore[arg-type]
            return bool(data) and (type(data[0].value) in (cst.List, cst.ListComp, cst.Tuple)  # type: ignore
                                   or _data_on_cpu(ctx, data[0].value, function, init,  # type: ignore
                                                   depth + 1, handed))
        if type(func) is cst.Attribute and not qualname:
            if func.attr.value in _NUMPY_METHODS:
                return True
            # `torch.from_numpy(x).float()`: a method that keeps the device, on CPU data
            return func.attr.value not in _PLACING and _data_on_cpu(ctx, func.value, function, init, depth + 1, handed)
        return False
    if kind is cst.Name:
        bound = _assigned_once(function, expr.value)  # type: ignore[attr-defined]
        if bound is None or not _data_on_cpu(ctx, bound, function, init, depth + 1, handed):
            return False
        # `item = {"x": ...}`, then `item["y"] = int(self.labels[i])`: each value filled in is data too
        return all(_data_on_cpu(ctx, node.value, function, init, depth + 1, handed) for node in walk(function.body)
                   if type(node) is cst.Assign and any(
                       type(target.target) is cst.Subscript and type(target.target.value) is cst.Name
                       and target.target.value.value == expr.value for target in node.targets))  # type: ignore
    if kind is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self" and init is not None:
        bound = _assigned_once(init, expr.attr.value, attribute=True)  # type: ignore[attr-defined]
        return bound is not None and _data_on_cpu(ctx, bound, init, None, depth + 1, handed)
    return False


def _assigned_once(function: cst.FunctionDef, name: str, attribute: bool = False) -> cst.BaseExpression | None:
    """The value of the one plain assignment of `name` (of `self.name` with `attribute`) in `function`, when it
    has no other binding there (an augmented assignment, a loop target, ...); else None."""
    found: list[cst.BaseExpression] = []
    for node in walk(function.body):
        if type(node) is cst.Assign:
            for target in node.targets:
                unpacked = type(target.target) in (cst.Tuple, cst.List) and any(
                    _names(inner, name, attribute) for inner in walk(target.target))
                if not unpacked and not _names(target.target, name, attribute):
                    continue  # `batch["y"] = ...` fills the dict `batch` is, it binds no name
                if len(node.targets) != 1:
                    return None
                if type(target.target) in (cst.Name, cst.Attribute):
                    found.append(node.value)
                    continue
                # `self.series, self.window = series, window`: the value in the same place
                value = _element_for(target.target, node.value, name, attribute)
                if value is None:
                    return None
                found.append(value)
        elif type(node) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.AsName, cst.NamedExpr) \
                and any(_names(inner, name, attribute) for inner in walk(getattr(node, "target", node))):
            return None
    if not attribute and any(param.name.value == name for param in function.params.params):
        return None
    return found[0] if len(found) == 1 else None


def _element_for(target: cst.BaseExpression, value: cst.BaseExpression, name: str, attribute: bool
                 ) -> cst.BaseExpression | None:
    """The element of the tuple `value` that the tuple `target` unpacks into `name`, where both are written out
    element by element with no starred one; else None."""
    if type(target) not in (cst.Tuple, cst.List) or type(value) not in (cst.Tuple, cst.List) \
            or len(target.elements) != len(value.elements) \
            or any(type(element) is not cst.Element for element in (*target.elements, *value.elements)):
        return None
    for left, right in zip(target.elements, value.elements):
        if _names(left.value, name, attribute):
            return right.value
    return None


def _rebound(function: cst.FunctionDef, name: str) -> bool:
    """A statement of `function` binds the local `name` (a parameter assigned again before it is copied)."""
    for node in walk(function.body):
        targets = [target.target for target in node.targets] if type(node) is cst.Assign \
            else [node.target] if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr) else []
        if any(name in target_names(target) for target in targets):
            return True
    return False


def _names(target: cst.CSTNode, name: str, attribute: bool) -> bool:
    if attribute:
        return type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self" \
            and target.attr.value == name
    return type(target) is cst.Name and target.value == name


# `torch.set_default_tensor_type("torch.cuda.FloatTensor")` (or the type itself), `torch.set_default_device(...)`:
# torch's factories then make tensors wherever the program says, not on the CPU
_DEFAULT_DEVICE = re.compile(r"set_default_tensor_type\(\s*['\"]?torch\.cuda\.|set_default_device\(")


def default_device_set(ctx: Context) -> bool:
    """The program may make torch's factories build on a device: this module, a first-party module it imports, a
    module importing it or a first-party module that one imports (ALAE's `launcher.py`, imported by the training
    script that imports the model) sets the default tensor type to a CUDA one or sets a default device."""
    if any(ctx.calls_to(name) for name in ("set_default_tensor_type", "set_default_device")):
        return True
    summary = PROJECT.summary(Path(ctx.filename)) if ctx.filename else None
    if summary is None:
        return False
    text = "\n".join(summary.lines)
    texts = [*first_party_texts(text, ctx.filename)]
    for path, importer in importer_files(ctx.filename, partial=True) or ():
        texts += [importer, *first_party_texts(importer, path)]
    return any(_DEFAULT_DEVICE.search(text) for text in texts)

