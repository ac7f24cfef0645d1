"""What the recorder keeps of a value: tensors (shape, dtype, device), tuples, lists and dicts of them, ints.

Descriptions are plain JSON data so that a record is a readable file and merges across runs:
`{"t": "tensor", "shape": [2, 3], "dtype": "float32", "device": "cpu"}`, `{"t": "tuple", "items": [...]}`,
`{"t": "dict", "items": {"k": ...}}`, `{"t": "int", "v": 3}`, `{"t": "none"}`; anything else is `{"t": "other"}`.
"""

from __future__ import annotations

import sys
from typing import Any

Description = dict[str, Any]

# Containers deeper or longer than this are described as "other": a record must stay small whatever a program passes.
_MAX_DEPTH = 3
_MAX_ITEMS = 16


def describe(value: Any, depth: int = 0) -> Description:
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if getattr(value, "is_nested", False):
            return {"t": "other"}
        return {"t": "tensor", "shape": [int(size) for size in value.shape],
                "dtype": str(value.dtype).removeprefix("torch."), "device": value.device.type}
    if value is None:
        return {"t": "none"}
    if type(value) is int:
        return {"t": "int", "v": value}
    if depth < _MAX_DEPTH:
        if type(value) in (tuple, list) and len(value) <= _MAX_ITEMS:
            return {"t": type(value).__name__, "items": [describe(item, depth + 1) for item in value]}
        if type(value) is dict and len(value) <= _MAX_ITEMS and all(type(key) is str for key in value):
            return {"t": "dict", "items": {key: describe(item, depth + 1) for key, item in value.items()}}
    return {"t": "other"}


def int_attributes(obj: Any, limit: int = 64) -> dict[str, int]:
    """The int-valued instance attributes of `obj` (`self.n_embd`): candidates for naming a size."""
    try:
        attributes = vars(obj)
    except TypeError:
        return {}
    found: dict[str, int] = {}
    for name, value in attributes.items():
        if type(value) is int and not name.startswith("_"):
            found[name] = value
            if len(found) >= limit:
                break
    return found
