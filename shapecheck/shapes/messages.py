"""How the shape rules quote code in their messages: short, in backticks, as the file spells it."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context

_LIMIT = 40


def quoted(ctx: Context, node: cst.CSTNode) -> str:
    """`` `pred - y` ``; a long expression cut to its first characters (`` `F.log_softmax(self.head(...` ``)."""
    if getattr(node, "lpar", None):
        node = node.with_changes(lpar=[], rpar=[])  # `pred - y`, not `(pred - y)`
    text = " ".join(ctx.code(node).split())
    return f"`{text}`" if len(text) <= _LIMIT else f"`{text[:_LIMIT - 3]}...`"
