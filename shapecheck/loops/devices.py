"""Shared by the device rules: which calls move a module or tensor to an accelerator, and which tensors are
certainly made on the CPU.

Certain answers only: `.to(device)` with `device` unknown is a move (the code means an accelerator when one is
there); `.to("cpu")`, `.to(torch.float16)` and `.to(dtype=...)` are not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import keyword_arg
from shapecheck.objects.project import PROJECT, importers_through_packages
from shapecheck.objects.tensor_facts import dtype_kind, positional, string_value

# Factory functions that put their result on the CPU unless given `device=`.
CREATIONS = frozenset({f"torch.{name}" for name in (
    "zeros", "ones", "randn", "rand", "randint", "randperm", "arange", "tensor", "full", "empty", "eye", "linspace",
    "logspace", "normal", "as_tensor", "from_numpy", "Tensor", "FloatTensor", "LongTensor", "hann_window",
    "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
)})
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


def moved_by_importers(filename: str, builders: dict[str, str]) -> set[str] | None:
    """The classes that a module of the project importing the module `filename` moves to a device, of those its
    `builders` give instances of (the name called -> the class: a class itself, or a factory `build_model` returning
    one): `model = Net(cfg).to(device)`, `self.model = build_model(cfg); self.model.cuda()` in `train.py` beside
    `model.py`, or through a package's `__init__` that re-exports them. None when the project is too large to search
    (then not known)."""
    found = importers_through_packages(filename, lambda _, text: any(name in text for name in builders))
    if found is None:
        return None
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
            moved |= {local[bound] for bound in _moved_constructions(tree, set(local))}
            wanted_from[importer] = local
    return moved


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


def _moved_constructions(tree: ast.Module, classes: set[str]) -> set[str]:
    """The classes among `classes` (local names) whose instances the module moves to a device: `.to(device)` or
    `.cuda()` of a construction, or of a name or attribute bound to one (`model = Net(); model.to(device)`)."""
    holders: dict[str, str] = {}
    for node in ast.walk(tree):
        if type(node) is ast.Assign and (built := _constructed(node.value, classes)) is not None:
            holders.update((ast.unparse(target), built) for target in node.targets
                           if type(target) in (ast.Name, ast.Attribute))
    moved = set()
    for node in ast.walk(tree):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and _to_device(node):
            receiver = node.func.value
            built = _constructed(receiver, classes) or holders.get(ast.unparse(receiver))
            if built is not None:
                moved.add(built)
    return moved


def _constructed(expr: ast.expr, classes: set[str]) -> str | None:
    """The class of `classes` that `expr` constructs, through method calls chained on it (`Net(cfg).float()`)."""
    while type(expr) is ast.Call:
        if type(expr.func) is ast.Name:
            return expr.func.id if expr.func.id in classes else None
        if type(expr.func) is not ast.Attribute:
            return None
        expr = expr.func.value
    return None


def _to_device(call: ast.Call) -> bool:
    """`.cuda()`, `.to(device)`, `.to(device=...)`; not `.to(torch.float16)` nor `.to(dtype=...)` nor `.to("cpu")`."""
    assert type(call.func) is ast.Attribute
    if call.func.attr == "cuda":
        return True
    if call.func.attr != "to":
        return False
    devices = [keyword.value for keyword in call.keywords if keyword.arg == "device"]
    target = devices[0] if devices else call.args[0] if call.args else None
    if target is None or not devices and type(target) is ast.Attribute and target.attr in _DTYPES:
        return False
    return not (type(target) is ast.Constant and str(target.value).split(":")[0] == "cpu")
