"""Findings as the Language Server Protocol carries them: diagnostics, and code actions that apply a fix, add a
`# noqa` comment, or apply every safe fix in the document.

Findings count lines from 1 and columns in code points from 1; LSP counts both from 0 and columns in the code
units the client negotiated (UTF-16 unless it asked for another), which `codec` converts to.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.workspace.position_codec import PositionCodec

from shapecheck.engine.noqa import with_codes
from shapecheck import urls
from shapecheck.findings import INTERNAL_ERROR, SYNTAX_ERROR, Edit, Finding, Location

SOURCE = "shapecheck"
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"  # "source.fixAll.shapecheck"
DIAGNOSTIC = default_converter()  # the code actions' diagnostics, from their JSON


class Converter:
    """Positions of one version of one document in the client's units."""

    def __init__(self, lines: Sequence[str], codec: PositionCodec) -> None:
        self.lines = lines
        self.codec = codec

    def position(self, location: Location) -> types.Position:
        line, character = self.place(location)
        return types.Position(line=line, character=character)

    def place(self, location: Location) -> tuple[int, int]:
        """A location's line and character, as a `Position` holds them."""
        line, character = location.row - 1, location.column - 1
        if line < len(self.lines) and self.lines[line].isascii():
            # A code point is one unit in every encoding: the codec's conversion of a finding's two positions, on
            # every keystroke, was 5 ms of the server's own time per edit with 116 findings
            return line, min(character, len(self.lines[line]))
        found = self.codec.position_to_client_units(self.lines, types.Position(line=line, character=character))
        return found.line, found.character

    def range(self, start: Location, end: Location) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))


def diagnostic(finding: Finding, convert: Converter) -> types.Diagnostic:
    return DIAGNOSTIC.structure(diagnostic_data(finding, convert), types.Diagnostic)


def diagnostic_data(finding: Finding, convert: Converter) -> dict[str, object]:
    """A finding's `Diagnostic` as its JSON carries it. The server publishes these on every keystroke: building
    lsprotocol's objects and unstructuring them again with cattrs was most of the server's own time per edit."""
    (line, character), (end_line, end_character) = convert.place(finding.location), convert.place(finding.end_location)
    data: dict[str, object] = {
        "range": {"start": {"line": line, "character": character},
                  "end": {"line": end_line, "character": end_character}},
        "message": finding.message,
        # The rule's severity: an error crashes or silently corrupts results, a warning is deprecation, style or
        # speed.
        "severity": (types.DiagnosticSeverity.Error if finding.severity == "error"
                     else types.DiagnosticSeverity.Warning).value,
        "code": finding.code}
    page = urls.rule_page(finding.code)
    if page is not None:
        data["codeDescription"] = {"href": page}
    data["source"] = SOURCE
    return data


def overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _document_edit(uri: str, version: int | None, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    # Versioned: the client refuses the edit if the document changed since the lint it came from.
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=edits)])


def fix_action(uri: str, version: int | None, finding: Finding, convert: Converter) -> types.CodeAction | None:
    fix = finding.fix
    if fix is None:
        return None
    marker = "safe fix" if fix.applicability == "safe" else "unsafe fix: it changes behaviour, review it"
    edits = [_text_edit(edit, convert) for edit in fix.edits]
    return types.CodeAction(title=f"{finding.code}: {fix.message} ({marker})", kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic(finding, convert)], is_preferred=fix.applicability == "safe",
                            edit=_document_edit(uri, version, edits))


def _text_edit(edit: Edit, convert: Converter) -> types.TextEdit:
    return types.TextEdit(range=convert.range(edit.location, edit.end_location), new_text=edit.content)


def noqa_action(uri: str, version: int | None, finding: Finding, convert: Converter, blocked: set[int] | None
                ) -> types.CodeAction | None:
    """`# noqa: CODE` at the end of the finding's first line, unless a comment cannot go there (inside a
    multi-line string, after a backslash) or the document does not tokenize (`blocked` is None)."""
    row = finding.location.row
    if finding.code in (SYNTAX_ERROR, INTERNAL_ERROR) or blocked is None or row in blocked:
        return None
    line = convert.lines[row - 1].rstrip("\r\n")
    new_line = with_codes(line, [finding.code])
    if new_line is None:  # a bare noqa comment already silences it, or the directive there is invalid
        return None
    edit = types.TextEdit(range=convert.range(Location(row, 1), Location(row, len(line) + 1)), new_text=new_line)
    return types.CodeAction(title=f"{finding.code}: disable for this line (# noqa)", kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic(finding, convert)], edit=_document_edit(uri, version, [edit]))


def fix_all_action(uri: str, version: int | None, fixed: str, convert: Converter) -> types.CodeAction:
    """One edit that replaces the whole document with its fixed text."""
    end = Location(len(convert.lines) + 1, 1)
    edit = types.TextEdit(range=convert.range(Location(1, 1), end), new_text=fixed)
    return types.CodeAction(title="shapecheck: fix all safe findings", kind=FIX_ALL,
                            edit=_document_edit(uri, version, [edit]))
