"""A language client that writes raw bytes to `shapecheck server`: what a broken or hostile editor can send (JSON
that does not parse, messages of the wrong shape), and what a well-behaved one sends, for the hostile-client, fuzz
and soak tests."""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT = 60


class Wire:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.process = subprocess.Popen([sys.executable, "-m", "shapecheck", "server"], cwd=root,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict | None] = queue.Queue()
        self.responses: dict[int | str | None, dict] = {}
        self.notifications: list[dict] = []
        self.stderr: list[bytes] = []
        self._ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(iter(self.process.stderr.readline, b"")),  # type: ignore
                         daemon=True).start()

    # ------------------------------------------------------------------------------------------------- writing

    def write(self, body: bytes, length: int | None = None) -> None:
        """One message: `body` framed with its Content-Length (or the `length` given, true or not)."""
        header = f"Content-Length: {len(body) if length is None else length}\r\n\r\n".encode()
        self.process.stdin.write(header + body)  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]

    def send(self, message: Any) -> None:
        self.write(json.dumps(message).encode())

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def ask(self, method: str, params: Any) -> int:
        """Send a request; its id (`answer` waits for the response)."""
        request_id = next(self._ids)
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def request(self, method: str, params: Any, timeout: float = TIMEOUT) -> dict:
        return self.answer(self.ask(method, params), timeout)

    def initialize(self) -> None:
        self.request("initialize", {"processId": None, "rootUri": self.root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def open(self, uri: str, text: str, version: int = 1, language: str = "python") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language,
                                                              "version": version, "text": text}})

    def replace(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def edit(self, uri: str, version: int, line: int, start: int, end: int, text: str) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": start},
                                          "end": {"line": line, "character": end}}, "text": text}]})

    def close(self) -> str:
        """Shut the server down as an editor does; its standard error."""
        if self.process.poll() is None:
            try:
                self.request("shutdown", None, timeout=30)
                self.notify("exit", None)
                self.process.wait(30)
            except (OSError, TimeoutError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        return b"".join(self.stderr).decode("utf-8", "replace")

    # ------------------------------------------------------------------------------------------------- reading

    def answer(self, request_id: int | str | None, timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while request_id not in self.responses:
            self._next(deadline, f"the response to request {request_id}")
        return self.responses.pop(request_id)

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = TIMEOUT) -> list[dict]:
        """The next diagnostics published for `uri` (for `version`, when given)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.notifications):
                params = message.get("params") or {}
                if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri and (
                        version is None or params.get("version") == version):
                    del self.notifications[index]
                    return params["diagnostics"]
            self._next(deadline, f"diagnostics for {uri} (version {version})")

    def logged(self) -> list[str]:
        return [message["params"]["message"] for message in self.notifications
                if message.get("method") in ("window/logMessage", "window/showMessage")]

    def shown(self) -> list[str]:
        return [message["params"]["message"] for message in self.notifications
                if message.get("method") == "window/showMessage"]

    def _next(self, deadline: float, waiting_for: str) -> None:
        try:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError(f"no {waiting_for}: the server did not answer in time") from None
        if message is None:
            raise ConnectionError(f"the server closed its output (exit code {self.process.poll()}) "
                                  f"while waiting for {waiting_for}")
        if "method" in message:
            self.notifications.append(message)
        else:
            self.responses[message.get("id")] = message

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            self.messages.put(json.loads(stream.read(length)))


def workers(pid: int) -> list[int]:
    """The worker processes of the server `pid` (not multiprocessing's resource tracker), where /proc says."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    command = cmdline.read()
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid and b"resource_tracker" not in command:
                found.append(int(entry))
    return found


def resident_mib(pid: int) -> float:
    with open(f"/proc/{pid}/statm", "rb") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
