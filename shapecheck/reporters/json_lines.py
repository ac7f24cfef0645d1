"""`--output-format json-lines`: the json format's records, one compact object per line, as ruff writes them (what
log shippers and `jq -c` read record by record). No findings: no output."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from shapecheck.findings import Finding
from shapecheck.reporters.json import record, urls_of

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule


def render(findings: Sequence[Finding], rules: Sequence[type[Rule]]) -> str:
    urls = urls_of(rules)
    return "\n".join(json.dumps(record(finding, urls.get(finding.code)), sort_keys=True, separators=(",", ":"))
                     for finding in findings)
