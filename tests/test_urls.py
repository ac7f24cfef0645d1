"""Every link shapecheck's outputs carry comes from shapecheck/urls.py and names a page that exists: none while no
repository is published (a link nobody checked was a 404 in code scanning and the editor), and once one is named,
SARIF, JSON and the editor's diagnostics all link each rule to its committed docs/rules page."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from shapecheck import urls
from shapecheck.engine.registry import all_rules
from shapecheck.findings import SYNTAX_ERROR, Finding, Location
from shapecheck.reporters import render
from shapecheck.rule_docs import DOCS_FOLDER
from shapecheck.rules.log_of_softmax import LogOfSoftmax
from shapecheck.server.protocol import Converter, diagnostic

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = "https://example.org/team/shapecheck"


def findings() -> list[Finding]:
    return [Finding(code, name, "message", "model.py", Location(1, 1), Location(1, 5))
            for code, name in (("SC301", "log-of-softmax"), (SYNTAX_ERROR, "syntax-error"))]


def outputs() -> tuple[dict, list[dict], list[types.Diagnostic]]:
    rules = (LogOfSoftmax,)
    convert = Converter(["x = 1"], PositionCodec())
    return (json.loads(render("sarif", findings(), rules)), json.loads(render("json", findings(), rules)),
            [diagnostic(finding, convert) for finding in findings()])


def test_without_a_published_repository_no_output_carries_a_link(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(urls, "REPOSITORY", None)
    sarif, records, diagnostics = outputs()
    assert "https://" not in json.dumps(sarif).replace(sarif["$schema"], "")
    assert [record["url"] for record in records] == [None, None]
    assert [item.code_description for item in diagnostics] == [None, None]
    rule, = [entry for entry in sarif["runs"][0]["tool"]["driver"]["rules"] if entry["id"] == "SC301"]
    assert rule["help"]["markdown"] == LogOfSoftmax.documentation()  # the docs travel in the log itself


def test_a_published_repository_links_every_output_to_the_committed_page(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(urls, "REPOSITORY", PUBLISHED)
    page = f"{PUBLISHED}/blob/main/docs/rules/SC301.md"
    sarif, records, diagnostics = outputs()
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == PUBLISHED
    assert [entry.get("helpUri") for entry in driver["rules"]] == [page, None]  # engine codes: no rule entry link
    assert [record["url"] for record in records] == [page, None]  # as ruff: a syntax error has no url
    assert [item.code_description.href for item in diagnostics] == [page, page.replace("SC301", SYNTAX_ERROR)]
    for code in [rule.code for rule in all_rules()] + [SYNTAX_ERROR, "SC999"]:
        link = urls.rule_page(code)
        assert link.startswith(f"{PUBLISHED}/blob/main/")
        assert (ROOT / link.removeprefix(f"{PUBLISHED}/blob/main/")).is_file()
        assert link.endswith(f"{DOCS_FOLDER}/{code}.md".replace("\\", "/"))


def test_pyproject_names_the_same_repository_as_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project.get("urls", {}).get("Repository") == urls.REPOSITORY


def test_no_other_module_spells_a_repository_address() -> None:
    address = re.compile(r"https?://(github\.com|gitlab\.com|codeberg\.org)/[\w.-]+/[\w.-]*shapecheck", re.I)
    sources = [*(ROOT / "shapecheck").rglob("*.py"), *(ROOT / "rules").glob("*.py")]
    assert [path for path in sources if path.name != "urls.py" and address.search(path.read_text())] == []
