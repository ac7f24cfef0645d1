"""`--output-format json`: ruff's JSON records, so scripts written against `ruff check --output-format json` read
shapecheck's output unchanged.

Keys and their order are ruff's (every object's keys sorted): cell, code, end_location, filename, fix, location,
message, name, noqa_row, severity, url; a fix carries its applicability, its message and every edit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shapecheck.findings import INTERNAL_ERROR, SYNTAX_ERROR, Finding, FixInfo, Location
from shapecheck.reporters.paths import absolute, shown

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# No noqa comment silences these (ruff likewise gives a syntax error no noqa_row).
_UNSUPPRESSIBLE = frozenset({SYNTAX_ERROR, INTERNAL_ERROR})


def render(findings: Sequence[Finding], rules: Sequence[type[Rule]]) -> str:
    urls = urls_of(rules)
    # ASCII escapes keep the output valid on any console encoding; every JSON reader decodes them.
    return json.dumps([record(finding, urls.get(finding.code)) for finding in findings], indent=2, sort_keys=True)


def urls_of(rules: Sequence[type[Rule]]) -> dict[str, str]:
    return {rule.code: rule.url() for rule in rules}


def record(finding: Finding, url: str | None) -> dict[str, Any]:
    return {
        "cell": finding.cell,  # a notebook's: rows count from the cell's first line, as in ruff
        "code": finding.code,
        "end_location": _location(finding.end_location),
        # Absolute, as ruff writes it; standard input without --stdin-filename stays `-`.
        # Bytes that are not UTF-8 as `\xNN` (see `paths.shown`): strict UTF-8 readers reject lone surrogates.
        "filename": shown(finding.filename if finding.filename == "-" else str(absolute(finding.filename))),
        "fix": None if finding.fix is None else _fix(finding.fix),
        "location": _location(finding.location),
        "message": finding.message,
        "name": finding.name,
        # A noqa comment acts on the line a finding starts on.
        "noqa_row": None if finding.code in _UNSUPPRESSIBLE else finding.location.row,
        "severity": finding.severity,  # the rule's: "error" or "warning"
        "url": url,
    }


def _fix(fix: FixInfo) -> dict[str, Any]:
    return {
        "applicability": fix.applicability,
        "edits": [
            {"content": edit.content, "end_location": _location(edit.end_location),
             "location": _location(edit.location)}
            for edit in fix.edits
        ],
        "message": fix.message,
    }


def _location(location: Location) -> dict[str, int]:
    return {"column": location.column, "row": location.row}
