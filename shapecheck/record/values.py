"""What the recorder keeps of a value: tensors (shape, dtype, device), tuples, lists and dicts of them, scalars, and
the int settings of configuration objects.

Descriptions are plain JSON data so that a record is a readable file and merges across runs:
`{"t": "tensor", "shape": [2, 3], "dtype": "float32", "device": "cpu"}`, `{"t": "tuple", "items": [...]}`,
`{"t": "dict", "items": {"k": ...}}`, `{"t": "int", "v": 3}`, `{"t": "float"}`, `{"t": "bool"}`, `{"t": "str"}`,
`{"t": "none"}`, `{"t": "config", "ints": {"n_embd": 32}}` (a dataclass, namedtuple or namespace of settings);
anything else is `{"t": "other"}`.
"""

from __future__ import annotations

import sys
from typing import Any

Description = dict[str, Any]

# Containers deeper or longer than this are described as "other": a record must stay small whatever a program passes.
_MAX_DEPTH = 3
_MAX_ITEMS = 16
_MAX_SETTINGS = 64
_SCALARS = {float: "float", bool: "bool", str: "str"}


def describe(value: Any, depth: int = 0) -> Description:
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if getattr(value, "is_nested", False):
            return {"t": "other"}
        return {"t": "tensor", "shape": [int(size) for size in value.shape],
                "dtype": str(value.dtype).removeprefix("torch."), "device": value.device.type}
    if value is None:
        return {"t": "none"}
    kind = type(value)
    if kind is int:
        return {"t": "int", "v": value}
    if kind in _SCALARS:
        return {"t": _SCALARS[kind]}
    if depth < _MAX_DEPTH:
        if kind in (tuple, list) and len(value) <= _MAX_ITEMS:
            return {"t": kind.__name__, "items": [describe(item, depth + 1) for item in value]}
        if kind is dict and len(value) <= _MAX_ITEMS and all(type(key) is str for key in value):
            return {"t": "dict", "items": {key: describe(item, depth + 1) for key, item in value.items()}}
    settings = config_ints(value)
    if settings:
        return {"t": "config", "ints": settings}
    return {"t": "other"}


def signature(value: Any, tensor: type | None, depth: int = 0) -> Any:
    """A hashable key for what the annotation of `value` depends on: tensors' shapes and dtypes (`tensor` is
    torch.Tensor, or None before torch is imported), the structure of containers and the kind of anything else. Int
    values are left out: a step counter must not make every call a new sample of a function whose tensors keep their
    shapes. Called on every call of a recorded function, so it asks as little as it can."""
    kind = type(value)
    if kind is tensor or tensor is not None and _is_tensor_kind(kind, tensor):
        try:
            return (value.shape, value.dtype)
        except RuntimeError:  # a nested tensor has no one shape
            return "nested"
    if (kind is tuple or kind is list) and depth < _MAX_DEPTH and len(value) <= _MAX_ITEMS:
        return (kind, *[signature(item, tensor, depth + 1) for item in value])
    if kind is dict and depth < _MAX_DEPTH and len(value) <= _MAX_ITEMS:
        return (dict, *[(key, signature(item, tensor, depth + 1)) for key, item in value.items()])
    return kind


_TENSOR_KINDS: dict[type, bool] = {}


def _is_tensor_kind(kind: type, tensor: type) -> bool:
    known = _TENSOR_KINDS.get(kind)
    if known is None:
        known = _TENSOR_KINDS[kind] = issubclass(kind, tensor)
    return known


def has_tensor(key: Any) -> bool:
    """Whether a `signature` has a tensor in it."""
    if type(key) is tuple:
        if len(key) == 2 and isinstance(key[0], tuple) and not isinstance(key[1], (type, str, tuple)):
            return True  # (shape, dtype)
        return any(has_tensor(item) for item in key)
    return False


def int_attributes(obj: Any, limit: int = _MAX_SETTINGS) -> dict[str, int]:
    """The int-valued instance attributes of `obj` (`self.n_embd`), and those of the configuration objects it holds
    (`self.config.n_embd`, `self.args.dim`, `self._global_params.num_classes`), each under its own attribute name
    (the object's own attribute first): candidates for naming a size."""
    try:
        attributes = vars(obj)
    except TypeError:
        return {}
    found: dict[str, int] = {}
    held = []
    for name, value in attributes.items():
        if name.startswith("__"):
            continue
        if type(value) is int:
            found.setdefault(name.lstrip("_"), value)
        elif _is_config(value):
            held.append(value)
        if len(found) >= limit:
            return found
    for config in held:
        for name, value in config_ints(config).items():
            found.setdefault(name, value)
            if len(found) >= limit:
                return found
    return found


def config_ints(value: Any) -> dict[str, int]:
    """The int settings of a configuration object (a dataclass, a namedtuple, `argparse.Namespace`,
    `types.SimpleNamespace`, or a class whose name says it is one: `GPTConfig`, `ModelArgs`, `ModelDimensions`),
    or {} for anything else."""
    if not _is_config(value):
        return {}
    if isinstance(value, tuple):
        items = value._asdict().items()
    else:
        items = vars(value).items()
    found: dict[str, int] = {}
    for name, item in items:
        if type(item) is int and not name.startswith("__"):
            found[name.lstrip("_")] = item
            if len(found) >= _MAX_SETTINGS:
                break
    return found


_CONFIG_WORDS = ("config", "args", "params", "dimensions", "dims", "settings", "hparams", "options", "cfg")


_KINDS: dict[type, bool] = {}  # per type: whether its instances are configuration objects


def _is_config(value: Any) -> bool:
    kind = type(value)
    known = _KINDS.get(kind)
    if known is None:
        known = _KINDS[kind] = _config_kind(kind)
    # A class whose name says it is a configuration must hold settings, not be a module or a function.
    return known and (isinstance(value, tuple) or hasattr(value, "__dict__"))


def _config_kind(kind: type) -> bool:
    if issubclass(kind, tuple):
        return hasattr(kind, "_fields") and hasattr(kind, "_asdict")  # a namedtuple
    if kind.__module__ in ("argparse", "types") and kind.__name__ in ("Namespace", "SimpleNamespace"):
        return True
    called = any("__call__" in vars(klass) for klass in kind.__mro__ if klass is not object)
    if issubclass(kind, type) or called and not hasattr(kind, "__dataclass_fields__"):
        return False  # classes, and objects that are called (nn.Module, functions)
    if hasattr(kind, "__dataclass_fields__"):
        return True
    return kind.__name__.lower().endswith(_CONFIG_WORDS)
