"""When a finding counts as fixable, and the `[*]` that says so.

The marker on a finding's line, the statistics and the summary's "[*] N fixable" all decide through
`fix_applies`, so they can never disagree about the same finding.
"""

from __future__ import annotations

from shapecheck.findings import Finding

FIXABLE_MARKER = "[*]"


def fix_applies(finding: Finding, unsafe_fixes: bool) -> bool:
    """Whether `--fix` would apply the finding's fix: a safe fix always, an unsafe one only with `--unsafe-fixes`
    (ruff's rule for showing `[*]`)."""
    return finding.fix is not None and (unsafe_fixes or finding.fix.applicability == "safe")
