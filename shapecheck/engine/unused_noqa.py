"""The unused-noqa check (SC900, ruff's RUF100): `# noqa: CODE` directives that silence nothing, found once the
file's other findings are known, each reported with a safe fix that removes the codes it does not need, or the
whole directive when it needs none.

A code in a directive is reported when the line has no finding of it to silence (`unused`), when its rule is not
enabled for the file (`non-enabled`), when it is named twice (`duplicated`) or when no rule has it (`unknown`). Only
shapecheck's codes count: `# noqa` is shared with ruff, flake8 and pylint, so a code that is not `SC` and three
digits belongs to another tool and is never touched, nor is a code listed in the `external` setting (another tool's
`SC` codes, such as flake8-spellcheck's SC100 / SC200). A bare `# noqa` is never reported for the same reason: it
may be there for another tool. A directive that names SC900 itself is left alone, as ruff leaves a RUF100 one.

The fix edits the comment through libcst (so it is made, checked and applied like any rule's): the reported codes
go, and a directive left without codes goes with its reason text, up to the next `#` comment on the line; a comment
left empty goes with the space before it.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection, Iterator

import libcst as cst

from shapecheck.engine.noqa import directive_in
from shapecheck.engine.records import record
from shapecheck.engine.rule import Fix, Report, Rule
from shapecheck.engine.source import ParsedSource
from shapecheck.findings import UNUSED_NOQA

_OURS = re.compile(r"SC[0-9]{3}")


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(unsafe_hash=True)
class _Directive:
    row: int
    comment: str  # the whole comment token
    start: int  # where the directive begins in it
    codes_start: int
    codes_end: int
    codes: tuple[str, ...]


def has_directive(text: str) -> bool:
    """Cheap test: could the text hold a `# noqa` naming one of our codes?"""
    return "noqa" in text.lower() and "SC" in text


def reports(source: ParsedSource, rule: Rule, suppressed: Collection[tuple[int, str]], enabled: Collection[str],
            known: Collection[str], external: tuple[str, ...]) -> list[Report]:
    """A report for each directive in `source` with codes it does not need. `suppressed`: the (row, code) of each
    finding a directive silenced; `enabled`: the file's enabled codes; `known`: every code there is."""
    found = []
    for directive in _directives(source.text):
        reasons, removed = _reasons(directive, suppressed, enabled, known, external)
        if reasons:
            found.append((directive, reasons, removed))
    if not found:
        return []
    comments = _comments(source.module)
    rows = source.positions(list(comments))
    by_row = {rows[node].start.line: node for node in comments}
    made = []
    for directive, reasons, removed in found:
        node = by_row.get(directive.row)
        if node is None or node.value != directive.comment:
            continue  # libcst and the tokenizer disagree about this comment: report nothing rather than guess
        message = "Unused `noqa` directive (" + "; ".join(
            f"{reason}: {', '.join(f'`{code}`' for code in codes)}" for reason, codes in reasons.items()) + ")"
        whole = len(removed) == len(directive.codes)
        fix = Fix("Remove unused `noqa` directive" if whole else "Remove unused codes from the `noqa` directive",
                  (_replacement(node, comments[node], _new_comment(directive, removed)),))
        made.append(Report(rule, node, message, fix))
    return made


def _directives(text: str) -> Iterator[_Directive]:
    if not has_directive(text):
        return
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    for token in tokens:
        if token.type != tokenize.COMMENT or "noqa" not in token.string.lower():
            continue
        match = directive_in(token.string)
        if match is not None and match.group("codes") is not None:
            codes = tuple(re.split(r"[\s,]+", match.group("codes").strip()))
            yield _Directive(token.start[0], token.string, match.start(), *match.span("codes"), codes)


def _reasons(directive: _Directive, suppressed: Collection[tuple[int, str]], enabled: Collection[str],
             known: Collection[str], external: tuple[str, ...]) -> tuple[dict[str, list[str]], set[int]]:
    """Why each code the directive does not need is there, by reason, and the positions (in `codes`) to remove:
    every mention of an unneeded code, and the second mention of a needed one."""
    reasons: dict[str, list[str]] = {"unused": [], "non-enabled": [], "duplicated": [], "unknown": []}
    removed: set[int] = set()
    if UNUSED_NOQA in directive.codes:
        return {}, removed
    seen: set[str] = set()
    for index, code in enumerate(directive.codes):
        if not _OURS.fullmatch(code) or code.startswith(external):
            continue
        reason = ("duplicated" if code in seen else "unknown" if code not in known
                  else "non-enabled" if code not in enabled
                  else "unused" if (directive.row, code) not in suppressed else None)
        seen.add(code)
        if reason is not None:
            reasons[reason].append(code)
            removed.add(index)
    return {reason: codes for reason, codes in reasons.items() if codes}, removed


def _new_comment(directive: _Directive, removed: set[int]) -> str:
    comment = directive.comment
    kept = [code for index, code in enumerate(directive.codes) if index not in removed]
    if kept:
        return comment[:directive.codes_start] + ", ".join(kept) + comment[directive.codes_end:]
    after = comment.find("#", directive.codes_end)
    rest = comment[after:] if after >= 0 else ""
    before = comment[:directive.start].rstrip()
    return f"{before}  {rest}" if before and rest else before or rest


def _replacement(node: cst.Comment, parent: cst.CSTNode, text: str
                 ) -> tuple[cst.CSTNode, cst.CSTNode | cst.RemovalSentinel]:
    if text:
        return node, cst.Comment(text)
    if isinstance(parent, cst.EmptyLine):  # a comment on a line of its own: the line goes
        return parent, cst.RemovalSentinel.REMOVE
    return parent, parent.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None)


def _comments(module: cst.Module) -> dict[cst.Comment, cst.CSTNode]:
    """Every comment of the module and the node that holds it (a TrailingWhitespace or an EmptyLine)."""
    found: dict[cst.Comment, cst.CSTNode] = {}

    class Collect(cst.CSTVisitor):
        def visit_TrailingWhitespace(self, node: cst.TrailingWhitespace) -> None:
            if node.comment is not None:
                found[node.comment] = node

        def visit_EmptyLine(self, node: cst.EmptyLine) -> None:
            if node.comment is not None:
                found[node.comment] = node

    module.visit(Collect())
    return found
