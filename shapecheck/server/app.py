"""The pygls Language Server behind `shapecheck server`: diagnostics on open, change and save, code actions for
fixes, `# noqa` and fix-all; for Python files and for Jupyter notebooks' cells.

Each handler lints the document's current text with `Documents` (settings of its path, incremental re-parse) and
publishes the findings; code actions come from the latest lint of the version the editor shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from shapecheck import __version__
from shapecheck.config import ConfigError
from shapecheck.engine.noqa import noqa_blocked_rows
from shapecheck.engine.source import ParsedSource, split_lines
from shapecheck.findings import FileResult, Finding
from shapecheck.runner import with_large_stack
from shapecheck.server import shapes
from shapecheck.server.documents import Documents, Linted
from shapecheck.server.idle import IdleCollector
from shapecheck.server.protocol import (
    FIX_ALL, Converter, diagnostic, fix_action, fix_all_action, noqa_action, overlaps,
)


T = TypeVar("T")

# Jupyter notebooks' Python cells, which editors then send as notebookDocument/* with every cell.
NOTEBOOKS = types.NotebookDocumentSyncOptions(notebook_selector=[types.NotebookDocumentFilterWithCells(
    notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")])])


class ShapecheckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("shapecheck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         notebook_document_sync=NOTEBOOKS)
        self.documents = Documents()
        self.linted_uris: set[str] = set()  # the open documents that are Python source
        self.notebook_cells: dict[str, list[str]] = {}  # notebook uri -> its cells' uris, as last published
        self._shown_errors: set[str] = set()  # configuration errors already shown, not repeated per keystroke
        self.idle = IdleCollector()


server = ShapecheckServer()


def _is_python(document: TextDocument) -> bool:
    # .pyi stubs are not linted (no code runs there), as `shapecheck lint` passes them over.
    if document.path is not None and not document.path.endswith(".pyi"):
        return document.language_id == "python" or document.path.endswith(".py")
    return document.language_id == "python"


def _lint_and_publish(ls: ShapecheckServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    result = _reported(ls, uri, lambda: ls.documents.lint(uri, document.path, document.source, document.version))
    diagnostics = []
    if result is not None:
        convert = Converter(split_lines(document.source), document.position_codec)
        diagnostics = [diagnostic(finding, convert) for finding in result.findings]
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=document.version, diagnostics=diagnostics))
    ls.idle.linted()


def _reported(ls: ShapecheckServer, uri: str, lint: Callable[[], FileResult | None]) -> FileResult | None:
    """`lint()`, with a broken configuration shown once and a file that could not be linted logged."""
    try:
        result = lint()
    except ConfigError as error:
        message = f"shapecheck: {error}"
        if message not in ls._shown_errors:
            ls._shown_errors.add(message)
            ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))
        return None
    if result is not None and (result.error or result.warning):
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Warning, message=f"shapecheck: {uri}: {result.error or result.warning}"))
    return result


def _lint_notebook_and_publish(ls: ShapecheckServer, uri: str) -> None:
    """Lint a notebook's cells as one module and publish each cell's findings on that cell, as ruff does."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=uri)
    if notebook is None:
        return
    cells = [(cell, ls.workspace.get_text_document(cell.document)) for cell in notebook.cells]
    texts = [(cell.kind == types.NotebookCellKind.Code, document.source) for cell, document in cells]
    result = _reported(ls, uri, lambda: ls.documents.lint_cells(uri, to_fs_path(uri), texts))
    by_cell: dict[int, list[Finding]] = {}
    for finding in result.findings if result is not None else []:
        by_cell.setdefault(finding.cell or 1, []).append(finding)
    for number, (cell, document) in enumerate(cells, start=1):
        findings = by_cell.get(number, [])
        ls.documents.linted[cell.document] = Linted(document.version, document.source,
                                                    FileResult(cell.document, findings))
        convert = Converter(split_lines(document.source), document.position_codec)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=cell.document, version=document.version, diagnostics=[diagnostic(f, convert) for f in findings]))
    current = [cell.document for cell, _ in cells]
    for gone in set(ls.notebook_cells.get(uri, ())) - set(current):  # deleted cells: clear what they showed
        ls.documents.linted.pop(gone, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
    ls.notebook_cells[uri] = current
    ls.idle.linted()


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_did_open(ls: ShapecheckServer, params: types.DidOpenNotebookDocumentParams) -> None:
    _lint_notebook_and_publish(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_did_change(ls: ShapecheckServer, params: types.DidChangeNotebookDocumentParams) -> None:
    _lint_notebook_and_publish(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def notebook_did_save(ls: ShapecheckServer, params: types.DidSaveNotebookDocumentParams) -> None:
    _lint_notebook_and_publish(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def notebook_did_close(ls: ShapecheckServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    for cell in ls.notebook_cells.pop(uri, []):
        ls.documents.linted.pop(cell, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell, diagnostics=[]))
    ls.documents.forget(uri)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ShapecheckServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_python(ls.workspace.get_text_document(uri)):
        ls.linted_uris.add(uri)
        _lint_and_publish(ls, uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ShapecheckServer, params: types.DidChangeTextDocumentParams) -> None:
    if params.text_document.uri in ls.linted_uris:
        _lint_and_publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: ShapecheckServer, params: types.DidSaveTextDocumentParams) -> None:
    # The text is the same as after the last change, but a saved pyproject.toml may have changed the settings.
    if params.text_document.uri in ls.linted_uris:
        _lint_and_publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ShapecheckServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri in ls.linted_uris:
        ls.linted_uris.discard(uri)
        ls.documents.forget(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
def code_action(ls: ShapecheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    notebook = ls.workspace.get_notebook_document(cell_uri=uri)
    if uri not in ls.linted_uris and notebook is None:
        return []
    document = ls.workspace.get_text_document(uri)
    linted = _current_lint(ls, uri, document, notebook)
    if linted is None:
        return []
    only = params.context.only
    wanted = (lambda kind: any(kind == o or kind.startswith(f"{o}.") for o in only)) if only else (lambda kind: True)
    convert = Converter(split_lines(linted.text), document.position_codec)
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix):
        here = [f for f in linted.result.findings if overlaps(convert.range(f.location, f.end_location), params.range)]
        blocked = noqa_blocked_rows(linted.text) if here else None
        for finding in here:
            for action in (fix_action(uri, linted.version, finding, convert),
                           noqa_action(uri, linted.version, finding, convert, blocked)):
                if action is not None:
                    actions.append(action)
    safe_fixes = any(f.fix is not None and f.fix.applicability == "safe" for f in linted.result.findings)
    if notebook is None and wanted(FIX_ALL) and safe_fixes:  # notebooks: per finding only
        fixed = ls.documents.fixed(uri, document.path, linted.text, unsafe=False)
        if fixed is not None:
            actions.append(fix_all_action(uri, linted.version, fixed, convert))
    return actions


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: ShapecheckServer, params: types.HoverParams) -> types.Hover | None:
    """The shape of the expression under the cursor, and where its value was bound."""
    found = _parsed(ls, params.text_document.uri)
    if found is None:
        return None
    document, source, convert = found
    position = document.position_codec.position_from_client_units(convert.lines, params.position)
    return _shapes_safely(ls, document.uri, shapes.hover, source, _name(document), position.line,
                          position.character, convert)


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
def inlay_hint(ls: ShapecheckServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The shape each assignment in the range gives its target."""
    found = _parsed(ls, params.text_document.uri)
    if found is None:
        return []
    _, source, convert = found
    return _shapes_safely(ls, params.text_document.uri, shapes.inlay_hints, source, _name(found[0]),
                          params.range.start.line, params.range.end.line, convert) or []


def _parsed(ls: ShapecheckServer, uri: str) -> tuple[TextDocument, ParsedSource, Converter] | None:
    """An open Python document (not a notebook cell: a cell's names come from the cells before it) and its
    parse, or None."""
    if uri not in ls.linted_uris:
        return None
    document = ls.workspace.get_text_document(uri)
    try:
        source = ls.documents.parsed(uri, document.path, document.source)
    except ConfigError:
        return None
    if source is None:
        return None
    return document, source, Converter(source.lines, document.position_codec)


def _name(document: TextDocument) -> str:
    return document.path or document.uri


def _shapes_safely(ls: ShapecheckServer, uri: str, ask: Callable[..., T], *args: object) -> T | None:
    """`ask(*args)` on the large-stack thread; an analysis bug is logged, never a dead server."""
    try:
        return with_large_stack(ask, *args)
    except RecursionError:
        return None
    except Exception as error:  # noqa: BLE001 - a hover must not take the server down
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Warning,
            message=f"shapecheck: {uri}: the shape analysis failed: {type(error).__name__}: {error}; please report it"))
        return None


def _current_lint(ls: ShapecheckServer, uri: str, document: TextDocument,
                  notebook: types.NotebookDocument | None) -> Linted | None:
    linted = ls.documents.linted.get(uri)
    if linted is None or linted.version != document.version or linted.text != document.source:
        if notebook is not None:
            _lint_notebook_and_publish(ls, notebook.uri)
        else:
            _lint_and_publish(ls, uri)
        linted = ls.documents.linted.get(uri)
    return linted


def serve() -> None:
    """Serve one editor over standard input and output until it exits."""
    server.idle.linted()  # the imports live as long as the server
    server.start_io()
