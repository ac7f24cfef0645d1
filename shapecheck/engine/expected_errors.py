"""Where the code expects PyTorch to raise: a test's `with pytest.raises(...)` or a probe's `try` around the very
error a rule would report, which is then intended, not a bug."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import last_name

_TORCH_ERRORS = frozenset({"RuntimeError", "TypeError", "Exception", "BaseException"})


def expects_error(ctx: Context) -> bool:
    """The node being visited is where the code expects PyTorch to raise: under `with pytest.raises(...)` /
    `self.assertRaises(...)`, or in the body of a `try` that catches a `RuntimeError` / `TypeError` (or any
    exception): a test or a probe of the very error a rule reports."""
    ancestors = ctx.ancestors
    for index in range(len(ancestors) - 2, -1, -1):
        ancestor = ancestors[index]
        kind = type(ancestor)
        if kind is cst.Try and ancestors[index + 1] is ancestor.body:
            if any(_catches_torch_errors(handler.type) for handler in ancestor.handlers):
                return True
        elif kind is cst.With:
            for item in ancestor.items:
                name = last_name(item.item.func) if type(item.item) is cst.Call else ""
                if name == "raises" or name.startswith("assertRaises"):
                    return True
        elif kind is cst.FunctionDef or kind is cst.ClassDef:
            break
    return False


def _catches_torch_errors(caught: cst.BaseExpression | None) -> bool:
    if caught is None:
        return True
    names = [e.value for e in caught.elements] if type(caught) is cst.Tuple else [caught]
    return any(type(n) is cst.Name and n.value in _TORCH_ERRORS for n in names)
