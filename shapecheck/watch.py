"""`shapecheck lint --watch`: lint, then lint again whenever a file that can change the result changes, until
Ctrl-C (exit 0), as `ruff check --watch` does.

The tree is polled (no dependency, every platform): each pass compares the size and modification time of every
Python file and notebook under the linted paths, and of the settings and packaging files (`pyproject.toml`,
`setup.cfg`, `requirements*.txt`, `.gitignore`) there and in the folders above; a file that appears or goes is a
change too. A change clears the screen (on a terminal) and lints again; the result cache
answers for the files that did not change, so only the changed ones are analysed. Folders that `exclude` leaves out
by default (virtualenvs, `.git`, caches, `node_modules`, ...) are not walked.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import NoReturn

import click

from shapecheck.cache import CACHE_DIR_NAME
from shapecheck.config import DEFAULT_EXCLUDE
from shapecheck.lint_command import Exit

POLL_SECONDS = 0.5
_SUFFIXES = (".py", ".ipynb")
_SETTINGS = ("pyproject.toml", "setup.cfg", ".gitignore")
_NOT_WALKED = frozenset((*DEFAULT_EXCLUDE, CACHE_DIR_NAME))
_CLEAR = "\x1b[2J\x1b[3J\x1b[H"  # erase the screen and the scroll-back, cursor to the top left

Snapshot = dict[str, tuple[int, int]]


def watch(paths: Sequence[str], lint_once: Callable[[], object], quiet: bool = False,
          interval: float = POLL_SECONDS) -> NoReturn:
    """Run `lint_once` (one pass of `shapecheck lint`, which ends in `lint_command.Exit`), then again after every change
    under `paths`, until interrupted."""

    def say(message: str) -> None:
        if not quiet:
            click.echo(f"[{time.strftime('%H:%M:%S')}] {message}", err=True)

    try:
        say("Starting linter in watch mode...")
        before = snapshot(paths)
        _pass(lint_once)
        say("Watching for file changes.")
        while True:
            time.sleep(interval)
            now = snapshot(paths)
            if now == before:
                continue
            before = now  # taken before the pass: a file saved while it runs is seen at the next poll
            if sys.stdout.isatty():
                click.echo(_CLEAR, nl=False)
            say("File change detected...")
            _forget_what_files_said()
            _pass(lint_once)
            say("Watching for file changes.")
    except KeyboardInterrupt:
        raise click.exceptions.Exit(0) from None


def _pass(lint_once: Callable[[], object]) -> None:
    try:
        lint_once()
    except Exit:
        pass  # the exit code of one pass: findings, or a broken configuration the user is about to fix
    sys.stdout.flush()


def _forget_what_files_said() -> None:
    """The engine's per-process memory of other files (a project's torch requirement) may be stale now."""
    dependencies = sys.modules.get("shapecheck.engine.dependencies")
    if dependencies is not None:
        dependencies.forget()


def snapshot(paths: Sequence[str]) -> Snapshot:
    """(size, modification time) of everything under `paths` whose change can change what `lint` reports."""
    seen: Snapshot = {}
    for path in paths:
        absolute = os.path.abspath(path)
        for folder in _parents(absolute):
            for name in (*_SETTINGS, "requirements.txt"):
                _stat(os.path.join(folder, name), seen)
        if os.path.isdir(absolute):
            _walk(absolute, seen)
        else:
            _stat(absolute, seen)
    return seen


def _parents(path: str) -> list[str]:
    folders = []
    folder = os.path.dirname(path)
    while folder and folder not in folders:
        folders.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folders


def _walk(folder: str, seen: Snapshot) -> None:
    try:
        with os.scandir(folder) as scan:
            entries = list(scan)
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in _NOT_WALKED:
                    _walk(entry.path, seen)
            elif entry.name.endswith(_SUFFIXES) or entry.name in _SETTINGS or (
                    entry.name.startswith("requirements") and entry.name.endswith(".txt")):
                info = entry.stat()
                seen[entry.path] = (info.st_size, info.st_mtime_ns)
        except OSError:
            continue


def _stat(path: str, seen: Snapshot) -> None:
    try:
        info = os.stat(path)
    except OSError:
        return
    seen[path] = (info.st_size, info.st_mtime_ns)
