"""shapecheck: catch PyTorch shape bugs and training pitfalls, statically (`shapecheck lint`) and at run time
(`@shapecheck.check`).

Importing this package is cheap and never imports torch: the runtime names below load `shapecheck.runtime` (and
torch with it) on first use, so the linter and its pre-commit hook stay free of torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shapecheck.version import __version__

_RUNTIME_NAMES = frozenset(
    {"check", "CheckError", "ShapeError", "DeviceError", "disable", "enable", "disabled", "install_import_hook"}
)

if TYPE_CHECKING:
    from shapecheck.runtime import (
        CheckError, DeviceError, ShapeError, check, disable, disabled, enable, install_import_hook,
    )


def load_ipython_extension(shell: Any) -> None:
    """`%load_ext shapecheck`: lint each cell before it runs and check what cells define (shapecheck.ipython_extension)."""
    from shapecheck.ipython_extension import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell: Any) -> None:
    from shapecheck.ipython_extension import unload_ipython_extension as unload

    unload(shell)


def __getattr__(name: str) -> Any:
    if name in _RUNTIME_NAMES:
        import shapecheck.runtime as runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'shapecheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_RUNTIME_NAMES})


__all__ = sorted(_RUNTIME_NAMES)
