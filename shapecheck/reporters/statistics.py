"""`--statistics`: one line per code, most frequent first, in ruff's (and flake8's) layout:

    3	SC301	[*] log-of-softmax
    1	SC201	[ ] view-after-transpose

Count, code and name are tab-separated; the count is right-aligned and the code padded to the widest of each. The
middle column appears only when some finding is fixable: `[*]` all of the code's findings, `[-]` some, `[ ]` none.
"""

from __future__ import annotations

from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies

PARTLY_FIXABLE_MARKER = "[-]"
UNFIXABLE_MARKER = "[ ]"


def statistics(findings: Sequence[Finding], unsafe_fixes: bool = False) -> str:
    by_code: dict[str, list[Finding]] = {}
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    if not by_code:
        return ""
    rows = sorted(by_code.items(), key=lambda item: (-len(item[1]), item[0]))  # ties in code order, as ruff
    fixable = {code: sum(fix_applies(finding, unsafe_fixes) for finding in group) for code, group in rows}
    count_width = len(str(len(rows[0][1])))
    code_width = max(len(code) for code in by_code)
    show_markers = any(fixable.values())
    lines = []
    for code, group in rows:
        marker = f"{_marker(fixable[code], len(group))} " if show_markers else ""
        lines.append(f"{len(group):>{count_width}}\t{code:<{code_width}}\t{marker}{group[0].name}")
    return "\n".join(lines)


def _marker(fixable: int, count: int) -> str:
    if fixable == count:
        return FIXABLE_MARKER
    return PARTLY_FIXABLE_MARKER if fixable else UNFIXABLE_MARKER
