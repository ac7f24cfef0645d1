"""`shapecheck server` driven over stdio by pygls's LanguageClient, as an editor drives it: diagnostics on open,
change and save, code actions whose edits remove the finding, settings from the file's pyproject.toml."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.workspace.position_codec import PositionCodec

from shapecheck.engine.noqa import noqa_blocked_rows
from shapecheck.findings import Location
from shapecheck.server.protocol import Converter
from tests.cli_helpers import write

# SC301 (a safe fix) on line 6, SC205 (an unsafe fix) on line 7.
BUGGY = """import torch
import torch.nn.functional as F


def run(model: torch.nn.Module, x):
    y = F.softmax(x, dim=-1).log()
    return model.forward(y)
"""
TIMEOUT = 60


class Editor:
    """A client session: the diagnostics the server published, per document, as they arrive."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()
        self.versions: dict[str, int] = {}
        self.unclaimed: list[types.PublishDiagnosticsParams] = []

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The next diagnostics published for `uri` (those for other documents wait their turn)."""
        for params in self.unclaimed:
            if params.uri == uri:
                self.unclaimed.remove(params)
                return list(params.diagnostics)
        while True:
            params = await asyncio.wait_for(self.published.get(), TIMEOUT)
            if params.uri == uri:
                return list(params.diagnostics)
            self.unclaimed.append(params)

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def replace_all(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, line: int, start: int, end: int, new_text: str) -> None:
        """An incremental change, as editors send keystrokes."""
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=line, character=start),
                                  end=types.Position(line=line, character=end)), text=new_text)]))

    async def open_buggy(self, folder: Path) -> str:
        """Open model.py with BUGGY in it and wait for its first diagnostics; its uri."""
        uri = self.open(write(folder / "model.py", BUGGY), BUGGY)
        await self.diagnostics(uri)
        return uri

    async def actions(self, uri: str, line: int, only: list[str] | None = None) -> list[types.CodeAction]:
        whole_line = types.Range(start=types.Position(line=line, character=0),
                                 end=types.Position(line=line, character=80))
        actions = await asyncio.wait_for(self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=whole_line,
            context=types.CodeActionContext(diagnostics=[], only=only))), TIMEOUT)
        return list(actions or [])


def session(root: Path, scenario: Callable[[Editor], Awaitable[None]]) -> None:
    async def run() -> None:
        client = LanguageClient("test-editor", "1")
        editor = Editor(client)
        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            editor.published.put_nowait(params)

        @client.feature(types.WINDOW_SHOW_MESSAGE)
        def shown(params: types.ShowMessageParams) -> None:  # queued as if published for the uri "message"
            nowhere = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
            editor.published.put_nowait(types.PublishDiagnosticsParams(
                uri="message", diagnostics=[types.Diagnostic(range=nowhere, message=params.message)]))

        await client.start_io(sys.executable, "-m", "shapecheck", "server", cwd=str(root))
        try:
            await asyncio.wait_for(client.initialize_async(types.InitializeParams(
                capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")])), TIMEOUT)
            client.initialized(types.InitializedParams())
            await scenario(editor)
            await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
            client.exit(None)
        finally:
            if client._server is not None and client._server.returncode is None:
                client._server.kill()  # a failed scenario never sent `exit`
            await client.stop()

    asyncio.run(run())


def apply(text: str, action: types.CodeAction) -> str:
    """The text with the action's edits applied (they do not overlap; applied from the end backwards)."""
    (change,) = action.edit.document_changes
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[:position.line]) + position.character

    for edit in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line + 1) for d in diagnostics)


