"""What the server does with messages it cannot use, so that no client can take it down: JSON that does not parse,
a message that is no JSON-RPC object, parameters that do not fit the method, a change or a close of a document that
was never opened, an edit whose range falls outside the document.

As JSON-RPC 2.0 says: a request gets an error response (-32700 parse error and -32600 invalid request with a null
id when the id cannot be read, -32602 invalid params with the request's own id), a notification is dropped; pygls
already answers an unknown method with -32601. Each is noted once in the client's log (`window/logMessage`), not
shown as an error popup, and no traceback reaches standard error.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


class Refused:
    """A message whose parameters do not fit its method (what `structure_message` gives instead of raising)."""

    jsonrpc = "2.0"

    def __init__(self, data: dict[str, Any], error: JsonRpcException) -> None:
        self.id = data.get("id")
        self.method = data.get("method")
        self.error = error


class ShapecheckProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            return Refused(data, error)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Refused):
            self.note(f"invalid params for {message.method!r}: {_cause(message.error)}")
            if message.method is not None and _is_id(message.id):  # a request: it waits for an answer
                self.send_error(message.id, INVALID_PARAMS, f"Invalid params for {message.method}")
            return
        if getattr(message, "jsonrpc", None) != "2.0":  # valid JSON, but no JSON-RPC 2.0 object
            message_id = message.get("id") if isinstance(message, dict) else getattr(message, "id", None)
            self.note(f"a message that is not a JSON-RPC 2.0 object: {_short(message)}")
            self.send_error(message_id if _is_id(message_id) else None, INVALID_REQUEST, "Invalid Request")
            return
        super().handle_message(message)

    def note(self, message: str) -> None:
        self._server.window_log_message(types.LogMessageParams(type=types.MessageType.Warning,
                                                               message=f"shapecheck: ignored {message}"))

    def send_error(self, message_id: int | str | None, code: int, message: str) -> None:
        self._send_data({"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": message}})

    # A change or close of a document that is not open: nothing to change. An edit pygls cannot apply (a range
    # outside the document): dropped, the document stays as it was.

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        document = self.workspace.text_documents.get(uri)
        if document is None:
            self.note(f"a change of {uri}, which is not open")
            return
        source, version = document.source, document.version
        try:
            yield from super().lsp_text_document__did_change(params)
        except (IndexError, ValueError) as error:
            document._source, document.version = source, version
            self.note(f"a change of {uri} that cannot be applied: {error}")

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        if params.text_document.uri not in self.workspace.text_documents:
            self.note(f"a close of {params.text_document.uri}, which is not open")
            return
        yield from super().lsp_text_document__did_close(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams
                                          ) -> Generator[Any, Any, None]:
        uri = params.notebook_document.uri
        if uri not in self.workspace.notebook_documents:
            self.note(f"a change of the notebook {uri}, which is not open")
            return
        try:
            yield from super().lsp_notebook_document__did_change(params)
        except (IndexError, KeyError, ValueError) as error:
            self.note(f"a change of the notebook {uri} that cannot be applied: {error}")

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(self, params: types.DidCloseNotebookDocumentParams
                                         ) -> Generator[Any, Any, None]:
        if params.notebook_document.uri not in self.workspace.notebook_documents:
            self.note(f"a close of the notebook {params.notebook_document.uri}, which is not open")
            return
        yield from super().lsp_notebook_document__did_close(params)


def report(server: Any, error: Exception) -> None:
    """An error pygls met outside any request (a body that is not JSON, a notification handler that raised): a
    parse error answered as JSON-RPC says, everything else one line in the client's log."""
    if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
        server.protocol.note(f"a message that is not JSON: {error}")
        server.protocol.send_error(None, PARSE_ERROR, "Parse error")
        return
    server.window_log_message(types.LogMessageParams(
        type=types.MessageType.Error, message=f"shapecheck: internal error: {_cause(error)}; please report it"))


class _OneLine(logging.Formatter):
    """pygls logs each refused message with its traceback: one line is enough on standard error."""

    def format(self, record: logging.LogRecord) -> str:
        return f"shapecheck server: {record.getMessage().splitlines()[0] if record.getMessage() else ''}"


def quiet_pygls_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    logger = logging.getLogger("pygls")
    logger.addHandler(handler)
    logger.setLevel(logging.ERROR)
    logger.propagate = False


def _cause(error: BaseException) -> str:
    cause = error.__cause__ or error
    return f"{type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''}"


def _is_id(value: object) -> bool:
    return type(value) is int or type(value) is str


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:76] + " ..."
