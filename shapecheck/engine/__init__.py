"""The lint engine: one parse and one traversal per file, shared analysis, and the rule interface.

The names below load on first use: `shapecheck.engine.registry` (which the configuration imports to check rule
codes) must not pull in libcst, so that a run answered from the result cache never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shapecheck.engine.context import Binding, CallSite, Context
    from shapecheck.engine.rule import Fix, Invalid, Rule

_WHERE = {"Binding": "context", "CallSite": "context", "Context": "context", "Fix": "rule", "Invalid": "rule",
          "Rule": "rule"}

__all__ = ["Binding", "CallSite", "Context", "Fix", "Invalid", "Rule"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
