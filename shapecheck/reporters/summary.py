"""The closing lines of a run, in ruff's words:

    Found 3 errors (1 fixed, 2 remaining).
    [*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shapecheck.findings import FileResult, Finding
from shapecheck.reporters.fixability import FIXABLE_MARKER, fix_applies
from shapecheck.reporters.paths import shown


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


def fixes_applied(results: Sequence[FileResult], names: Mapping[str, str]) -> str:
    """`--show-fixes`: the fixes applied, by file and rule, as ruff enumerates them (`names`: code -> rule name).

        Fixed 3 errors:
        - model.py:
            2 × SC301 (log-of-softmax)
            1 × SC101 (view-after-transpose)
    """
    fixed = [result for result in results if result.fixes]
    lines = ["", f"Fixed {_plural(sum(result.fixed for result in fixed), 'error')}:"]
    for result in sorted(fixed, key=lambda result: result.filename):
        lines.append(f"- {shown(result.filename)}:")
        for code, count in sorted(result.fixes.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"    {count} \u00d7 {code} ({names.get(code, code)})")
    return "\n".join([*lines, ""])


def fix_only_summary(findings: Sequence[Finding], fixed: int, unsafe_fixes_shown: bool) -> str:
    """`--fix-only`'s closing line, in ruff's words: what was fixed, and the unsafe fixes held back."""
    hidden = sum(finding.fix is not None and not fix_applies(finding, unsafe_fixes_shown) for finding in findings)
    note = f" ({_plural(hidden, 'additional fix', 'es')} available with `--unsafe-fixes`)" if hidden else ""
    if fixed:
        return f"Fixed {_plural(fixed, 'error')}{note}."
    return f"No errors fixed{note}." if hidden else ""
