"""How annotations, shapes and dtypes are spelled in error messages.

Also reached while torch.compile traces a failing check, so only constructs dynamo can fold into constants:
f-strings of single values, `str.join` of such strings, no `str()` of a size.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import torch
from jaxtyping import AbstractArray


def hint_text(hint: Any) -> str:
    """An annotation as the user wrote it: `list[Float[Tensor, "B"]] | None`, not jaxtyping's repr."""
    if hint is type(None) or hint is None:
        return "None"
    if hint is Ellipsis:
        return "..."
    if isinstance(hint, type) and issubclass(hint, AbstractArray):
        array = getattr(hint.array_type, "__name__", hint.array_type)
        return f'{hint.dtype.__name__}[{array}, "{hint.dim_str}"]'
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(map(hint_text, args))
    if origin is typing.Annotated:
        return hint_text(args[0])
    if origin is not None and args:
        return f"{getattr(origin, '__name__', origin)}[{', '.join(map(hint_text, args))}]"
    return getattr(hint, "__name__", repr(hint))


def shape_text(sizes: tuple) -> str:
    """`(2, 3)`, one size at a time: under torch.compile sizes may be SymInts, and dynamo turns `f"{size}"`
    into a constant but `f"{tuple_of_sizes}"` or `str(size)` into a graph break that would hide the message."""
    inner = ", ".join(f"{size}" for size in sizes)
    return f"({inner},)" if len(sizes) == 1 else f"({inner})"


def dtype_text(dtype: torch.dtype) -> str:
    return f"{dtype}".removeprefix("torch.")
