"""`shapecheck server` against a client that sends what no editor should: JSON that does not parse, messages of the
wrong shape, unknown methods, ranges outside the document, versions out of order, edits to documents never opened,
a huge line, a 50,000-line document, a burst of 2,000 edits, and thousands of fuzzed messages. The server answers
each request (an error where it must), drops what it cannot use, and stays up with the right diagnostics.

`SHAPECHECK_FUZZ_MESSAGES=10000` sends that many fuzzed messages (default: a few hundred); `SHAPECHECK_SOAK=1` runs
the soak test (2,000 edits, the server's and the worker's memory measured).
"""

from __future__ import annotations

import json
import os
import random
import string
import time
from pathlib import Path

import pytest

from shapecheck.engine.registry import resolve
from shapecheck.engine.source import split_lines
from shapecheck.runner import STALLED_FACTOR, lint_decoded
from tests.cli_helpers import write
from tests.lsp_wire import Wire, resident_mib, workers

BUGGY = """import torch
import torch.nn.functional as F


def run(model: torch.nn.Module, x):
    y = F.softmax(x, dim=-1).log()
    return model.forward(y)
"""
MODELS = (Path(__file__).parent / "data" / "incremental" / "models.py").read_text()


def expected(text: str) -> list[tuple[str, int, int]]:
    """What `shapecheck lint` finds in `text`: (code, 0-based line, 0-based column) of each finding."""
    result = lint_decoded(text, "model.py", resolve(None))
    return sorted((f.code, f.location.row - 1, f.location.column - 1) for f in result.findings)


def published(diagnostics: list[dict]) -> list[tuple[str, int, int]]:
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in diagnostics)


def error_code(response: dict) -> int | None:
    return (response.get("error") or {}).get("code")


@pytest.fixture
def wire(tmp_path: Path):
    wire = Wire(tmp_path)
    wire.initialize()
    yield wire
    stderr = wire.close()
    assert "Traceback" not in stderr, stderr
    assert not wire.shown(), wire.shown()  # nothing a client sends makes a popup


def test_messages_that_are_no_json_rpc_are_answered_or_dropped(wire: Wire, tmp_path: Path) -> None:
    for body, code in ((b"{not json", -32700), (b"\xff\xfe{", -32700), (b"[" * 100_000 + b"]" * 100_000, -32700),
                       (b"[1, 2, 3]", -32600), (b"null", -32600), (b'"text"', -32600)):
        wire.write(body)
        response = wire.answer(None)
        assert error_code(response) == code, (body[:20], response)
    wire.send({"jsonrpc": "1.0", "id": "old", "method": "shutdown"})
    assert error_code(wire.answer("old")) == -32600
    assert error_code(wire.request("no/such/method", {})) == -32601
    wire.notify("no/such/notification", {"x": 1})  # dropped: a notification gets no answer
    for params in ("garbage", {"textDocument": {"uri": 3}}, {"textDocument": {"uri": "file:///a.py"},
                                                             "position": {"line": -1, "character": 0}},
                   {"textDocument": {"uri": "file:///a.py"}, "position": {"line": 2**40, "character": 0}}):
        assert error_code(wire.request("textDocument/hover", params)) == -32602, params
    # A Content-Length shorter than the body: the rest is read as headers and skipped, the next message is read.
    wire.write(json.dumps({"jsonrpc": "2.0", "id": "cut", "method": "shutdown"}).encode(), length=10)
    assert error_code(wire.answer(None)) == -32700
    uri = write(tmp_path / "model.py", BUGGY).as_uri()
    wire.open(uri, BUGGY)
    assert published(wire.diagnostics(uri)) == expected(BUGGY)
    assert any("not JSON" in message for message in wire.logged())


