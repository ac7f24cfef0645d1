"""The README stays true: it documents every rule, and CI runs the very test command it gives users."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from shapecheck.engine.registry import all_rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

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
    # in a subshell: `set -e` ignores a failure left of `&&`, so a failed install would let CI pass on another
    # `shapecheck` found on PATH
    assert f"({test_command})" in ci
    assert main_job.split("&& ")[1] in ci


def test_every_pip_install_names_the_distribution_and_real_extras() -> None:
    """`shapecheck` on the package index is someone else's project: every install line in the README must name
    ours, with extras it has."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = set(project["optional-dependencies"])
    named = re.findall(r"pip install[^\n`&#]*?([\w.-]*shapecheck[\w.-]*)(?:\[([\w,]+)\])?", README)
    assert len(named) >= 6, named
    for name, extra in named:
        assert name == project["name"], f"`pip install {name}` installs another project"
        assert set(filter(None, extra.split(","))) <= extras, f"{name}[{extra}]: no such extra"


def test_the_comparison_table_covers_every_lint_option() -> None:
    from shapecheck.cli import lint

    section = README.split("### Compared with ruff and torch-preflight", 1)[1].split("\n### ", 1)[0]
    for parameter in lint.params:
        for flag in [*parameter.opts, *parameter.secondary_opts]:
            if flag.startswith("--"):
                assert f"`{flag}" in section or f"{flag}`" in section, f"{flag} is missing from the README's table"


# What `ruff check --help` and `ruff config` / `ruff config lint` list in ruff 0.17.6 (2026-11-28): the table
# answers each, so a user coming from ruff finds every flag and key.
RUFF_CHECK_FLAGS = """--fix --unsafe-fixes --show-fixes --diff --watch --fix-only --ignore-noqa --output-format --output-file
--target-version --preview --no-preview --extension --statistics --add-noqa --add-ignore --show-files --show-settings
--help --select --ignore --extend-select --per-file-ignores --extend-per-file-ignores --fixable --unfixable
--extend-fixable --exclude --extend-exclude --respect-gitignore --force-exclude --no-force-exclude --no-cache
--cache-dir --stdin-filename --exit-zero --exit-non-zero-on-fix --verbose --quiet --silent --config --isolated
--color""".split()
RUFF_KEYS = """cache-dir extend output-format output-prefer-rule-codes fix unsafe-fixes fix-only show-fixes required-version
preview exclude extend-exclude extend-include force-exclude include respect-gitignore extension builtins
namespace-packages target-version per-file-target-version src line-length indent-width allowed-confusables
dummy-variable-rgx extend-ignore extend-select extend-fixable external fixable ignore extend-safe-fixes
extend-unsafe-fixes ignore-init-module-imports logger-objects select explicit-preview-rules task-tags typing-modules
unfixable per-file-ignores extend-per-file-ignores typing-extensions future-annotations""".split()


def test_the_comparison_table_answers_every_ruff_flag_and_key() -> None:
    section = README.split("### Compared with ruff and torch-preflight", 1)[1].split("\n### ", 1)[0]
    flags, keys = section.split("| ruff configuration key |", 1)
    assert [flag for flag in RUFF_CHECK_FLAGS if f"`{flag}`" not in flags and f"/`{flag}`" not in flags] == []
    assert [key for key in RUFF_KEYS if f"`{key}`" not in keys.split("| torch-preflight")[0]] == []