def test_diagnostics_follow_open_change_and_save(tmp_path: Path) -> None:
    path = write(tmp_path / "model.py", BUGGY)

    async def scenario(editor: Editor) -> None:
        uri = editor.open(path, BUGGY)
        diagnostics = await editor.diagnostics(uri)
        assert codes(diagnostics) == [("SC205", 7), ("SC301", 6)]
        sc301 = next(d for d in diagnostics if d.code == "SC301")
        assert (sc301.source, sc301.severity) == ("shapecheck", types.DiagnosticSeverity.Error)  # the rule's
        assert (sc301.range.start.character, sc301.range.end.character) == (8, 34)  # 0-based, as LSP counts

        # A keystroke at a time: `.log()` becomes `.exp()` (no finding), then the forward call is fixed.
        editor.edit(uri, 5, 29, 32, "exp")
        assert codes(await editor.diagnostics(uri)) == [("SC205", 7)]
        fixed = BUGGY.replace(".log()", ".exp()").replace("model.forward(y)", "model(y)")
        editor.replace_all(uri, fixed)
        assert await editor.diagnostics(uri) == []

        editor.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        assert await editor.diagnostics(uri) == []

        editor.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        assert await editor.diagnostics(uri) == []

    session(tmp_path, scenario)


def test_code_actions_remove_the_finding(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        uri = await editor.open_buggy(tmp_path)
        safe = await editor.actions(uri, 5)
        titles = [action.title for action in safe]
        assert titles == ["SC301: Use `log_softmax` (safe fix)", "SC301: disable for this line (# noqa)",
                          "shapecheck: fix all safe findings"], titles
        assert safe[0].is_preferred and safe[0].kind == types.CodeActionKind.QuickFix
        unsafe = await editor.actions(uri, 6)
        assert unsafe[0].title == "SC205: Call the module (unsafe fix: it changes behaviour, review it)"
        assert not unsafe[0].is_preferred

        text = BUGGY
        for action, gone in ((safe[0], "SC301"), (unsafe[1], "SC205")):  # a fix, then a noqa comment
            text = apply(text, action)
            editor.replace_all(uri, text)
            assert gone not in [code for code, _ in codes(await editor.diagnostics(uri))], text
        assert "F.log_softmax(x, dim=-1)" in text and "model.forward(y)  # noqa: SC205" in text
        assert await editor.actions(uri, 6) == []  # nothing left to offer, no safe fix for the whole file either

    session(tmp_path, scenario)


def test_fix_all_applies_the_safe_fixes(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        uri = await editor.open_buggy(tmp_path)
        (action,) = await editor.actions(uri, 0, only=[types.CodeActionKind.SourceFixAll])
        assert action.kind == "source.fixAll.shapecheck"
        text = apply(BUGGY, action)
        assert "F.log_softmax(x, dim=-1)" in text and "model.forward(y)" in text  # the unsafe fix is left alone
        editor.replace_all(uri, text)
        assert codes(await editor.diagnostics(uri)) == [("SC205", 7)]

    session(tmp_path, scenario)


def test_settings_come_from_the_files_pyproject(tmp_path: Path) -> None:
    """The same [tool.shapecheck] as `shapecheck lint`: ignore, per-file-ignores and exclude, per file."""
    write(tmp_path / "pyproject.toml", '[tool.shapecheck]\nignore = ["SC205"]\n'
                                       'per-file-ignores = { "tests/*" = ["SC3"] }\nextend-exclude = ["vendored"]\n')
    write(tmp_path / "sub" / "pyproject.toml", "[tool.shapecheck]\nselect = [\"SC2\"]\n")
    write(tmp_path / "broken" / "pyproject.toml", "[tool.shapecheck]\nselect = [\"SC9999\"]\n")
    files = {name: write(tmp_path / name, BUGGY)
             for name in ("top.py", "tests/test_top.py", "vendored/lib.py", "sub/s.py", "broken/b.py")}

    async def scenario(editor: Editor) -> None:
        seen = {}
        for name, path in files.items():
            uri = editor.open(path, BUGGY)
            seen[name] = codes(await editor.diagnostics(uri))
        assert seen == {"top.py": [("SC301", 6)], "tests/test_top.py": [], "vendored/lib.py": [],
                        "sub/s.py": [("SC205", 7)], "broken/b.py": []}
        message = await editor.diagnostics("message")
        assert "SC9999" in message[0].message

    session(tmp_path, scenario)


def test_documents_that_are_not_python_are_left_alone(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        uri = (tmp_path / "notes.txt").as_uri()
        editor.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=BUGGY)))
        assert await editor.actions(uri, 5) == []
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(editor.published.get(), 2)

    session(tmp_path, scenario)


