"""How long `shapecheck server` takes from an edit to the diagnostics for it, on a 1,000-line file.

An editor session over stdio (pygls's LanguageClient, as in tests/test_server.py): open the file, then type into it,
one keystroke per `didChange` (an incremental change, as editors send them), each waiting for the diagnostics of
that version. The latency is wall time from sending the change to receiving its diagnostics, JSON-RPC both ways
included. The same keystrokes are then linted in this process as the server lints them, in CPU time, beside
`shapecheck lint`'s whole-file lint of the same file.

    python bench/server_latency.py [--edits 60] [--file PATH]

The default file is the bundled fixtures (clean and buggy, so it has findings) concatenated up to 1,000 lines.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.server.documents import Documents

ROOT = Path(__file__).resolve().parents[1]
LINES = 1000


def thousand_lines() -> str:
    """Whole fixture files, clean and buggy taken in turn, without `from __future__` lines (only legal at the top),
    cut to LINES lines at a top-level statement boundary and padded with comment lines."""
    clean, buggy = (sorted((ROOT / "fixtures" / folder).glob("*.py")) for folder in ("clean", "buggy"))
    lines: list[str] = []
    for pair in zip(buggy, clean):
        for path in pair:
            lines += [line for line in path.read_text().splitlines(keepends=True) if "from __future__" not in line]
    cut = max(i for i in range(1, LINES + 1) if i == len(lines) or (lines[i][:1].isalpha() and i <= LINES))
    return "".join(lines[:cut]) + "# padding\n" * (LINES - cut)


async def measure(path: Path, text: str, edits: int) -> tuple[float, list[float], int]:
    client = LanguageClient("bench", "1")
    published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def on_message(params: types.ShowMessageParams) -> None:
        print(f"server: {params.message}", file=sys.stderr)

    async def diagnostics_for(version: int) -> list[types.Diagnostic]:
        while True:
            params = await published.get()
            if params.version == version:
                return list(params.diagnostics)

    await client.start_io(sys.executable, "-m", "shapecheck", "server", cwd=str(path.parent))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=path.parent.as_uri()))
    client.initialized(types.InitializedParams())
    uri = path.as_uri()
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
    found = len(await diagnostics_for(1))
    opened = time.perf_counter() - start
    lines = text.splitlines(keepends=True)
    row = next(i for i in range(len(lines) // 2, len(lines)) if "dim=-1" in lines[i])
    column = lines[row].index("dim=-1") + len("dim=-1")
    latencies = []
    for version in range(2, edits + 2):
        # Type a digit after `dim=-1`, then delete it: `dim=-12`, `dim=-1`, ...
        typing = version % 2 == 0
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=row, character=column),
                              end=types.Position(line=row, character=column + (0 if typing else 1))),
            text="2" if typing else "")
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change]))
        await diagnostics_for(version)
        latencies.append(time.perf_counter() - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return opened, latencies, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--file", type=Path, help="a Python file to edit instead of the generated one")
    args = parser.parse_args()
    text = args.file.read_text() if args.file else thousand_lines()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.py"
        path.write_text(text)
        opened, latencies, found = asyncio.run(measure(path, text, args.edits))
    whole, per_edit = in_process_cpu(text, args.edits)
    ms = sorted(latency * 1000 for latency in latencies)
    print(f"{len(text.splitlines())} lines, {found} findings, {len(ms)} edits")
    print("over stdio, wall time from the change to its diagnostics:")
    print(f"  open (first lint, whole parse)       {opened * 1000:7.1f} ms")
    print(f"  per edit, median                     {statistics.median(ms):7.1f} ms")
    print(f"  per edit, 90th percentile            {ms[int(len(ms) * 0.9) - 1]:7.1f} ms")
    print(f"  per edit, max                        {ms[-1]:7.1f} ms")
    print("in this process, CPU time (less sensitive to other load on the machine), medians:")
    print(f"  the server's lint per edit           {statistics.median(per_edit) * 1000:7.1f} ms")
    print(f"  the whole file, as `shapecheck lint` {statistics.median(whole) * 1000:7.1f} ms")


def in_process_cpu(text: str, edits: int) -> tuple[list[float], list[float]]:
    """CPU seconds of `lint_text` on the whole file, and of the server's `Documents.lint` for the same keystrokes,
    interleaved."""
    rules = resolve(None)
    documents = Documents()
    lines = text.splitlines(keepends=True)
    row = next(i for i in range(len(lines) // 2, len(lines)) if "dim=-1" in lines[i])
    typed = "".join(lines[:row]) + lines[row].replace("dim=-1", "dim=-12", 1) + "".join(lines[row + 1:])
    documents.lint("file:///model.py", None, text, 1)
    whole, per_edit = [], []
    for version in range(2, edits + 2):
        start = time.process_time()
        documents.lint("file:///model.py", None, typed if version % 2 == 0 else text, version)
        per_edit.append(time.process_time() - start)
        if version % 10 == 0:
            start = time.process_time()
            lint_text(text, "model.py", rules)
            whole.append(time.process_time() - start)
    return whole, per_edit


if __name__ == "__main__":
    main()
