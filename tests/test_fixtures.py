"""The bundled fixtures: every `# expect: CODE` comment is a finding, and nothing else is.

Buggy and clean example files shared by the tests and the docs; `shapecheck lint fixtures/` is the README's demo.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shapecheck.engine.registry import all_rules
from tests.helpers import lint

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>SC\d{3}(?:\s*,\s*SC\d{3})*)")
LINT_FIXTURES = sorted(p for p in FIXTURES.rglob("*.py") if not p.name.endswith(".expected.py"))


def expectations(source: str) -> list[tuple[int, str]]:
    expected = []
    for row, line in enumerate(source.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            expected += [(row, code.strip()) for code in match.group("codes").split(",")]
    return sorted(expected)


@pytest.mark.parametrize("path", LINT_FIXTURES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_findings_match_expectations(path: Path) -> None:
    source = path.read_text()
    result = lint(source)
    assert result.error is None
    found = sorted((f.location.row, f.code) for f in result.findings)
    assert found == expectations(source)
    if path.parent.name == "clean":
        assert found == []


def test_every_rule_has_a_buggy_fixture() -> None:
    expected = {code for path in LINT_FIXTURES for _, code in expectations(path.read_text())}
    missing = [rule.code for rule in all_rules() if rule.code not in expected]
    assert missing == []


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("fixes/*.expected.py")), ids=lambda p: p.name)
def test_fix_fixture_gives_expected_output(path: Path) -> None:
    source = path.with_name(path.name.replace(".expected.py", ".py")).read_text()
    result = lint(source, fix="unsafe")
    assert result.new_source == path.read_text()
    assert lint(path.read_text(), fix="unsafe").new_source is None, "fixing is idempotent"
