"""Every rule's own VALID and INVALID examples, in the manner of Fixit's LintRule tests."""

from __future__ import annotations

import re

import pytest

from shapecheck.engine.registry import all_rules
from shapecheck.engine.rule import Rule
from tests.helpers import lint

VALID = [pytest.param(rule, code, id=f"{rule.code}-valid-{i}")
         for rule in all_rules() for i, code in enumerate(rule.valid_examples())]
INVALID = [pytest.param(rule, example, id=f"{rule.code}-invalid-{i}")
           for rule in all_rules() for i, example in enumerate(rule.invalid_examples())]


@pytest.mark.parametrize(("rule", "code"), VALID)
def test_valid_example_is_clean(rule: type[Rule], code: str) -> None:
    result = lint(code, rule.code)
    assert result.error is None
    assert [f for f in result.findings if f.code == rule.code] == [], code


@pytest.mark.parametrize(("rule", "example"), INVALID)
def test_invalid_example_is_reported(rule: type[Rule], example) -> None:
    result = lint(example.code, rule.code)
    found = [f for f in result.findings if f.code == rule.code]
    assert len(found) == example.count, (example.code, found)
    assert [f for f in result.findings if f.code != rule.code] == []
    if example.fixed is not None:
        fixed = lint(example.code, rule.code, fix="unsafe")
        assert fixed.new_source == example.fixed
        # A second pass over fixed code changes nothing.
        assert lint(example.fixed, rule.code, fix="unsafe").new_source is None


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_rule_is_documented_and_exemplified(rule: type[Rule]) -> None:
    assert re.fullmatch(r"SC\d{3}", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    docs = rule.documentation()
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in docs, f"{rule.code} docs lack {heading!r}"
    assert ("## Fix" in docs) == (rule.fixable is not None) or "no fix" in docs.lower()
    assert len(rule.VALID) >= 3, "every rule carries clean look-alikes"
    assert rule.INVALID, "every rule carries at least one bug"
    if rule.fixable:
        assert any(example.fixed for example in rule.invalid_examples()), "a fixable rule shows its fix"


def test_rule_codes_and_names_are_unique() -> None:
    rules = all_rules()
    assert len({rule.code for rule in rules}) == len(rules)
    assert len({rule.name for rule in rules}) == len(rules)
