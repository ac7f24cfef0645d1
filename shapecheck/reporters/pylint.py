"""`--output-format pylint`: `path:row: [CODE] message`, one line per finding, in ruff's (and flake8's) pylint
layout, for tools that parse pylint's output.

A notebook finding gives its row in the .ipynb file itself, as the github format does (ruff gives row 1).
"""

from __future__ import annotations

from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters.concise import one_line
from shapecheck.reporters.paths import shown


def render(findings: Sequence[Finding]) -> str:
    return "\n".join(f"{shown(finding.filename)}:{finding.span_in_file[0].row}: [{finding.code}] "
                     f"{one_line(finding.message)}" for finding in findings)
