"""The open documents the editor server lints: each with the settings `shapecheck lint --force-exclude PATH` uses
for its path, and each re-parsed only where an edit changed it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shapecheck.config import Resolver, rules_without
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import ParsedSource, parse_source, reparse
from shapecheck.findings import FileResult
from shapecheck.runner import lint_decoded, with_large_stack


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
        self._parsed: dict[str, ParsedSource] = {}  # uri -> its latest parse, for re-parsing the next edit

    def lint(self, uri: str, path: str | None, text: str, version: int | None) -> FileResult | None:
        """Lint the document's text; None when its settings exclude it."""
        settings = self.settings.settings_for(path)
        if settings.excluded:
            self.forget(uri)
            return None
        result = with_large_stack(lint_decoded, text, path or uri, settings.rules, None, self._parser(uri))
        self.linted[uri] = Linted(version, text, result)
        return result

    def fixed(self, uri: str, path: str | None, text: str, unsafe: bool) -> str | None:
        """The document's text with every safe (or also unsafe) fix applied; None when nothing changes."""
        settings = self.settings.settings_for(path)
        if settings.excluded:
            return None
        result = with_large_stack(lint_decoded, text, path or uri, settings.rules, "unsafe" if unsafe else "safe",
                                  parse_source)
        return result.new_source

    def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self._parsed.pop(uri, None)

    def _parser(self, uri: str) -> Callable[[str], ParsedSource]:
        def parse(text: str) -> ParsedSource:
            previous = self._parsed.get(uri)
            source = parse_source(text) if previous is None else reparse(previous, text)
            self._parsed[uri] = source
            return source

        return parse