WITHOUT_PYGLS = """
import sys

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pygls", "lsprotocol"):
            raise ImportError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, Blocker())
from shapecheck.cli import main
main(["server"])
"""


def test_without_the_server_extra_it_says_what_to_install() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ('shapecheck: error: `shapecheck server` needs pygls: '
                                   'pip install "torch-shapecheck[server]"')


def test_columns_are_in_the_clients_units() -> None:
    """LSP columns count UTF-16 code units unless the client negotiated another encoding; findings count code
    points."""
    line = "s = '\U0001f60b'; y = F.softmax(x).log()\n"  # the emoji is 1 code point, 2 UTF-16 units
    assert line.index("F.softmax") == 13
    position = Converter([line], PositionCodec()).position(Location(1, 14))
    assert (position.line, position.character) == (0, 14)
    utf32 = Converter([line], PositionCodec(types.PositionEncodingKind.Utf32)).position(Location(1, 14))
    assert utf32.character == 13


@pytest.mark.parametrize("encoding", list(types.PositionEncodingKind))
def test_columns_on_ascii_lines_are_the_codecs(encoding: types.PositionEncodingKind) -> None:
    """An ASCII line's columns are converted without the codec, to the same positions: within the line, past its
    end, and on a row past the last."""
    lines = ["x = torch.zeros(3)\n", "y = x.sum()"]
    codec = PositionCodec(encoding)
    for row, column in [(1, 1), (1, 5), (1, 19), (1, 20), (1, 40), (2, 12), (2, 13), (3, 1), (4, 7)]:
        found = Converter(lines, codec).position(Location(row, column))
        expected = codec.position_to_client_units(lines, types.Position(line=row - 1, character=column - 1))
        assert (found.line, found.character) == (expected.line, expected.character), (row, column)


def test_rows_that_cannot_take_a_comment() -> None:
    text = 'a = f("""x\ny""")\nb = 1 + \\\n    2\nc = (1,\n     2)\n'
    assert noqa_blocked_rows(text) == {1, 3}  # inside the string, after the backslash; not inside brackets
    assert noqa_blocked_rows("a = (\n") is None


NOTEBOOK_CELLS = [
    (types.NotebookCellKind.Code, "%matplotlib inline\nimport torch\nimport torch.nn.functional as F\n"),
    (types.NotebookCellKind.Markup, "# Training\nSome *markdown*, never linted: F.softmax(x).log()"),
    (types.NotebookCellKind.Code, "x = torch.ones(3)\ny = F.softmax(x, dim=-1).log()"),
]


def test_notebook_cells_are_one_module_with_findings_on_their_cell(tmp_path: Path) -> None:
    """The cells of an open notebook, linted as `shapecheck lint nb.ipynb` lints the file: imports in cell 1
    count in cell 3, magics are skipped, and each finding is published on its own cell at its row there."""
    notebook_uri = (tmp_path / "train.ipynb").as_uri()
    cell_uris = [f"vscode-notebook-cell:{tmp_path / 'train.ipynb'}#cell{n}" for n in range(1, 4)]

    async def scenario(editor: Editor) -> None:
        editor.client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook_uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=kind, document=uri)
                       for (kind, _), uri in zip(NOTEBOOK_CELLS, cell_uris)]),
            cell_text_documents=[types.TextDocumentItem(uri=uri, version=1, text=text,
                                                        language_id="python" if kind == 2 else "markdown")
                                 for (kind, text), uri in zip(NOTEBOOK_CELLS, cell_uris)]))
        published = {uri: codes(await editor.diagnostics(uri)) for uri in cell_uris}
        assert published == {cell_uris[0]: [], cell_uris[1]: [], cell_uris[2]: [("SC301", 2)]}

        (fix, noqa) = await editor.actions(cell_uris[2], 1)
        assert fix.title == "SC301: Use `log_softmax` (safe fix)"
        ((change,),) = [fix.edit.document_changes]
        assert change.text_document.uri == cell_uris[2]
        fixed = apply(NOTEBOOK_CELLS[2][1], fix)
        assert fixed == "x = torch.ones(3)\ny = F.log_softmax(x, dim=-1)"

        editor.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook_uri, version=2),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=cell_uris[2], version=2),
                    changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)])]))))
        assert {uri: codes(await editor.diagnostics(uri)) for uri in cell_uris} == dict.fromkeys(cell_uris, [])

        editor.client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=notebook_uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=uri) for uri in cell_uris]))
        assert {uri: codes(await editor.diagnostics(uri)) for uri in cell_uris} == dict.fromkeys(cell_uris, [])

    session(tmp_path, scenario)