def test_document_events_no_editor_would_send(wire: Wire, tmp_path: Path) -> None:
    never_opened = (tmp_path / "never.py").as_uri()
    wire.replace(never_opened, BUGGY, 2)
    wire.notify("textDocument/didClose", {"textDocument": {"uri": never_opened}})
    wire.notify("textDocument/didSave", {"textDocument": {"uri": never_opened}})
    position = {"line": 0, "character": 0}
    assert wire.request("textDocument/hover", {"textDocument": {"uri": never_opened}, "position": position}
                        )["result"] is None
    assert wire.request("textDocument/codeAction", {
        "textDocument": {"uri": never_opened}, "range": {"start": position, "end": position},
        "context": {"diagnostics": []}})["result"] == []

    uri = write(tmp_path / "model.py", BUGGY).as_uri()
    wire.open(uri, BUGGY)
    wire.diagnostics(uri, 1)
    wire.edit(uri, 2, 5, 30, 4, "")  # the range ends before it starts
    wire.edit(uri, 3, 900, 0, 0, "# past the last line\n")
    wire.edit(uri, 4, 2, 500, 900, "x")  # columns past the end of the line
    wire.replace(uri, BUGGY, 9)
    assert published(wire.diagnostics(uri, 9)) == expected(BUGGY)
    wire.replace(uri, BUGGY.replace(".log()", ".exp()"), 7)  # a version older than the last
    assert published(wire.diagnostics(uri, 7)) == expected(BUGGY.replace(".log()", ".exp()"))

    huge = BUGGY + "s = '" + "a" * 1_000_000 + "'\n"  # a line of a million characters
    wire.replace(uri, huge, 10)
    assert published(wire.diagnostics(uri, 10)) == expected(huge)
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri}})  # no text, no version: dropped
    wire.replace(uri, "\x00\ud800 = \x85 + 1\n", 11)  # NUL, a lone surrogate, NEL
    wire.diagnostics(uri, 11)
    wire.replace(uri, BUGGY, 12)
    assert published(wire.diagnostics(uri, 12)) == expected(BUGGY)
    assert error_code(wire.request("shutdown", None)) is None
    assert error_code(wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
                      ) == -32600  # after shutdown, as LSP says


def _long_document(lines: int) -> str:
    head, body = MODELS.split("\n\n\n", 1)
    parts, count = [head + "\n\n\n"], 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(body.replace("Net", f"Net{count}").replace("def run", f"def run{count}")
                     .replace("layers", f"layers{count}"))
        count += 1
    return "".join(parts)


def test_a_50000_line_document_gets_the_budget_of_one_file(tmp_path: Path) -> None:
    """Over `file-time-limit` the document is reported not linted (once) and the server goes on with the others;
    over the size `shapecheck lint` skips, it is not analysed at all."""
    write(tmp_path / "pyproject.toml", "[tool.shapecheck]\nfile-time-limit = 2\n")
    wire = Wire(tmp_path)
    try:
        wire.initialize()
        big = _long_document(50_000)
        assert len(split_lines(big)) >= 50_000
        big_uri = write(tmp_path / "big.py", big).as_uri()
        wire.open(big_uri, big)
        started = time.monotonic()
        assert wire.diagnostics(big_uri, 1, timeout=120) == []
        assert time.monotonic() - started < 60
        # the budget is CPU time, or `STALLED_FACTOR` times it by the clock on a machine too loaded to give the CPU
        assert any("not linted: took longer than 2 s" in message
                   or f"not linted: took longer than {2 * STALLED_FACTOR:g} s by the clock" in message
                   for message in wire.shown()), wire.logged()
        wire.edit(big_uri, 2, 0, 0, 0, "# an edit: not linted again until saved\n")
        small = write(tmp_path / "model.py", BUGGY).as_uri()
        wire.open(small, BUGGY)
        assert published(wire.diagnostics(small, timeout=120)) == expected(BUGGY)  # a fresh worker
        huge_uri = (tmp_path / "huge.py").as_uri()
        wire.open(huge_uri, "x = 1\n" * (1024 * 1024))  # 6 MiB
        assert wire.diagnostics(huge_uri) == []
        assert any("6.0 MiB is over the 5 MiB limit" in message for message in wire.logged())
    finally:
        stderr = wire.close()
    assert "Traceback" not in stderr, stderr


