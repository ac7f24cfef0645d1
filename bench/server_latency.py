"""How long `shapecheck server` takes from an edit to the diagnostics for it, on a 2,000-line file with findings.

An editor session over stdio (pygls's LanguageClient, as in tests/test_server.py): open the file, then type into it,
one keystroke per `didChange` (an incremental change, as editors send them), each waiting for the diagnostics of
that version. The latency is wall time from sending the change to receiving its diagnostics, JSON-RPC both ways
and the worker process's round trip included. The same keystrokes are then linted in this process as the server's
worker lints them (`shapecheck.server.incremental`), in CPU time, interleaved with `shapecheck lint`'s whole-file
lint of the same file.

    python bench/server_latency.py [--edits 60] [--lines 2000] [--file PATH]

The default file is the bundled fixtures, every buggy one then clean ones, concatenated up to `--lines` lines (at
2,000 lines: 109 findings).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import libcst as cst
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.runner import lint_decoded
from shapecheck.server.idle import IdleCollector
from shapecheck.server.incremental import Incremental

ROOT = Path(__file__).resolve().parents[1]


def fixtures_file(count: int) -> str:
    """Whole fixture files, every buggy one then clean ones, without `from __future__` lines (only legal at the
    top), cut to `count` lines at a top-level statement boundary and padded with comment lines."""
    paths = sorted((ROOT / "fixtures" / "buggy").glob("*.py")) + sorted((ROOT / "fixtures" / "clean").glob("*.py"))
    lines: list[str] = []
    for path in paths:
        lines += [line for line in path.read_text().splitlines(keepends=True) if "from __future__" not in line]
    cut = max(i for i in range(1, count + 1) if i == len(lines) or (lines[i][:1].isalpha() and i <= count))
    return "".join(lines[:cut]) + "# padding\n" * (count - cut)


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
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--file", type=Path, help="a Python file to edit instead of the generated one")
    args = parser.parse_args()
    text = args.file.read_text() if args.file else fixtures_file(args.lines)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.py"
        path.write_text(text)
        opened, latencies, found = asyncio.run(measure(path, text, args.edits))
    whole, per_edit, kept = in_process_cpu(text, args.edits)
    ms = sorted(latency * 1000 for latency in latencies)
    print(f"{len(text.splitlines())} lines, {found} findings, {len(ms)} edits")
    print("over stdio, wall time from the change to its diagnostics:")
    print(f"  open (first lint, whole parse)       {opened * 1000:7.1f} ms")
    print(f"  per edit, median                     {statistics.median(ms):7.1f} ms")
    print(f"  per edit, 90th percentile            {ms[int(len(ms) * 0.9) - 1]:7.1f} ms")
    print(f"  per edit, max                        {ms[-1]:7.1f} ms")
    cpu = sorted(seconds * 1000 for seconds in per_edit)
    print("in this process, CPU time (less sensitive to other load on the machine), medians:")
    print(f"  the server's lint per edit           {statistics.median(cpu):7.1f} ms"
          f"   (top-level statements whose findings were kept: {kept})")
    print(f"  the server's lint per edit, 90th pct {cpu[int(len(cpu) * 0.9) - 1]:7.1f} ms")
    print(f"  the whole file, as `shapecheck lint` {statistics.median(whole) * 1000:7.1f} ms")


def in_process_cpu(text: str, edits: int) -> tuple[list[float], list[float], str]:
    """CPU seconds of `lint_text` on the whole file, and of the server's incremental lint for the same keystrokes
    (with the worker's garbage collection: none during a lint), interleaved; how many top-level statements the
    incremental lints kept (median, of all)."""
    rules = resolve(None)
    analysis = Incremental()
    lines = text.splitlines(keepends=True)
    row = next(i for i in range(len(lines) // 2, len(lines)) if "dim=-1" in lines[i])
    typed = "".join(lines[:row]) + lines[row].replace("dim=-1", "dim=-12", 1) + "".join(lines[row + 1:])
    lint_decoded(text, "model.py", rules, None, analysis)
    whole, per_edit, kept = [], [], []
    collector = IdleCollector()  # garbage collected as the worker collects it: off the keystroke path
    for version in range(2, edits + 2):
        collector.linting()
        start = time.process_time()
        lint_decoded(typed if version % 2 == 0 else text, "model.py", rules, None, analysis)
        per_edit.append(time.process_time() - start)
        collector.linted()
        kept.append(analysis.reused)
        if version % 10 == 0 or version == edits + 1 and not whole:  # at least once: `--edits 4` has no tenth
            start = time.process_time()
            lint_text(text, "model.py", rules)
            whole.append(time.process_time() - start)
    statements = len(cst.parse_module(text).body)
    return whole, per_edit, f"{statistics.median(kept):.0f} of {statements}"


if __name__ == "__main__":
    main()
