"""`--output-format grouped`: findings under a heading per file, rows and columns aligned, as ruff groups them:

    model.py:
       3:12 SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`
      41:9  SC101 `.view(B, -1)` merges dims ...

A blank line follows each file (so the summary stands apart). A notebook finding's position is `cell N:row:col`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from shapecheck.findings import Finding
from shapecheck.reporters.concise import one_line
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies
from shapecheck.reporters.paths import shown


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    groups = []
    for filename, group in groupby(findings, key=lambda finding: finding.filename):
        group = list(group)
        row_width = max(len(str(finding.location.row)) for finding in group)
        column_width = max(len(str(finding.location.column)) for finding in group)
        lines = [f"{shown(filename)}:"]
        for finding in group:
            cell = "" if finding.cell is None else f"cell {finding.cell}:"
            row, column = str(finding.location.row), str(finding.location.column)
            marker = f"{FIXABLE_MARKER} " if fix_applies(finding, unsafe_fixes) else ""
            lines.append(f"  {' ' * (row_width - len(row))}{cell}{row}:{column}{' ' * (column_width - len(column))} "
                         f"{finding.code} {marker}{one_line(finding.message)}")
        groups.append("\n".join(lines))
    return "\n\n".join(groups) + "\n" if groups else ""
