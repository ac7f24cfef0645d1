"""Shared by the device rules: which calls move a module or tensor to an accelerator, and which tensors are
certainly made on the CPU.

Certain answers only: `.to(device)` with `device` unknown is a move (the code means an accelerator when one is
there); `.to("cpu")`, `.to(torch.float16)` and `.to(dtype=...)` are not.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context
from shapecheck.engine.syntax import keyword_arg
from shapecheck.rules._tensor_facts import dtype_kind, positional, string_value

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