def test_no_collection_during_a_lint_a_frozen_heap_after_it_a_full_one_after_a_pause_or_a_burst() -> None:
    import gc

    from shapecheck.server.idle import MAX_LINTS, IdleCollector

    collector = IdleCollector()
    collected: list[bool] = []
    real_collect = collector.collect
    collector.collect = lambda: (collected.append(True), real_collect())  # type: ignore[method-assign]
    try:
        collector.pause()  # nothing linted yet: nothing to collect
        assert collected == []
        collector.linting()
        assert not gc.isenabled()  # no automatic collection during a job
        collector.linted()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0  # the automatic collections now skip everything alive so far
        collector.linted()
        assert collected == []
        collector.pause()  # the user paused: one full collection
        assert collected == [True]
        collector.pause()
        assert collected == [True]  # and no second one while nothing happens
        for _ in range(MAX_LINTS):
            collector.linted()  # a burst without a pause collects once in MAX_LINTS lints
        assert collected == [True, True]
    finally:
        gc.enable()
        gc.unfreeze()


SHAPES = """import torch

B, T, C = 4, 16, 32


def attention(x):
    q = torch.randn(B, T, C)
    scores = q @ q.transpose(1, 2)
    flat = scores.transpose(1, 2)
    return flat.view(B, -1)
"""


def test_hover_shows_the_inferred_shape_and_where_it_was_bound(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        uri = editor.open(write(tmp_path / "attention.py", SHAPES), SHAPES)
        await editor.diagnostics(uri)

        async def hover(line: int, character: int) -> types.Hover | None:
            return await asyncio.wait_for(editor.client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line, character=character))), TIMEOUT)

        on_q = await hover(7, 13)  # `q` in `scores = q @ q.transpose(1, 2)`
        assert on_q is not None and on_q.contents.kind == types.MarkupKind.Markdown
        assert on_q.contents.value.startswith("```python\nq: (4, 16, 32)\n```")
        assert "from line 7: `q = torch.randn(B, T, C)`" in on_q.contents.value
        assert (on_q.range.start.line, on_q.range.start.character, on_q.range.end.character) == (7, 13, 14)

        on_transpose = await hover(8, 22)  # `transpose` in `scores.transpose(1, 2)`: the call's result
        assert "scores.transpose(1, 2): (4, 16, 16)" in on_transpose.contents.value
        assert "not contiguous in memory (made by `.transpose(1, 2)`)" in on_transpose.contents.value

        on_target = await hover(7, 5)  # `scores` being assigned: what it is assigned
        assert "scores: (4, 16, 16)" in on_target.contents.value and "from the value assigned" in \
            on_target.contents.value
        on_size = await hover(6, 20)  # `B` in `torch.randn(B, T, C)`
        assert "B: 4" in on_size.contents.value and "size" in on_size.contents.value
        assert await hover(5, 4) is None  # `def`: nothing to show
        assert await hover(6, 8) is None  # `torch`: a module, no shape
        assert await hover(40, 0) is None  # past the end: nothing, and no error

    session(tmp_path, scenario)


def test_inlay_hints_show_each_assignments_shape(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        uri = editor.open(write(tmp_path / "attention.py", SHAPES), SHAPES)
        await editor.diagnostics(uri)

        async def hints(first: int, last: int) -> list[tuple[int, int, str]]:
            found = await asyncio.wait_for(editor.client.text_document_inlay_hint_async(types.InlayHintParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=first, character=0),
                                  end=types.Position(line=last, character=0)))), TIMEOUT)
            return [(hint.position.line, hint.position.character, hint.label) for hint in found or []]

        # `B, T, C = 4, 16, 32` only restates the code: no hints there
        assert await hints(0, 20) == [(6, 5, ": (4, 16, 32)"), (7, 10, ": (4, 16, 16)"), (8, 8, ": (4, 16, 16)")]
        assert await hints(8, 8) == [(8, 8, ": (4, 16, 16)")]
        editor.replace_all(uri, "def f(:\n")  # a syntax error: no hints, no error
        await editor.diagnostics(uri)
        assert await hints(0, 5) == []

    session(tmp_path, scenario)


