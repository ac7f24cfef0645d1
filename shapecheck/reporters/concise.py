"""`--output-format concise`: one `path:row:col: CODE [*] message` line per finding, as ruff prints it."""

from __future__ import annotations

from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies
from shapecheck.reporters.paths import shown


def line(finding: Finding, unsafe_fixes: bool) -> str:
    """The finding on one line; also the heading of each finding in the full format."""
    marker = f"{FIXABLE_MARKER} " if fix_applies(finding, unsafe_fixes) else ""
    # One finding per line is what grep and editors' problem matchers rely on; an internal error's message quotes an
    # exception, which may span lines.
    return f"{shown(finding.filename)}:{finding.position}: {finding.code} {marker}{one_line(finding.message)}"


def one_line(message: str) -> str:
    return " ".join(message.splitlines())


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return "\n".join(line(finding, unsafe_fixes) for finding in findings)
