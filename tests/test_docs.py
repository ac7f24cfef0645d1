"""The README stays true: it documents every rule, and CI runs the very test command it gives users."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shapecheck.engine.registry import all_rules

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_readme_lists_every_rule_with_its_defaults(rule) -> None:
    row = re.search(rf"^\| {rule.code} \| {re.escape(rule.name)} \| (on|off) \| (safe|unsafe|-) \|", README, re.M)
    assert row is not None, f"{rule.code} {rule.name} missing from the README's rule table"
    assert row.group(1) == ("on" if rule.default else "off")
    assert row.group(2) == (rule.fixable or "-")


def test_ci_runs_the_readme_commands() -> None:
    commands = re.findall(r"```bash\n(pip install[^\n]*)\n```", README)
    assert len(commands) >= 2, "the README's two set-up commands"
    ci = (ROOT / ".ci" / "run").read_text()
    test_command = next(c for c in commands if "pytest" in c)
    main_job = next(c for c in commands if "shapecheck lint" in c)
    assert test_command in ci
    assert main_job.split("&& ")[1] in ci
