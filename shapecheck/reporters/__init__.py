"""Output: the `--output-format`s, `--statistics` and the closing summary, laid out as ruff lays out its own.

Each function returns the text to print without its final newline (`click.echo(text)` adds it); print nothing
when it is empty. The full format's text ends in an empty line, which parts the findings from the summary as in
ruff. Reporters use only the standard library: the engine's types are imported for type checking alone.

`unsafe_fixes` (also in `statistics`) says whether `--unsafe-fixes` is in force: then an unsafe fix counts as
fixable and earns `[*]`, as in ruff; otherwise only safe ones do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from shapecheck.findings import Finding
from shapecheck.reporters.statistics import statistics, statistics_json
from shapecheck.reporters.summary import fix_only_summary, fixes_applied, summary

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# ruff's names; `full`, `concise` and `grouped` are for people and end with the summary, the others are for programs.
FORMATS = ("full", "concise", "grouped", "json", "json-lines", "junit", "sarif", "github", "gitlab", "pylint")
FOR_PEOPLE = ("full", "concise", "grouped")

__all__ = ["FORMATS", "FOR_PEOPLE", "fix_only_summary", "fixes_applied", "render", "statistics", "statistics_json",
           "summary"]


def render(output_format: str, findings: Sequence[Finding], rules: Sequence[type[Rule]], *,
           unsafe_fixes: bool = False) -> str:
    """`findings` sorted by file, row and column; `rules` the enabled rules (the SARIF rule table, JSON's URLs)."""
    # Each format's module is imported when it is asked for: a run prints one format, and a run answered from the
    # result cache takes little more than Python's start, which some of them would add to (gitlab's hashlib loads
    # OpenSSL).
    if output_format == "full":
        from shapecheck.reporters import full

        return full.render(findings, unsafe_fixes)
    if output_format == "concise":
        from shapecheck.reporters import concise

        return concise.render(findings, unsafe_fixes)
    if output_format == "grouped":
        from shapecheck.reporters import grouped

        return grouped.render(findings, unsafe_fixes)
    if output_format == "json":
        from shapecheck.reporters import json

        return json.render(findings, rules)
    if output_format == "json-lines":
        from shapecheck.reporters import json_lines

        return json_lines.render(findings, rules)
    if output_format == "sarif":
        from shapecheck.reporters import sarif

        return sarif.render(findings, rules)
    if output_format == "github":
        from shapecheck.reporters import github

        return github.render(findings)
    if output_format == "gitlab":
        from shapecheck.reporters import gitlab

        return gitlab.render(findings)
    if output_format == "junit":
        from shapecheck.reporters import junit

        return junit.render(findings)
    if output_format == "pylint":
        from shapecheck.reporters import pylint

        return pylint.render(findings)
    raise ValueError(f"unknown output format {output_format!r}: expected one of {', '.join(FORMATS)}")
