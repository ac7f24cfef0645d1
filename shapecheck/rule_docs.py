"""Each rule's documentation as one markdown page: what `shapecheck rule CODE` prints, and `docs/rules/SCxxx.md`,
the page the `url` of JSON records and the `helpUri` of SARIF rules point to.

The pages are generated from the rules' own docs, never edited by hand. After adding or changing a rule, run

    python -m shapecheck.rule_docs            # rewrites docs/rules/ and rules/_index.py in the working directory

and commit the result; `tests/test_rule_docs.py` fails while a page is missing, stale or left over, or the index
(`INDEX`: what a lint decides before importing a rule, `engine.registry.rule_index`) is not the rules' own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from shapecheck.engine.registry import all_rules, entry_of, rules_by_code
from shapecheck.engine.rule import Rule
from shapecheck.findings import ENGINE_CODES, ENGINE_DOCS

DOCS_FOLDER = Path("docs") / "rules"
INDEX = Path("rules") / "_index.py"

_FIX = {"safe": "A safe fix is sometimes available (`--fix`).",
        "unsafe": "An unsafe fix is sometimes available (`--fix --unsafe-fixes`).",
        None: "No fix is available."}


def page(code: str) -> str:
    """The documentation of a rule or engine code, without a final newline. KeyError for an unknown code."""
    rule = rules_by_code().get(code)
    if rule is None:
        return f"# {ENGINE_CODES[code]} ({code})\n\n{ENGINE_DOCS[code]}"
    return f"# {rule.name} ({rule.code})\n\n{_summary(rule)}\n\n{rule.documentation()}"


def _summary(rule: type[Rule]) -> str:
    default = ("On by default." if rule.default
               else f"Off by default: enable it with `--extend-select {rule.code}` or `extend-select` in the config.")
    severity = ("Severity: error (the code crashes or silently computes the wrong thing)." if rule.severity == "error"
                else "Severity: warning (deprecated, slow, fragile or unsafe, but the result is right).")
    return f"{_FIX[rule.fixable]} {default} {severity}"


_FIX_AVAILABILITY = {"safe": ("Fix is sometimes available.", "Sometimes"),
                     "unsafe": ("Fix is sometimes available.", "Sometimes"),
                     None: ("Fix is not available.", "None")}


def record(code: str) -> dict[str, Any]:
    """A rule as `ruff rule CODE --output-format json` describes one (name, code, linter, summary, message_formats,
    fix, fix_availability, explanation, preview), plus shapecheck's own: severity, default, fix_applicability, url."""
    rule = rules_by_code().get(code)
    if rule is None:
        name, docs, summary, severity, default, fixable, url = (
            ENGINE_CODES[code], ENGINE_DOCS[code], ENGINE_DOCS[code], "error", True, None, None)
    else:
        name, docs, summary, severity, default, fixable, url = (
            rule.name, rule.documentation(), rule.message, rule.severity, rule.default, rule.fixable, rule.url())
    fix, availability = _FIX_AVAILABILITY[fixable]
    return {"name": name, "code": code, "linter": "shapecheck", "summary": summary, "message_formats": [summary],
            "fix": fix, "fix_availability": availability, "explanation": docs, "preview": False,
            "severity": severity, "default": default, "fix_applicability": fixable, "url": url}


def code_for(name_or_code: str) -> str | None:
    """The code a rule is asked for by: its code in any case (`sc101`) or its name (`view-after-transpose`)."""
    if name_or_code.upper() in ENGINE_CODES or name_or_code.upper() in rules_by_code():
        return name_or_code.upper()
    names = {rule.name: code for code, rule in rules_by_code().items()}
    names |= {name: code for code, name in ENGINE_CODES.items()}
    return names.get(name_or_code)


def all_codes() -> list[str]:
    return sorted([*ENGINE_CODES, *rules_by_code()])


def pages() -> dict[str, str]:
    """File name -> content of every page under docs/rules."""
    return {f"{code}.md": page(code) + "\n" for code in all_codes()}


def write(folder: Path) -> None:
    """Make `folder` hold exactly the generated pages."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for stale in folder.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        (folder / name).write_text(text, encoding="utf-8")


def index_source() -> str:
    """The text of `INDEX`: each rule's module, whether it is on by default, its triggers and whether they are
    looked for through imports, by code."""
    lines = ['"""Each rule\'s module, whether it is on by default, its triggers and whether they are looked for through',
             "imports, by code: what a lint decides before importing a rule (`engine.registry.rule_index`). Generated",
             'by `python -m shapecheck.rule_docs` from the rules\' classes; never edit it by hand."""', "", "RULES = {"]
    for rule in all_rules():
        entry = entry_of(rule)
        lines.append(f"    {_quoted(entry.code)}: ({_quoted(entry.module)}, {entry.default!r}, (")
        packed = ""
        for trigger in entry.triggers:
            item = f"{_quoted(trigger)}, "
            if packed and len(packed) + len(item) > 100:
                lines.append(f"        {packed.rstrip()}")
                packed = ""
            packed += item
        if packed:
            lines.append(f"        {packed.rstrip()}")
        lines.append(f"    ), {entry.triggered_through_imports!r}),")
    return "\n".join([*lines, "}", ""])


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a Python string literal too, in the project's double quotes


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS_FOLDER)
    INDEX.write_text(index_source(), encoding="utf-8")