def test_a_burst_of_2000_edits_is_linted_as_one(wire: Wire, tmp_path: Path) -> None:
    uri = write(tmp_path / "model.py", MODELS).as_uri()
    wire.open(uri, MODELS)
    wire.diagnostics(uri, 1)
    line = MODELS.splitlines().index("def project(v):") + 1
    typed = "    w = v.transpose(0, 1).view(-1)  # typed a character at a time\n"
    version = 1
    for round_ in range(2000 // (2 * len(typed)) + 1):
        for column, character in enumerate(typed):  # type the line, then delete it again, with no wait
            version += 1
            wire.edit(uri, version, line, column, column, character)
        for column in reversed(range(len(typed))):
            version += 1
            wire.edit(uri, version, line, column, column + 1, "")
    version += 1
    wire.edit(uri, version, line, 0, 0, typed)
    final = "".join(split_lines(MODELS)[:line] + [typed] + split_lines(MODELS)[line:])
    assert version > 2000
    assert published(wire.diagnostics(uri, version, timeout=300)) == expected(final)
    linted = sum(1 for message in wire.notifications if message.get("method") == "textDocument/publishDiagnostics")
    assert linted < version / 10  # what arrived during a lint was linted with it


# ------------------------------------------------------------------------------------------------------- fuzz

FUZZED = int(os.environ.get("SHAPECHECK_FUZZ_MESSAGES", "300"))
METHODS = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose",
           "textDocument/hover", "textDocument/inlayHint", "textDocument/codeAction", "notebookDocument/didOpen",
           "notebookDocument/didChange", "notebookDocument/didClose", "$/cancelRequest", "$/setTrace",
           "workspace/didChangeConfiguration", "textDocument/completion", "no/such/method"]
TEXTS = [BUGGY, MODELS, "", "def f(:\n", "import torch\nx = torch.ones(3).view(-1\n", "\x00" * 10, "\ud800 = 1\n",
         "import torch\n" + "(" * 300 + ")" * 300 + "\n", "# -*- coding: latin-1 -*-\nx = 'é'\n",
         "%matplotlib inline\nimport torch\n", "import torch\nx = torch.ones(2, 3)\ny = x.t().view(-1)\n"]


