"""Error text: one short message, no tensor values.

    shapecheck: attend() argument 'k' does not match Float[Tensor, "B H S D"]
      k.shape[3] is D=6, but q.shape[3] bound D=4
      bound: B=2 H=4 T=8 D=4 S=8
      q: shape (2, 4, 8, 4)  float32  cpu
      k: shape (2, 4, 8, 6)  float32  cpu

Only called once a check has failed, so it may be slow.
"""

from __future__ import annotations

from typing import Any

import torch

from shapecheck.runtime.devices import named_tensors
from shapecheck.runtime.errors import DeviceError, ShapeError
from shapecheck.runtime.text import dtype_text, hint_text, shape_text

_MAX_VALUE_LINES = 10  # keeps the whole message around 10-15 lines however many arguments there are
_MAX_NAMES = 6
_SCALARS = (bool, int, float)  # printed with their value: often the size a dimension should have had


def shape_error(function: str, role: str, hint: Any, reason: str, memo: dict,
                values: list[tuple[str, Any]]) -> ShapeError:
    lines = [f"shapecheck: {function}() {role} does not match {hint_text(hint)}", reason]
    bindings = [f"{key}={_size_text(value)}" for key, value in memo.items() if not key.startswith("{")]
    if bindings:
        lines.append("bound: " + " ".join(bindings))
    return ShapeError("\n  ".join(lines + value_lines(values)))


def device_error(function: str, by_device: dict[torch.device, list[str]], values: list[tuple[str, Any]],
                 required: torch.device | None = None) -> DeviceError:
    if required is not None:
        found = ", ".join(f"{device}" for device in by_device)
        lines = [f"shapecheck: {function}() requires device {required}, but its tensors are on {found}"]
    else:
        (first, first_names), (second, second_names) = list(by_device.items())[:2]
        lines = [f"shapecheck: {function}() got tensors on {len(by_device)} devices; all must share one",
                 f"{first_names[0]} is on {first}, but {second_names[0]} is on {second}"]
    for device, names in by_device.items():
        more = f" (+{len(names) - _MAX_NAMES} more)" if len(names) > _MAX_NAMES else ""
        lines.append(f"on {device}: {', '.join(names[:_MAX_NAMES])}{more}")
    return DeviceError("\n  ".join(lines + value_lines(values)))


def value_lines(values: list[tuple[str, Any]]) -> list[str]:
    """One line per argument (and per tensor inside a container argument): shape, dtype, device."""
    lines = []
    for name, value in values:
        tensors = named_tensors(name, value)
        if tensors:
            lines += [f"{path}: {_tensor_shape_text(tensor)}  {dtype_text(tensor.dtype)}  {tensor.device}"
                      for path, tensor in tensors]
        elif isinstance(value, _SCALARS):
            lines.append(f"{name}: {type(value).__name__} = {value!r}")
        else:
            lines.append(f"{name}: {type(value).__name__}")
    if len(lines) > _MAX_VALUE_LINES:
        lines[_MAX_VALUE_LINES - 1:] = [f"... and {len(lines) - _MAX_VALUE_LINES + 1} more"]
    return lines


def _tensor_shape_text(tensor: Any) -> str:
    if tensor.is_nested:  # its parts differ in shape: it has none of its own
        return f"nested tensor of {tensor.size(0)} parts"
    return f"shape {shape_text(tensor.shape)}"


def _size_text(value: Any) -> str:
    # Variadic dimensions are memoised as (broadcastable, sizes).
    return shape_text(value[1]) if isinstance(value, tuple) else f"{value}"  # not str(): see shape_text
