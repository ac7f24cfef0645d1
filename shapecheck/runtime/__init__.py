"""Run-time half of shapecheck: `@check` enforces jaxtyping shapes, dtypes and device agreement.

The names load lazily so that importing a submodule that needs neither torch nor jaxtyping (the pytest plugin,
which pytest imports in every run) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shapecheck.runtime.decorator import check
    from shapecheck.runtime.errors import CheckError, DeviceError, ShapeError
    from shapecheck.runtime.import_hook import install_import_hook
    from shapecheck.runtime.switch import disable, disabled, enable

_HOMES = {
    "check": "decorator",
    "CheckError": "errors",
    "ShapeError": "errors",
    "DeviceError": "errors",
    "disable": "switch",
    "enable": "switch",
    "disabled": "switch",
    "install_import_hook": "import_hook",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'shapecheck.runtime' has no attribute {name!r}")
    from shapecheck.runtime.dependencies import required_by

    with required_by(f"shapecheck.{name}"):
        value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
