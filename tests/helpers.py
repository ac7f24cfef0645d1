"""Small helpers the tests share."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine import Rule, registry
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import all_rules, rules_by_code
from shapecheck.engine.registry import resolve
from shapecheck.findings import FileResult, Finding
from shapecheck.objects.project import PROJECT


def lint(source: str, *codes: str, fix: str | None = None, filename: str = "example.py") -> FileResult:
    """Lint `source` with the named rules (all rules when none are named)."""
    rules = [rules_by_code()[code] for code in codes] if codes else list(all_rules())
    return lint_text(source, filename, rules, fix=fix)


def write_project(folder: Path, files: dict[str, str]) -> None:
    """Write the project's `files` (path -> source, dedented) under `folder`, and forget what was read of any
    project before."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()


def rows_in(path: Path, select: str) -> list[int]:
    """The rows of the findings of `select` in the file at `path`, linted where it is."""
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve([select])).findings]


def project_rows(folder: Path, linted: str, files: dict[str, str], select: str) -> list[int]:
    """The rows `select` reports in the project file `linted` once `files` are written (`write_project`)."""
    write_project(folder, files)
    return rows_in(folder / linted, select)


def project_findings(folder: Path, files: dict[str, str], select: str) -> list[tuple[str, Finding]]:
    """Write the project's `files` (dedented) under `folder`, then lint each: the findings of `select`, with the
    file each is in."""
    write_project(folder, files)
    found = []
    for name in sorted(files):
        path = folder / name
        found += [(name, finding) for finding in lint_text(path.read_text(), str(path), resolve([select])).findings]
    return found


def lint_project(folder: Path, files: dict[str, str], select: str) -> list[tuple[str, int]]:
    """The findings of `select` in every file of the project, as (file, row)."""
    return [(name, finding.location.row) for name, finding in project_findings(folder, files, select)]


def as_data(value: object) -> object:
    """A finding (a named tuple of named tuples) as nested dicts, its tuples kept: what tests compare and print."""
    if hasattr(value, "_asdict"):
        return {name: as_data(field) for name, field in value._asdict().items()}
    if isinstance(value, tuple):
        return tuple(as_data(item) for item in value)
    return value


def codes_of(result: FileResult) -> list[str]:
    return [finding.code for finding in result.findings]


def add_rule(monkeypatch: pytest.MonkeyPatch, rule: type[Rule]) -> None:
    """Make a test's own `rule` one of the registry's, as if it were a module of `shapecheck.rules`."""
    rules, index = registry.all_rules(), registry.rule_index()
    monkeypatch.setattr(registry, "all_rules", lambda: (*rules, rule))
    monkeypatch.setattr(registry, "rule_index", lambda: {**index, rule.code: rule})
