"""`--output-format github`: GitHub Actions workflow commands, one annotation per finding, in ruff's layout, as
`::error` or `::warning` by the rule's severity:

    ::error title=shapecheck (SC301),file=model.py,line=3,col=12,endLine=3,endColumn=43::model.py:3:12: SC301 ...

Values are escaped as the workflow-command spec (and @actions/core) does: `%`, CR and LF in the message; also `:`
and `,` in properties, which would otherwise end the property.

A notebook finding is annotated where it is in the .ipynb file's JSON, the file GitHub shows (ruff gives line 1,
column 1); the message names its cell: `nb.ipynb:cell 3:2:5: SC301 ...`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shapecheck.findings import Finding
from shapecheck.reporters.paths import absolute, repository_path, shown, source_root


def render(findings: Sequence[Finding]) -> str:
    root = source_root(Path.cwd())
    return "\n".join(_annotation(finding, root) for finding in findings)


def _annotation(finding: Finding, root: Path) -> str:
    start, end = finding.span_in_file
    path = shown(repository_path(finding.filename, root) or absolute(finding.filename).as_posix())
    if start.row == end.row:
        position = [("line", start.row), ("col", start.column), ("endLine", end.row), ("endColumn", end.column)]
    else:
        # GitHub drops an annotation whose col/endColumn span several lines, so a multi-line one names lines only.
        position = [("line", start.row), ("endLine", end.row)]
    properties = [("title", f"shapecheck ({finding.code})"), ("file", path), *position]
    names = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties)
    message = f"{shown(finding.filename)}:{finding.position}: {finding.code} {finding.message}"
    return f"::{finding.severity} {names}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
