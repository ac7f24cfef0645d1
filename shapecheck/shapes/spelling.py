"""A constructor call as a message quotes it (`nn.Linear(32, 10)`), on one line and short.

A layer keeps its constructor's spelling for the message that may name it, but few layers a lint reads ever reach
one, while generating a node's source is the costliest part of reading a layer (a tenth of a clean file's first run
beyond libcst's import and parse went to spelling layers no message named). `Spelled` makes the text on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from shapecheck.engine.context import Context

MAX_SPELLED = 80


def spelled(ctx: Context, node: cst.CSTNode) -> str:
    """A constructor call as the code writes it, on one line and short enough for a message."""
    text = " ".join(ctx.code(node).split())
    text = text.replace("( ", "(").replace(" )", ")").replace(", )", ")")
    return text if len(text) <= MAX_SPELLED else text[:MAX_SPELLED - 4] + " ...)"


class Spelled:
    """`spelled(ctx, node)`, made when a message (or a comparison of layers) first asks for it. It formats, compares
    and hashes as that text, so a layer holding it is the layer holding the string."""

    __slots__ = ("_ctx", "_node", "_text")

    def __init__(self, ctx: Context, node: cst.CSTNode) -> None:
        self._ctx: Context | None = ctx
        self._node: cst.CSTNode | None = node
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            assert self._ctx is not None and self._node is not None
            self._text = spelled(self._ctx, self._node)
            self._ctx = self._node = None  # nothing more to read: the module's context need not outlive the lint
        return self._text

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Spelled):
            return (self._node is not None and self._node is other._node) or str(self) == str(other)
        return str(self) == other if isinstance(other, str) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))
