"""The analysis of the open documents, done in the server's worker process (`worker`): each document keeps its
incremental analysis (`incremental`) from one lint to the next; lints, fixes, hover and inlay hints are asked with
the document's text and the rules its settings give (the server works those out).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.guard import TooComplex
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import ParsedSource
from shapecheck.findings import FileResult
from shapecheck.runner import lint_decoded
from shapecheck.server import shapes
from shapecheck.server.incremental import Incremental
from shapecheck.server.protocol import Converter


class Analyses:
    def __init__(self) -> None:
        self._documents: dict[str, Incremental] = {}  # uri -> what its latest lint kept for the next one

    def lint(self, uri: str, name: str, text: str, rules: Sequence[type[Rule]], options: FileOptions) -> FileResult:
        """Lint the document's text (a notebook's JSON when `name` ends in .ipynb) as `shapecheck lint` would."""
        return lint_decoded(text, name, rules, None, self._documents.setdefault(uri, Incremental()), options)

    def fixed(self, name: str, text: str, rules: Sequence[type[Rule]], unsafe: bool, options: FileOptions
              ) -> str | None:
        """The text with every safe (or also unsafe) fix applied; None when nothing changes."""
        return lint_decoded(text, name, rules, "unsafe" if unsafe else "safe", options=options).new_source

    def forget(self, uri: str) -> None:
        self._documents.pop(uri, None)

    def hover(self, uri: str, name: str, text: str, line: int, character: int, encoding: str) -> types.Hover | None:
        source = self._parsed(uri, text)
        if source is None:
            return None
        return shapes.hover(source, name, line, character, Converter(source.lines, PositionCodec(encoding)))

    def inlay_hints(self, uri: str, name: str, text: str, first: int, last: int, encoding: str
                    ) -> list[types.InlayHint]:
        source = self._parsed(uri, text)
        if source is None:
            return []
        return shapes.inlay_hints(source, name, first, last, Converter(source.lines, PositionCodec(encoding)))

    def _parsed(self, uri: str, text: str) -> ParsedSource | None:
        """The text parsed, re-using the document's latest parse; None when it does not parse."""
        try:
            return self._documents.setdefault(uri, Incremental()).parse(text)
        except (TooComplex, cst.ParserSyntaxError, SyntaxError, RecursionError):
            return None
