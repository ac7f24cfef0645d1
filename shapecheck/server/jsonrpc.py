"""What the server does with messages it cannot use, so that no client can take it down: JSON that does not parse,
a message that is no JSON-RPC object, parameters that do not fit the method, a change or a close of a document that
was never opened, an edit whose range falls outside the document.

A body shorter or longer than its Content-Length costs only itself and the message it runs into (`Resyncing`).
As JSON-RPC 2.0 says: a request gets an error response (-32700 parse error and -32600 invalid request with a null
id when the id cannot be read, -32602 invalid params with the request's own id), a notification is dropped; pygls
already answers an unknown method with -32601. Each is noted once in the client's log (`window/logMessage`), not
shown as an error popup, and no traceback reaches standard error.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import sys
import threading
from collections.abc import Generator
from typing import Any

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import RPCRequest

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
# The longest header line read from a stream: a body cut short runs into the next header line (`Resyncing`), as
# long as any body
STREAM_LIMIT = 1 << 30


class Refused:
    """A message that cannot be handled (what `structure_message` gives instead of raising): its parameters do not
    fit its method (-32602), or it is not JSON-RPC 2.0 (-32600)."""

    jsonrpc = "2.0"

    def __init__(self, data: dict[str, Any], code: int, why: str) -> None:
        self.id = data.get("id")
        self.method = data.get("method")
        self.code = code
        self.why = why
        # it waits for an answer: it has an id, and no result or error (a response of the client's would)
        self.request = _is_id(self.id) and "result" not in data and "error" not in data


class ShapecheckProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" in data and data["jsonrpc"] != "2.0":
            return Refused(data, INVALID_REQUEST, f"a message of JSON-RPC version {_short(data['jsonrpc'])}")
        if "id" in data and "method" in data and _is_notification(data["method"]):
            # pygls would drop the id and handle it as the notification, leaving the request without an answer
            return Refused(data, INVALID_REQUEST, f"a request for the notification {_short(data['method'])}")
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            return Refused(data, INVALID_PARAMS, f"invalid params for {data.get('method')!r}: {_cause(error)}")

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Refused):
            self.note(message.why)
            if message.request:
                words = "Invalid params" if message.code == INVALID_PARAMS else "Invalid Request"
                self.send_error(message.id, message.code, f"{words} for {_short(message.method)}")
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            # LSP: "requests after a shutdown request should error with InvalidRequest" (pygls drops them)
            self.send_error(message.id, INVALID_REQUEST, "The server is shutting down")
            return
        if getattr(message, "jsonrpc", None) != "2.0":  # valid JSON, but no JSON-RPC 2.0 object
            message_id = message.get("id") if isinstance(message, dict) else getattr(message, "id", None)
            self.note(f"a message that is not a JSON-RPC 2.0 object: {_short(message)}")
            self.send_error(message_id if _is_id(message_id) else None, INVALID_REQUEST, "Invalid Request")
            return
        super().handle_message(message)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None
                         ) -> None:
        # pygls keeps the future of every handler it runs in `_request_futures` (to cancel it) and takes it out
        # only when it answers a request: a notification's, and the user handler a built-in one runs, stayed for
        # good, some kilobytes per keystroke. The finished ones are taken out at the next message: not from the
        # future's own callback, which `shutdown` runs while it iterates over the table (cancelling a thread's
        # future calls back at once).
        for key, future in list(self._request_futures.items()):
            if future.done():
                del self._request_futures[key]
        super()._execute_handler(msg_id, handler, callback, args, kwargs)

    def note(self, message: str) -> None:
        self._server.window_log_message(types.LogMessageParams(type=types.MessageType.Warning,
                                                               message=f"shapecheck: ignored {message}"))

    def send_error(self, message_id: int | str | None, code: int, message: str) -> None:
        self._send_data({"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": message}})

    def publish_diagnostics(self, uri: str, version: int | None, diagnostics: list[dict[str, Any]]) -> None:
        """`textDocument/publishDiagnostics` with the diagnostics as their JSON (`protocol.diagnostic_data`), sent
        as it is: no lsprotocol objects made and unstructured again on every keystroke."""
        params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        self._send_data({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params})

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


class Resyncing:
    """pygls's reader of standard input, finding the next message again after a body whose Content-Length was
    wrong: pygls reads header lines until one is exactly a Content-Length, and the rest of a body cut short has no
    line end of its own, so it eats the next header line, and so on for every message after it."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader

    async def readline(self) -> bytes:
        line = await self._reader.readline()
        start = line.find(b"Content-Length:")
        return line[start:] if start > 0 else line

    async def readexactly(self, count: int) -> bytes:
        try:
            return await self._reader.readexactly(count)
        except asyncio.IncompleteReadError as error:  # the end of the input: what there was, as pygls's reader
            return error.partial


async def _stdin(server: Any) -> Any:
    """Standard input, read by the event loop itself where it is a pipe or a socket of its own: pygls's reader
    hands each header line and each body to a thread (a wake-up of that thread, then of the event loop, for each:
    on a loaded machine each is a wait for a core). Where standard output is the same file (a socket both ways),
    making it non-blocking would make a large write fail: pygls's reader then."""
    loop = asyncio.get_running_loop()
    try:
        descriptor = sys.stdin.fileno()
        mode = os.fstat(descriptor).st_mode
        if (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) and not os.path.sameopenfile(descriptor, sys.stdout.fileno()):
            reader = asyncio.StreamReader(limit=STREAM_LIMIT, loop=loop)
            await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), sys.stdin.buffer)
            return reader
    except (OSError, ValueError, NotImplementedError):  # no file descriptor, or a loop that watches no pipes
        pass
    return StdinAsyncReader(sys.stdin.buffer, server.thread_pool)


async def _serve(server: Any) -> None:
    await run_async(stop_event=server._stop_event, reader=Resyncing(await _stdin(server)), protocol=server.protocol,
                    logger=logging.getLogger("pygls.server"), error_handler=server.report_server_error)


def serve_stdio(server: Any) -> None:
    """`server.start_io()`, reading through `Resyncing`."""
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(_serve(server))
    except (BrokenPipeError, KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def report(server: Any, error: Exception) -> None:
    """An error pygls met outside any request (a body that is not JSON or nested too deeply to read, a notification
    handler that raised): a parse error answered as JSON-RPC says, everything else one line in the client's log."""
    if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError, RecursionError)):
        server.protocol.note(f"a message that is not JSON: {type(error).__name__}: {error}")
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


def _is_notification(method: object) -> bool:
    kinds = types.METHOD_TO_TYPES.get(method) if isinstance(method, str) else None
    return kinds is not None and "id" not in attrs.fields_dict(kinds[0])


def _is_id(value: object) -> bool:
    return type(value) is int or type(value) is str


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:76] + " ..."
