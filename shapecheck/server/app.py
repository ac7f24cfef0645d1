"""The pygls Language Server behind `shapecheck server`: diagnostics on open, change and save, code actions for
fixes, `# noqa` and fix-all, hover and inlay hints with the shapes the analysis infers; for Python files and for
Jupyter notebooks' cells.

The analysis runs in a worker process (`worker`), one job at a time, while the event loop goes on reading messages:
edits that arrive during a lint are linted together once it is done, and a lint whose document has changed again
meanwhile is not published (the next one is already queued). Each lint takes the document's text at its start and
publishes with that text's version. Code actions come from the latest lint of the version the editor shows. A
document whose lint goes over `shapecheck lint`'s per-file budget is reported once and linted again when saved.
Messages the server cannot use are answered or dropped (`jsonrpc`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from shapecheck.version import __version__
from shapecheck.config import ConfigError
from shapecheck.engine.noqa import noqa_blocked_rows
from shapecheck.engine.source import split_lines
from shapecheck.findings import FileResult, Finding
from shapecheck.server import jsonrpc
from shapecheck.server.documents import Documents, Linted
from shapecheck.server.protocol import (
    FIX_ALL, Converter, diagnostic_data, fix_action, fix_all_action, noqa_action, overlaps,
)

T = TypeVar("T")

# Jupyter notebooks' Python cells, which editors then send as notebookDocument/* with every cell.
NOTEBOOKS = types.NotebookDocumentSyncOptions(notebook_selector=[types.NotebookDocumentFilterWithCells(
    notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")])])


class ShapecheckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("shapecheck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         notebook_document_sync=NOTEBOOKS, protocol_cls=jsonrpc.ShapecheckProtocol)
        self.documents = Documents()
        self.linted_uris: set[str] = set()  # the open documents that are Python source
        self.notebook_cells: dict[str, list[str]] = {}  # notebook uri -> its cells' uris, as last published
        self._shown_errors: set[str] = set()  # configuration errors already shown, not repeated per keystroke
        self.busy = asyncio.Lock()  # held while the worker works for us: one job at a time
        self.queued: set[str] = set()  # documents and notebooks whose lint waits for the worker
        self._tasks: set[asyncio.Task] = set()

    def report_server_error(self, error: Exception, source: type) -> None:
        if source is not FeatureRequestError:  # a request's error is in its response already
            jsonrpc.report(self, error)


server = ShapecheckServer()


def _is_python(document: TextDocument) -> bool:
    # .pyi stubs are not linted (no code runs there), as `shapecheck lint` passes them over.
    if document.path is not None and not document.path.endswith(".pyi"):
        return document.language_id == "python" or document.path.endswith(".py")
    return document.language_id == "python"


# ----------------------------------------------------------------------------------------------------- linting


def _request_lint(ls: ShapecheckServer, uri: str) -> None:
    """Lint a document or notebook as soon as the worker is free (at once when it is)."""
    if uri in ls.queued:
        return  # the lint already queued will read this edit too
    ls.queued.add(uri)
    task = asyncio.get_running_loop().create_task(_lint_queued(ls, uri))
    ls._tasks.add(task)
    task.add_done_callback(ls._tasks.discard)


async def _lint_queued(ls: ShapecheckServer, uri: str) -> None:
    async with ls.busy:
        ls.queued.discard(uri)
        try:
            if ls.workspace.get_notebook_document(notebook_uri=uri) is not None:
                await _lint_notebook(ls, uri)
            elif uri in ls.linted_uris:
                await _lint_document(ls, uri)
        except Exception as error:  # noqa: BLE001 - a bug in one lint must not stop the next
            jsonrpc.report(ls, error)


async def _lint_document(ls: ShapecheckServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    text, version = document.source, document.version
    result = await _reported(ls, uri, ls.documents.lint, uri, document.path, text, version)
    if uri not in ls.linted_uris or uri in ls.queued:
        return  # closed, or edited again meanwhile: the next lint publishes
    convert = Converter(split_lines(text), document.position_codec)
    ls.protocol.publish_diagnostics(uri, version, [diagnostic_data(finding, convert) for finding in result.findings]
                                    if result is not None else [])


async def _reported(ls: ShapecheckServer, uri: str, lint: Callable[..., Awaitable[FileResult | None]],
                    *args: object) -> FileResult | None:
    """`await lint(*args)`, with a broken configuration and a lint given up shown once, and a file that could not
    be linted logged."""
    try:
        result = await lint(*args)
    except ConfigError as error:
        _show_once(ls, f"shapecheck: {error}")
        return None
    if result is not None and (result.error or result.warning):
        message = f"shapecheck: {uri}: {result.error or result.warning}"
        if uri in ls.documents.not_linted:  # given up: said once, as the lint will not run again until a save
            _show_once(ls, f"{message} (linted again when saved)", types.MessageType.Warning)
        ls.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=message))
    return result


def _show_once(ls: ShapecheckServer, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
    if message not in ls._shown_errors:
        ls._shown_errors.add(message)
        ls.window_show_message(types.ShowMessageParams(type=kind, message=message))


async def _lint_notebook(ls: ShapecheckServer, uri: str) -> None:
    """Lint a notebook's cells as one module and publish each cell's findings on that cell, as ruff does."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=uri)
    if notebook is None:
        return
    cells = [(cell, ls.workspace.get_text_document(cell.document)) for cell in notebook.cells]
    versions = [(document.version, document.source) for _, document in cells]
    texts = [(cell.kind == types.NotebookCellKind.Code, source) for (cell, _), (_, source) in zip(cells, versions)]
    result = await _reported(ls, uri, ls.documents.lint_cells, uri, to_fs_path(uri), texts)
    if ls.workspace.get_notebook_document(notebook_uri=uri) is None or uri in ls.queued:
        return
    by_cell: dict[int, list[Finding]] = {}
    for finding in result.findings if result is not None else []:
        by_cell.setdefault(finding.cell or 1, []).append(finding)
    for number, ((cell, document), (version, source)) in enumerate(zip(cells, versions), start=1):
        findings = by_cell.get(number, [])
        ls.documents.linted[cell.document] = Linted(version, source, FileResult(cell.document, findings))
        convert = Converter(split_lines(source), document.position_codec)
        ls.protocol.publish_diagnostics(cell.document, version, [diagnostic_data(f, convert) for f in findings])
    current = [cell.document for cell, _ in cells]
    for gone in set(ls.notebook_cells.get(uri, ())) - set(current):  # deleted cells: clear what they showed
        ls.documents.linted.pop(gone, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
    ls.notebook_cells[uri] = current


# --------------------------------------------------------------------------------------------- document events


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_did_open(ls: ShapecheckServer, params: types.DidOpenNotebookDocumentParams) -> None:
    _request_lint(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_did_change(ls: ShapecheckServer, params: types.DidChangeNotebookDocumentParams) -> None:
    _request_lint(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def notebook_did_save(ls: ShapecheckServer, params: types.DidSaveNotebookDocumentParams) -> None:
    if ls.workspace.get_notebook_document(notebook_uri=params.notebook_document.uri) is not None:
        _request_lint(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
async def notebook_did_close(ls: ShapecheckServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    async with ls.busy:
        for cell in ls.notebook_cells.pop(uri, []):
            ls.documents.linted.pop(cell, None)
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell, diagnostics=[]))
        await ls.documents.forget(uri)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ShapecheckServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_python(ls.workspace.get_text_document(uri)):
        ls.linted_uris.add(uri)
        _request_lint(ls, uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ShapecheckServer, params: types.DidChangeTextDocumentParams) -> None:
    if params.text_document.uri in ls.linted_uris:
        _request_lint(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: ShapecheckServer, params: types.DidSaveTextDocumentParams) -> None:
    # The text is the same as after the last change, but a saved pyproject.toml may have changed the settings.
    uri = params.text_document.uri
    if uri in ls.linted_uris:
        ls.documents.retry(uri)
        _request_lint(ls, uri)
    # The documents whose analysis read the saved file (a model imported by a training script) are linted again.
    path = ls.workspace.get_text_document(uri).path
    for other in ls.documents.readers_of(path) if path is not None else ():
        if other != uri and other in ls.linted_uris:
            _request_lint(ls, other)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: ShapecheckServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri in ls.linted_uris:
        ls.linted_uris.discard(uri)
        async with ls.busy:
            await ls.documents.forget(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ------------------------------------------------------------------------------------------------- requests


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
async def code_action(ls: ShapecheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    notebook = ls.workspace.get_notebook_document(cell_uri=uri)
    if uri not in ls.linted_uris and notebook is None:
        return []
    async with ls.busy:
        document = ls.workspace.get_text_document(uri)
        linted = ls.documents.linted.get(uri)
        if linted is None or linted.version != document.version or linted.text != document.source:
            if notebook is not None:
                await _lint_notebook(ls, notebook.uri)
            else:
                await _lint_document(ls, uri)
            linted = ls.documents.linted.get(uri)
        if linted is None:
            return []
        only = params.context.only
        wanted = (lambda kind: any(kind == o or kind.startswith(f"{o}.") for o in only)) if only else \
            (lambda kind: True)
        convert = Converter(split_lines(linted.text), document.position_codec)
        actions: list[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix):
            here = [f for f in linted.result.findings
                    if overlaps(convert.range(f.location, f.end_location), params.range)]
            blocked = noqa_blocked_rows(linted.text) if here else None
            for finding in here:
                for action in (fix_action(uri, linted.version, finding, convert),
                               noqa_action(uri, linted.version, finding, convert, blocked)):
                    if action is not None:
                        actions.append(action)
        safe_fixes = any(f.fix is not None and f.fix.applicability == "safe" for f in linted.result.findings)
        if notebook is None and wanted(FIX_ALL) and safe_fixes:  # notebooks: per finding only
            fixed = await ls.documents.fixed(uri, document.path, linted.text, False)
            if fixed is not None:
                actions.append(fix_all_action(uri, linted.version, fixed, convert))
        return actions


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: ShapecheckServer, params: types.HoverParams) -> types.Hover | None:
    """The shape of the expression under the cursor, and where its value was bound."""
    return await _shapes(ls, params.text_document.uri, ls.documents.hover, params.position)


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
async def inlay_hint(ls: ShapecheckServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The shape each assignment in the range gives its target."""
    found = await _shapes(ls, params.text_document.uri, ls.documents.inlay_hints, params.range.start.line,
                          params.range.end.line)
    return found or []


async def _shapes(ls: ShapecheckServer, uri: str, ask: Callable[..., Awaitable[T]], *args: object) -> T | None:
    """`ask(uri, path, text, *args, encoding)` for an open Python document (not a notebook cell: a cell's names
    come from the cells before it); None when it cannot be answered (an analysis bug is logged)."""
    if uri not in ls.linted_uris:
        return None
    document = ls.workspace.get_text_document(uri)
    async with ls.busy:
        try:
            return await ask(uri, document.path, document.source, *args, document.position_codec.encoding)
        except ConfigError:
            return None
        except Exception as error:  # noqa: BLE001 - a hover must not take the server down
            jsonrpc.report(ls, error)
            return None


def serve() -> None:
    """Serve one editor over standard input and output until it exits."""
    jsonrpc.quiet_pygls_logging()
    server.documents.worker.start()  # its imports overlap the editor's start-up
    jsonrpc.serve_stdio(server)
