"""`--output-format gitlab`: a GitLab Code Quality report (the CodeClimate JSON subset GitLab reads from
`artifacts: reports: codequality`), with ruff's keys in ruff's order:

    [{"check_name": "SC301", "description": "SC301: log of softmax ...", "severity": "major",
      "fingerprint": "9f2c...", "location": {"path": "src/model.py",
                                              "positions": {"begin": {"line": 3, "column": 12}, "end": {...}}}}]

Paths are relative to `CI_PROJECT_DIR` (set in every GitLab job), else to the repository root, the root GitLab
resolves them against. Severities: an error is `major`, a warning `minor` (ruff says `major` for everything). A
fingerprint identifies a finding across runs, so GitLab can tell new findings in a merge request from old ones: a
hash of the code, the message and the path, not the line, so editing lines above a finding keeps it; identical
findings in one file get distinct fingerprints by rehashing with the previous one, as ruff does. A notebook finding
is placed where it is in the .ipynb file.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shapecheck.findings import Finding, Location
from shapecheck.reporters.paths import relative_to, shown, source_root

SEVERITIES = {"error": "major", "warning": "minor"}


def render(findings: Sequence[Finding]) -> str:
    root = os.environ.get("CI_PROJECT_DIR") or source_root(Path.cwd())
    used: set[str] = set()
    issues = []
    for finding in findings:
        path = shown(relative_to(finding.filename, root))
        fingerprint = _fingerprint(finding, path, "")
        while fingerprint in used:
            fingerprint = _fingerprint(finding, path, fingerprint)
        used.add(fingerprint)
        start, end = finding.span_in_file
        issues.append({
            "check_name": finding.code,
            # GitLab shows the description but not check_name, so the code leads it (as in ruff).
            "description": f"{finding.code}: {finding.message}",
            "severity": SEVERITIES[finding.severity],
            "fingerprint": fingerprint,
            "location": {"path": path, "positions": {"begin": _position(start), "end": _position(end)}},
        })
    return json.dumps(issues, indent=2)


def _fingerprint(finding: Finding, path: str, salt: str) -> str:
    text = "\0".join((salt, finding.code, finding.message, path))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _position(location: Location) -> dict[str, Any]:
    return {"line": location.row, "column": location.column}
