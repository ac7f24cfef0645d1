"""The open documents the editor server lints: each with the settings `shapecheck lint --force-exclude PATH` uses
for its path, and each re-parsed and re-analysed only where an edit changed it (`incremental`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from shapecheck.config import Resolver, rules_without
from shapecheck.engine.guard import TooComplex
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import ParsedSource
from shapecheck.findings import FileResult
from shapecheck.notebook import SUFFIX, is_notebook
from shapecheck.runner import lint_decoded, with_large_stack
from shapecheck.server.incremental import Incremental


@dataclass(frozen=True)
class Settings:
    rules: tuple[type[Rule], ...]  # after per-file-ignores
    excluded: bool  # `exclude` / `extend-exclude` cover the file: like `--force-exclude`, it is not linted


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
            return Settings(config.enabled_rules(), excluded=False)
        return Settings(rules_without(config.enabled_rules(), config.ignored_codes(path)),
                        excluded=config.exclusions.covers(os.path.abspath(path)))


def _pyprojects_above(folder: str) -> tuple[tuple[str, int], ...]:
    stamps = []
    for candidate in (Path(folder), *Path(folder).parents):
        try:
            stamps.append((str(candidate), (candidate / "pyproject.toml").stat().st_mtime_ns))
        except OSError:
            continue
    return tuple(stamps)


@dataclass(frozen=True)
class Linted:
    version: int | None
    text: str
    result: FileResult


class Documents:
    def __init__(self) -> None:
        self.settings = SettingsCache()
        self.linted: dict[str, Linted] = {}  # uri -> its latest lint, for code actions
        self._analyses: dict[str, Incremental] = {}  # uri -> what its latest lint kept for the next one

    def lint(self, uri: str, path: str | None, text: str, version: int | None, name: str | None = None
             ) -> FileResult | None:
        """Lint the document's text (a notebook's JSON when `name` ends in .ipynb); None when its settings exclude
        it."""
        settings = self.settings.settings_for(path)
        if settings.excluded:
            self.forget(uri)
            return None
        analysis = self._analyses.setdefault(uri, Incremental())
        result = with_large_stack(lint_decoded, text, name or path or uri, settings.rules, None, analysis)
        self.linted[uri] = Linted(version, text, result)
        return result

    def lint_cells(self, uri: str, path: str | None, cells: list[tuple[bool, str]]) -> FileResult | None:
        """Lint a notebook given as its cells, (is code, text) in order, as `shapecheck lint` lints the .ipynb
        file: findings carry the 1-based cell number among all cells and rows within that cell."""
        document = {"cells": [{"cell_type": "code" if code else "markdown", "metadata": {}, "source": text,
                               **({"outputs": [], "execution_count": None} if code else {})} for code, text in cells],
                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        name = path or uri
        # Untitled notebooks have no path; the name must still say "notebook" to be linted as one.
        return self.lint(uri, path, json.dumps(document), None, name if is_notebook(name) else name + SUFFIX)

    def parsed(self, uri: str, path: str | None, text: str) -> ParsedSource | None:
        """The document's text parsed (re-using its latest parse), for hover and inlay hints; None when it does not
        parse, or its settings exclude it."""
        if self.settings.settings_for(path).excluded:
            return None
        analysis = self._analyses.setdefault(uri, Incremental())
        try:
            return analysis.parse(text)
        except (TooComplex, cst.ParserSyntaxError, SyntaxError, RecursionError):
            return None

    def fixed(self, uri: str, path: str | None, text: str, unsafe: bool) -> str | None:
        """The document's text with every safe (or also unsafe) fix applied; None when nothing changes."""
        settings = self.settings.settings_for(path)
        if settings.excluded:
            return None
        result = with_large_stack(lint_decoded, text, path or uri, settings.rules, "unsafe" if unsafe else "safe")
        return result.new_source

    def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self._analyses.pop(uri, None)
