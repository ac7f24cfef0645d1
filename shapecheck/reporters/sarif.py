"""`--output-format sarif`: a SARIF 2.1.0 log for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run; its rule table lists every enabled rule with its docs as help (GitHub shows `help.markdown` on the alert
page; `helpUri`, the rule's docs/rules page, only once shapecheck/urls.py names a published repository), plus an
entry for each engine code (SC000, SC999) that occurs. Levels are the rules' severities: `error` or `warning`. Results point into that table by `ruleIndex`.
Artifact URIs are relative to the repository root and based on `%SRCROOT%`, the form GitHub resolves against the
checkout; a file outside the repository gets an absolute `file://` URI, which SARIF allows no base for. A notebook
finding's region is where it is in the .ipynb file's JSON (ruff gives the row in the joined cells, which points
nowhere in the file GitHub shows).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from shapecheck import urls
from shapecheck.version import __version__
from shapecheck.findings import ENGINE_DOCS, Finding
from shapecheck.reporters.paths import absolute, repository_path, source_root

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"  # ruff's choice; GitHub accepts it


def render(findings: Sequence[Finding], rules: Sequence[type[Rule]]) -> str:
    descriptors = [_rule_descriptor(rule) for rule in {rule.code: rule for rule in rules}.values()]
    index = {descriptor["id"]: position for position, descriptor in enumerate(descriptors)}
    for finding in findings:
        if finding.code not in index:
            index[finding.code] = len(descriptors)
            descriptors.append(_engine_descriptor(finding))
    root = source_root(Path.cwd())
    driver = {"name": "shapecheck", "version": __version__, "rules": descriptors}
    if urls.REPOSITORY is not None:
        driver["informationUri"] = urls.REPOSITORY
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "results": [_result(finding, index[finding.code], root) for finding in findings],
        }],
    }
    return json.dumps(log, indent=2, sort_keys=True)


def _rule_descriptor(rule: type[Rule]) -> dict[str, Any]:
    tags = ["pytorch", "fixable"] if rule.fixable else ["pytorch"]  # lets the Security tab filter on what --fix fixes
    descriptor = _descriptor(rule.code, rule.name, rule.message, rule.documentation(), tags, rule.severity)
    url = rule.url()
    return descriptor if url is None else descriptor | {"helpUri": url}


def _engine_descriptor(finding: Finding) -> dict[str, Any]:
    docs = ENGINE_DOCS.get(finding.code, finding.name)
    return _descriptor(finding.code, finding.name, docs, docs, ["shapecheck-error"], finding.severity)


def _descriptor(code: str, name: str, summary: str, docs: str, tags: list[str], level: str) -> dict[str, Any]:
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": docs},
        "help": {"text": docs, "markdown": docs},
        "properties": {"tags": tags},
        "defaultConfiguration": {"level": level},
    }


def _result(finding: Finding, rule_index: int, root: Path) -> dict[str, Any]:
    start, end = finding.span_in_file
    region = {"startLine": start.row, "startColumn": start.column, "endLine": end.row, "endColumn": end.column}
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": finding.severity,
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(finding.filename, root), "region": region}}],
    }


def _artifact(filename: str, root: Path) -> dict[str, str]:
    relative = repository_path(filename, root)
    if relative is None:
        return {"uri": absolute(filename).as_uri()}
    # A URI: spaces, `%` and `#` must be escaped; a name that is not UTF-8 keeps its bytes (%FF).
    return {"uri": quote(relative, errors="surrogateescape"), "uriBaseId": "%SRCROOT%"}