class Fuzzer:
    """Messages made from a seeded generator: mostly well-formed ones with a field broken, some raw garbage."""

    def __init__(self, rng: random.Random, root: Path) -> None:
        self.rng = rng
        self.uris = [(root / f"fuzz{n}.py").as_uri() for n in range(4)] + ["untitled:1", "file:///", "x"]

    def value(self, depth: int = 0):
        """A value of any JSON type, or a position or range where none is wanted."""
        rng = self.rng
        choice = rng.randrange(12 if depth < 3 else 8)
        if choice < 8:
            return [None, True, -1, 2**40, 0.5, "", "x" * rng.randrange(1, 200), rng.choice(string.printable)][choice]
        if choice == 8:
            return [self.value(depth + 1)]
        if choice == 9:
            return {"uri": self.value(depth + 1)}
        return self.position() if choice == 10 else self.range()

    def position(self) -> dict:
        big = self.rng.random() < 0.2
        return {"line": self.rng.randrange(10**6 if big else 40), "character": self.rng.randrange(10**6 if big else 80)}

    def range(self) -> dict:
        return {"start": self.position(), "end": self.position()}

    def params(self, method: str) -> dict:
        rng = self.rng
        uri = rng.choice(self.uris)
        document = {"uri": uri, "version": rng.randrange(-2, 50)}
        text = rng.choice(TEXTS)
        if method == "textDocument/didOpen":
            return {"textDocument": {**document, "languageId": rng.choice(["python", "plaintext"]), "text": text}}
        if method == "textDocument/didChange":
            change = {"text": text} if rng.random() < 0.3 else {"range": self.range(), "text": rng.choice(
                ["", "x", "\n", ")", "import torch\n", text])}
            return {"textDocument": document, "contentChanges": [change]}
        if method.startswith("notebookDocument/"):
            cells = [{"kind": 2, "document": f"{uri}#cell{n}"} for n in range(rng.randrange(3))]
            return {"notebookDocument": {"uri": uri + ".ipynb", "notebookType": "jupyter-notebook", "version": 1,
                                         "cells": cells},
                    "cellTextDocuments": [{"uri": cell["document"], "languageId": "python", "version": 1,
                                           "text": rng.choice(TEXTS)} for cell in cells],
                    "change": {"cells": {"textContent": [{"document": {"uri": f"{uri}#cell0", "version": 2},
                                                          "changes": [{"text": rng.choice(TEXTS)}]}]}}}
        if method == "$/cancelRequest":
            return {"id": rng.randrange(5000)}
        return {"textDocument": {"uri": uri}, "position": self.position(), "range": self.range(),
                "context": {"diagnostics": [], "only": rng.choice([None, ["quickfix"], ["source.fixAll"]])}}

    def message(self, request_id: int) -> tuple[bytes, bool]:
        """A body, and whether a response must come back for it (a request with a readable id)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.05:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))), False
        method = rng.choice(METHODS)
        message: dict = {"jsonrpc": "2.0", "method": method, "params": self.params(method)}
        request = method in ("textDocument/hover", "textDocument/inlayHint", "textDocument/codeAction",
                             "textDocument/completion", "no/such/method") or rng.random() < 0.1
        if request:
            message["id"] = request_id
        if roll < 0.35:  # one field broken
            target = message["params"] if rng.random() < 0.8 else message
            key = rng.choice(sorted(target))
            if key == "id":
                pass
            elif rng.random() < 0.7:
                target[key] = self.value()
            else:
                del target[key]
        body = json.dumps(message).encode()
        if roll > 0.97:
            body = body[:rng.randrange(len(body))]  # cut short: not JSON any more
            return body, False
        return body, request


def _fuzz(wire: Wire, root: Path, seed: int, count: int) -> None:
    fuzzer = Fuzzer(random.Random(seed), root)
    alive = write(root / "alive.py", BUGGY).as_uri()  # never touched by the fuzzer: the server's pulse
    wire.open(alive, BUGGY)
    pending: list[int] = []
    for n in range(1, count + 1):
        body, answered = fuzzer.message(100_000 + n)
        wire.write(body)
        if answered:
            pending.append(100_000 + n)
        if n % 100 == 0 or n == count:
            pulse = wire.request("textDocument/hover", {"textDocument": {"uri": alive},
                                                        "position": {"line": 5, "character": 8}}, timeout=120)
            assert "error" not in pulse, (seed, n, pulse)
            for request_id in pending:  # every request got its response: a result or an error
                wire.answer(request_id, timeout=120)
            pending.clear()
            assert wire.process.poll() is None, f"seed {seed}: the server exited after message {n}"
    wire.replace(alive, BUGGY.replace("F.softmax", "F.log_softmax"), 2)
    assert published(wire.diagnostics(alive, 2, timeout=120)) == expected(BUGGY.replace("F.softmax", "F.log_softmax"))


@pytest.mark.parametrize("seed", range(2))
def test_fuzzed_messages_never_stop_the_server(wire: Wire, tmp_path: Path, seed: int) -> None:
    _fuzz(wire, tmp_path, seed, FUZZED)


# ------------------------------------------------------------------------------------------------------- soak

SOAK_EDITS = 2000


def _fixtures(lines: int) -> str:
    """The bundled fixtures, buggy and clean, in one file of about `lines` lines (as bench/server_latency.py)."""
    root = Path(__file__).resolve().parents[1] / "fixtures"
    text: list[str] = []
    for path in sorted((root / "buggy").glob("*.py")) + sorted((root / "clean").glob("*.py")):
        text += [line for line in split_lines(path.read_text()) if "from __future__" not in line]
        if len(text) >= lines:
            break
    return "".join(text)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("SHAPECHECK_SOAK"), reason="a soak test: set SHAPECHECK_SOAK=1")
def test_memory_stays_flat_over_2000_edits(wire: Wire, tmp_path: Path) -> None:
    """2,000 edits of a 1,000-line file with findings, each waited for as an editor's user does: after warming up,
    neither the server nor its worker grows by more than a tenth."""
    text = _fixtures(1000)
    uri = write(tmp_path / "model.py", text).as_uri()
    wire.open(uri, text)
    wire.diagnostics(uri, 1)
    line = next(n for n, code in enumerate(text.splitlines()) if code.startswith("def ")) + 1
    (worker,) = workers(wire.process.pid)
    samples = []
    for version in range(2, SOAK_EDITS + 2):
        if version % 2 == 0:  # a line typed in, then taken out again
            wire.edit(uri, version, line, 0, 0, f"    h{version} = v.transpose(0, 1).view(-1)\n")
        else:
            wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"range": {
                                                       "start": {"line": line, "character": 0},
                                                       "end": {"line": line + 1, "character": 0}}, "text": ""}]})
        wire.diagnostics(uri, version)
        wire.notifications.clear()
        if version % 100 == 0:
            time.sleep(1.5)  # a pause: the worker collects
            samples.append((version, resident_mib(wire.process.pid), resident_mib(worker)))
    print("\nedits, server MiB, worker MiB:", *(f"{v} {s:.1f} {w:.1f}" for v, s, w in samples), sep="\n  ")
    _, server_after_warmup, worker_after_warmup = samples[1]
    _, server_end, worker_end = samples[-1]
    assert server_end <= server_after_warmup * 1.1
    assert worker_end <= worker_after_warmup * 1.1
    assert workers(wire.process.pid) == [worker]  # the same worker all along: nothing went over budget
