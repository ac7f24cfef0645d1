"""The open documents the editor server lints: each with the settings `shapecheck lint --force-exclude PATH` uses
for its path (rules, exclusions, the per-file budget), analysed in the worker process (`worker`, `analyses`).
"""

from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from shapecheck.config import CONFIG_FILES, Resolver, rules_without
from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.rule import Rule
from shapecheck.findings import FileResult
from shapecheck.notebook import SUFFIX, is_notebook
from shapecheck.runner import Budget, _limit, _too_large
from shapecheck.server.worker import NotLinted, Worker


@dataclass(frozen=True)
class Settings:
    rules: tuple[type[Rule], ...]  # after per-file-ignores
    excluded: bool  # `exclude` / `extend-exclude` cover the file: like `--force-exclude`, it is not linted
    budget: Budget  # `file-time-limit` and `file-memory-limit`: what one lint may take
    options: FileOptions  # `unfixable` and `external`, as `shapecheck lint` applies them


class SettingsCache:
    """Settings per file path, read again when a pyproject.toml above the file appears, changes or goes away.
    Raises `ConfigError` for a configuration `shapecheck lint` would refuse."""

    def __init__(self) -> None:
        self._resolver = Resolver(None)
        self._stamps: dict[str, tuple[tuple[str, int], ...]] = {}  # folder -> its pyproject.toml files as last seen

    def settings_for(self, path: str | None) -> Settings:
        folder = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
        stamp = _pyprojects_above(folder)
        if self._stamps.get(folder, stamp) != stamp:  # something changed: read every configuration again
            self._resolver = Resolver(None)
            self._stamps.clear()
        self._stamps[folder] = stamp
        config = self._resolver.for_folder(folder)
        if path is None:
            return Settings(config.enabled_rules(), False, config.budget, config.file_options)
        return Settings(rules_without(config.enabled_rules(), config.ignored_codes(path)),
                        config.exclusions.covers(os.path.abspath(path)), config.budget, config.file_options)


def _pyprojects_above(folder: str) -> tuple[tuple[str, int], ...]:
    stamps = []
    for candidate in (Path(folder), *Path(folder).parents):
        for name in CONFIG_FILES:  # pyproject.toml and the standalone shapecheck.toml / .shapecheck.toml
            try:
                stamps.append((str(candidate / name), (candidate / name).stat().st_mtime_ns))
            except OSError:
                continue
    return tuple(stamps)


@dataclass(frozen=True)
class Linted:
    version: int | None
    text: str
    result: FileResult


class Documents:
    """What the server knows of the open documents; every analysis is a job for the worker process. A document
    whose lint went over its budget, or that is over the size `shapecheck lint` skips, is not linted again until it
    is saved (a save may bring a raised limit or a smaller file); `not_linted` says why."""

    def __init__(self) -> None:
        self.settings = SettingsCache()
        self.linted: dict[str, Linted] = {}  # uri -> its latest lint, for code actions
        self.not_linted: dict[str, str] = {}  # uri -> why its latest lint was given up
        self.worker = Worker()

    async def lint(self, uri: str, path: str | None, text: str, version: int | None, name: str | None = None
                   ) -> FileResult | None:
        """Lint the document's text (a notebook's JSON when `name` ends in .ipynb); None when its settings exclude
        it or it was given up. Raises `ConfigError` for a configuration `shapecheck lint` would refuse."""
        settings = self.settings.settings_for(path)
        if settings.excluded:
            await self.forget(uri)
            return None
        if uri in self.not_linted:
            return None
        name = name or path or uri
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > _limit(name):  # as `shapecheck lint` skips such a file
            self.not_linted[uri] = _too_large(size, name)
            self.linted.pop(uri, None)
            return FileResult(name, warning=self.not_linted[uri])
        try:
            result = await self.worker.run(settings.budget, "lint", uri, name, text, settings.rules,
                                                 settings.options)
        except NotLinted as reason:
            self.not_linted[uri] = str(reason)
            self.linted.pop(uri, None)
            return FileResult(name, error=str(reason))
        self.linted[uri] = Linted(version, text, result)
        return result

    async def lint_cells(self, uri: str, path: str | None, cells: list[tuple[bool, str]]) -> FileResult | None:
        """Lint a notebook given as its cells, (is code, text) in order, as `shapecheck lint` lints the .ipynb
        file: findings carry the 1-based cell number among all cells and rows within that cell."""
        document = {"cells": [{"cell_type": "code" if code else "markdown", "metadata": {}, "source": text,
                               **({"outputs": [], "execution_count": None} if code else {})} for code, text in cells],
                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        name = path or uri
        # Untitled notebooks have no path; the name must still say "notebook" to be linted as one.
        return await self.lint(uri, path, json.dumps(document), None, name if is_notebook(name) else name + SUFFIX)

    async def fixed(self, uri: str, path: str | None, text: str, unsafe: bool) -> str | None:
        """The document's text with every safe (or also unsafe) fix applied; None when nothing changes."""
        settings = self.settings.settings_for(path)
        if settings.excluded or uri in self.not_linted:
            return None
        try:
            return await self.worker.run(settings.budget, "fixed", path or uri, text, settings.rules, unsafe,
                                         settings.options)
        except NotLinted:
            return None

    async def hover(self, uri: str, path: str | None, text: str, position: types.Position, encoding: str
                    ) -> types.Hover | None:
        return await self._shapes(uri, path, "hover", text, position.line, position.character, encoding)

    async def inlay_hints(self, uri: str, path: str | None, text: str, first: int, last: int, encoding: str
                          ) -> list[types.InlayHint]:
        return await self._shapes(uri, path, "inlay_hints", text, first, last, encoding) or []

    async def _shapes(self, uri: str, path: str | None, method: str, *args: object):
        settings = self.settings.settings_for(path)
        if settings.excluded or uri in self.not_linted:
            return None
        try:
            return await self.worker.run(settings.budget, method, uri, path or uri, *args)
        except NotLinted:
            return None

    def readers_of(self, path: str) -> list[str]:
        """The documents whose latest lint read the file at `path` (`FileResult.dependencies`)."""
        wanted = glob.escape(os.path.abspath(path))
        return [uri for uri, linted in self.linted.items() if wanted in linted.result.dependencies]

    def retry(self, uri: str) -> None:
        """Lint the document again even if its latest lint was given up (it was saved)."""
        self.not_linted.pop(uri, None)

    async def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self.not_linted.pop(uri, None)
        if self.worker.alive:  # a fresh worker knows nothing of it anyway
            try:
                await self.worker.run(Budget(None, None), "forget", uri)
            except NotLinted:
                pass
