"""`--statistics`: one line per code, most frequent first, in ruff's (and flake8's) layout:

    3	SC301	[*] log-of-softmax
    1	SC201	[ ] view-after-transpose

Count, code and name are tab-separated; the count is right-aligned and the code padded to the widest of each. The
middle column appears only when some finding is fixable: `[*]` all of the code's findings, `[-]` some, `[ ]` none.
With `--output-format json`, ruff's records instead: code, name, count, fixable, fixable_count, in the same order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies

PARTLY_FIXABLE_MARKER = "[-]"
UNFIXABLE_MARKER = "[ ]"


def statistics(findings: Sequence[Finding], unsafe_fixes: bool = False) -> str:
    rows = _by_code(findings)
    if not rows:
        return ""
    by_code = dict(rows)
    fixable = {code: sum(fix_applies(finding, unsafe_fixes) for finding in group) for code, group in rows}
    count_width = len(str(len(rows[0][1])))
    code_width = max(len(code) for code in by_code)
    show_markers = any(fixable.values())
    lines = []
    for code, group in rows:
        marker = f"{_marker(fixable[code], len(group))} " if show_markers else ""
        lines.append(f"{len(group):>{count_width}}\t{code:<{code_width}}\t{marker}{group[0].name}")
    return "\n".join(lines)


def statistics_json(findings: Sequence[Finding], unsafe_fixes: bool = False) -> str:
    records = []
    for code, group in _by_code(findings):
        fixable = sum(fix_applies(finding, unsafe_fixes) for finding in group)
        records.append({"code": code, "name": group[0].name, "count": len(group), "fixable": fixable > 0,
                        "fixable_count": fixable})
    return json.dumps(records, indent=2)


def _by_code(findings: Sequence[Finding]) -> list[tuple[str, list[Finding]]]:
    """Findings grouped by code, most frequent first, ties in code order (as ruff)."""
    by_code: dict[str, list[Finding]] = {}
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    return sorted(by_code.items(), key=lambda item: (-len(item[1]), item[0]))


def _marker(fixable: int, count: int) -> str:
    if fixable == count:
        return FIXABLE_MARKER
    return PARTLY_FIXABLE_MARKER if fixable else UNFIXABLE_MARKER
