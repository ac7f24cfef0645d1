"""`shapecheck lint --watch`: lint again on every change, from the cache for the files that did not change; Ctrl-C
exits 0."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shapecheck import runner, watch
from tests.cli_helpers import BUGGY, CLEAN, FIXED, lint, write


# How long a step may take: the subprocess lints, and exits, on a machine other jobs may be holding (a lint of these
# three small files takes well under a second alone; two `git pack-objects` on both cores took it past a minute).
DEADLINE = 300


class Lines:
    """A stream's lines as they come, read on a thread."""

    def __init__(self, stream) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))

    def until(self, text: str, timeout: float = DEADLINE) -> list[str]:
        """The lines up to the first that contains `text`; fails, with what came, if none has by the deadline."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no line with {text!r} in {timeout:g} s; the stream so far: {self.seen!r}")
            got.append(line)
            self.seen.append(line)
            if text in line:
                return got


def save(path: Path, text: str) -> None:
    """Write a file whole at once, as an editor saves it: the watcher's poll never sees it half written (an empty or
    cut file would be linted, and reported, on its own)."""
    partial = path.with_name(path.name + ".part")
    write(partial, text)
    os.replace(partial, path)


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl-C is a signal here")
def test_watch_reprints_after_each_change_and_exits_0_on_ctrl_c(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "clean.py", CLEAN)
    # Ctrl-C as a terminal sends it: where this test runs in a background job (`nohup ... &` in CI), the shell has
    # set SIGINT to be ignored, the child inherits that and Python then installs no KeyboardInterrupt for it.
    process = subprocess.Popen([sys.executable, "-m", "shapecheck", "lint", "--watch", "--output-format", "concise"],
                               cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        out, err = Lines(process.stdout), Lines(process.stderr)
        assert "Starting linter in watch mode..." in err.until("Starting linter")[-1]
        first = out.until("fixable with the `--fix` option")
        assert len(first) == 3 and first[0].startswith("model.py:2:5: SC301")  # the finding, then the summary
        err.until("Watching for file changes.")

        save(project / "model.py", FIXED)  # fixed by hand
        err.until("File change detected...")
        assert out.until("All checks passed!") == ["All checks passed!"]
        err.until("Watching for file changes.")

        save(project / "new.py", BUGGY)  # a file that appears
        err.until("File change detected...")
        assert out.until("fixable with the `--fix` option")[0].startswith("new.py:2:5: SC301")
        err.until("Watching for file changes.")

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEADLINE) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_only_changed_files_are_linted_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each poll is one `time.sleep`: this one edits a file at the first, does nothing at the second, adds a
    settings file at the third and presses Ctrl-C at the fourth."""
    write(project / "model.py", BUGGY)
    write(project / "clean.py", CLEAN)
    linted: list[list[str]] = []
    real_run = runner.run

    def run(tasks, *args, **kwargs):
        linted.append(sorted(task.path for task in tasks))
        return real_run(tasks, *args, **kwargs)

    steps = iter([
        lambda: write(project / "model.py", BUGGY + "z = 1\n"),
        lambda: None,
        lambda: write(project / "pyproject.toml", "[tool.shapecheck]\nignore = ['SC301']\n"),
    ])

    def sleep(seconds: float) -> None:
        step = next(steps, None)
        if step is None:
            raise KeyboardInterrupt
        step()

    monkeypatch.setattr(runner, "run", run)
    monkeypatch.setattr(watch.time, "sleep", sleep)
    result = lint("--watch", "--output-format", "concise")
    assert result.exit_code == 0
    # first pass: both; the edit: model.py alone; a new configuration: both again (it is part of every key)
    assert linted == [["clean.py", "model.py"], ["model.py"], ["clean.py", "model.py"]]
    assert result.stdout.count("model.py:2:5: SC301") == 2 and result.stdout.endswith("All checks passed!\n")
    assert result.stderr.count("File change detected...") == 2  # the quiet poll printed nothing


def test_the_snapshot_sees_what_can_change_a_result(project: Path) -> None:
    write(project / "src" / "model.py", BUGGY)
    write(project / "src" / "notes.txt", "")
    write(project / "src" / ".venv" / "lib" / "site.py", "")
    write(project / "pyproject.toml", "[tool.shapecheck]\n")
    before = watch.snapshot(["src"])
    assert set(before) >= {str(project / "src" / "model.py"), str(project / "pyproject.toml")}
    write(project / "src" / "notes.txt", "more")  # not linted, not settings
    write(project / "src" / ".venv" / "lib" / "site.py", "x = 1")
    assert watch.snapshot(["src"]) == before
    write(project / "src" / "requirements-dev.txt", "torch>=2.6\n")
    assert watch.snapshot(["src"]) != before
    os.remove(project / "src" / "requirements-dev.txt")
    write(project / "src" / "model.py", BUGGY + "\n")
    assert watch.snapshot(["src"]) != before


def test_watch_is_for_files(project: Path) -> None:
    for args in (("-",), ("--add-noqa", "."), ("--show-files",)):
        result = lint("--watch", *args)
        assert result.exit_code == 2 and "--watch lints files as they change" in result.stderr
