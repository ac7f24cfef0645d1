"""The closing lines of a run, in ruff's words:

    Found 3 errors (1 fixed, 2 remaining).
    [*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).
"""

from __future__ import annotations

from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies


def summary(findings: Sequence[Finding], fixed: int, unsafe_fixes_shown: bool) -> str:
    """`findings` are those left after fixing; `fixed` counts the fixes applied. With unsafe fixes shown, they count
    as fixable (ruff then still says "with the `--fix` option": `--unsafe-fixes` is already in force)."""
    fixable = sum(fix_applies(finding, unsafe_fixes_shown) for finding in findings)
    # Fixes that do not apply can only be unsafe ones held back, and with unsafe fixes shown there are none.
    hidden = sum(finding.fix is not None for finding in findings) - fixable
    lines = [_found(len(findings), fixed)]
    hint = f"{_plural(hidden, 'hidden fix', 'es')} can be enabled with the `--unsafe-fixes` option"
    if fixable and hidden:
        lines.append(f"{FIXABLE_MARKER} {fixable} fixable with the `--fix` option ({hint}).")
    elif fixable:
        lines.append(f"{FIXABLE_MARKER} {fixable} fixable with the `--fix` option.")
    elif hidden:
        lines.append(f"No fixes available ({hint}).")
    return "\n".join(lines)


def _found(remaining: int, fixed: int) -> str:
    if fixed:
        return f"Found {_plural(remaining + fixed, 'error')} ({fixed} fixed, {remaining} remaining)."
    if remaining:
        return f"Found {_plural(remaining, 'error')}."
    return "All checks passed!"


def _plural(count: int, noun: str, suffix: str = "s") -> str:
    return f"{count} {noun}{'' if count == 1 else suffix}"
