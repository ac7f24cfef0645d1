"""Output: the `--output-format`s, `--statistics` and the closing summary, laid out as ruff lays out its own.

Each function returns the text to print without its final newline (`click.echo(text)` adds it); print nothing
when it is empty. The full format's text ends in an empty line, which parts the findings from the summary as in
ruff. Reporters use only the standard library: the engine's types are imported for type checking alone.

`unsafe_fixes` (also in `statistics`) says whether `--unsafe-fixes` is in force: then an unsafe fix counts as
fixable and earns `[*]`, as in ruff; otherwise only safe ones do.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from shapecheck.findings import Finding
from shapecheck.reporters.statistics import statistics, statistics_json
from shapecheck.reporters.summary import fix_only_summary, fixes_applied, summary

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# ruff's names; `full`, `concise` and `grouped` are for people and end with the summary, the others are for programs.
FORMATS = ("full", "concise", "grouped", "json", "json-lines", "junit", "sarif", "github", "gitlab", "pylint")
FOR_PEOPLE = ("full", "concise", "grouped")
# The formats that carry the rules' table or links beside the findings.
_WITH_RULES = ("json", "json-lines", "sarif")

__all__ = ["FORMATS", "FOR_PEOPLE", "fix_only_summary", "fixes_applied", "render", "statistics", "statistics_json",
           "summary"]


def render(output_format: str, findings: Sequence[Finding], rules: Sequence[type[Rule]], *,
           unsafe_fixes: bool = False) -> str:
    """`findings` sorted by file, row and column; `rules` the enabled rules (the SARIF rule table, JSON's URLs)."""
    if output_format not in FORMATS:
        raise ValueError(f"unknown output format {output_format!r}: expected one of {', '.join(FORMATS)}")
    # Each format's module is imported when it is asked for: a run prints one format, and a run answered from the
    # result cache takes little more than Python's start, which some of them would add to (gitlab's hashlib loads
    # OpenSSL).
    module = import_module(f"shapecheck.reporters.{output_format.replace('-', '_')}")
    if output_format in FOR_PEOPLE:
        return module.render(findings, unsafe_fixes)
    if output_format in _WITH_RULES:
        return module.render(findings, rules)
    return module.render(findings)