@pytest.mark.parametrize("repository", [None, "https://example.org/team/shapecheck"])
def test_a_diagnostics_json_is_what_lsprotocol_makes_of_its_diagnostic(repository: str | None,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The server sends each finding's diagnostic as its JSON (`diagnostic_data`), not through lsprotocol's objects
    and cattrs: the same JSON, key for key and in the same order, for every finding of the fixtures (errors and
    warnings, with and without the rule's link, lines with characters outside ASCII)."""
    import json

    from pygls.protocol import default_converter

    from shapecheck import urls
    from shapecheck.engine.registry import resolve
    from shapecheck.engine.source import split_lines
    from shapecheck.runner import lint_decoded
    from shapecheck.server.protocol import diagnostic_data

    monkeypatch.setattr(urls, "REPOSITORY", repository)
    root = Path(__file__).resolve().parents[1]
    checked = set()
    for path in sorted((root / "fixtures" / "buggy").glob("*.py")):
        text = path.read_text() + "ü = F.softmax(x, dim=-1).log()  # ü\n"
        convert = Converter(split_lines(text), PositionCodec(types.PositionEncodingKind.Utf16))
        for finding in lint_decoded(text, path.name, resolve(None), None).findings:
            expected = types.Diagnostic(
                range=convert.range(finding.location, finding.end_location), message=finding.message,
                severity=types.DiagnosticSeverity.Error if finding.severity == "error" else
                types.DiagnosticSeverity.Warning, code=finding.code, source="shapecheck",
                code_description=None if repository is None else types.CodeDescription(href=urls.rule_page(
                    finding.code)))
            assert json.dumps(diagnostic_data(finding, convert)) == \
                json.dumps(default_converter().unstructure(expected))
            checked.add((finding.severity, finding.location.row == len(split_lines(text))))
    assert checked == {("error", False), ("warning", False), ("error", True)}


def test_standard_input_is_read_by_the_event_loop_where_it_is_a_pipe_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A message's header lines and body are read by the event loop, not each handed to a thread; where standard
    input and output are one socket (making it non-blocking would make large writes fail), pygls's reader."""
    import os
    import socket

    from pygls.io_ import StdinAsyncReader

    from shapecheck.server.jsonrpc import Resyncing, _stdin

    class Server:
        thread_pool = None

    def reader_for(stdin: object, stdout: object) -> object:
        monkeypatch.setattr(sys, "stdin", stdin)
        monkeypatch.setattr(sys, "stdout", stdout)

        async def read() -> tuple[object, bytes, bytes]:
            reader = await _stdin(Server())
            resyncing = Resyncing(reader)
            return reader, await resyncing.readline(), await resyncing.readexactly(100)

        return asyncio.run(read())

    read_end, write_end = os.pipe()
    os.write(write_end, b"Content-Length: 2\r\n{}")
    os.close(write_end)
    with open(read_end, "rb", buffering=0) as pipe, open(os.devnull, "w") as devnull:
        stdin = type("Stdin", (), {"buffer": pipe, "fileno": pipe.fileno})()
        reader, line, body = reader_for(stdin, devnull)
    # the end of the input gives what there was, as pygls's reader does
    assert isinstance(reader, asyncio.StreamReader) and (line, body) == (b"Content-Length: 2\r\n", b"{}")
    one, other = socket.socketpair()
    with one, open(one.fileno(), "rb", buffering=0, closefd=False) as both:
        other.sendall(b"\r\n{}")
        other.close()
        stdio = type("Stdio", (), {"buffer": both, "fileno": both.fileno})()
        reader, line, body = reader_for(stdio, stdio)
        assert isinstance(reader, StdinAsyncReader) and (line, body) == (b"\r\n", b"{}")
