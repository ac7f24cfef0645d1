"""Applies rule fixes to a parsed module with libcst, so comments and formatting survive.

Overlapping fixes are not applied together: the first one wins and the rest are left for the next round, which
re-lints the fixed text. A result that does not parse is thrown away, never written.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from shapecheck.engine.compile_check import compiles
from shapecheck.engine.rule import Report
from shapecheck.engine.walker import walk


class _Replacer(cst.CSTTransformer):
    def __init__(self, replacements: dict[int, cst.CSTNode]) -> None:
        self.replacements = replacements

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(id(original_node), updated_node)


def _subtree_ids(node: cst.CSTNode) -> set[int]:
    return {id(n) for n in walk(node)}


def apply_fixes(module: cst.Module, reports: Sequence[Report]) -> tuple[str, list[str]]:
    """The module's code with as many of the reports' fixes applied as don't overlap, and the code of each report
    whose fix was applied."""
    # A fix must compile with the running Python too (libcst reads newer syntax, e.g. nested quotes in f-strings),
    # unless the file itself already needs a newer one (a project that targets a newer Python).
    strict = compiles(module.code)
    replacements: dict[int, cst.CSTNode] = {}
    claimed: set[int] = set()
    imports: list[str] = []
    applied: list[str] = []
    for report in reports:
        assert report.fix is not None
        covered = set().union(*(_subtree_ids(old) for old, _ in report.fix.replacements))
        if covered & claimed:
            continue
        candidate = {id(old): new for old, new in report.fix.replacements}
        trial = module.visit(_Replacer({**replacements, **candidate}))
        if not _parses(trial.code, strict):
            continue
        claimed |= covered
        replacements.update(candidate)
        imports.extend(i for i in report.fix.imports if i not in imports)
        applied.append(report.rule.code)
    if not applied:
        return module.code, []
    fixed = module.visit(_Replacer(replacements))
    if imports:
        first_use = next((index for index, statement in enumerate(module.body)
                          if not _subtree_ids(statement).isdisjoint(replacements)), len(module.body))
        fixed = _add_imports(fixed, imports, first_use)
    code = fixed.code
    return (code, applied) if _parses(code, strict) else (module.code, [])


def _parses(code: str, strict: bool) -> bool:
    try:
        cst.parse_module(code)
    except (cst.ParserSyntaxError, RecursionError):
        return False
    return not strict or compiles(code)


def _add_imports(module: cst.Module, imports: Sequence[str], first_use: int) -> cst.Module:
    """`imports` after the module's imports, but before `body[first_use]`, the first statement that needs them."""
    present = {module.code_for_node(statement).strip() for statement in module.body}
    missing = [cst.parse_statement(line + "\n") for line in imports if line not in present]
    if not missing:
        return module
    body = list(module.body)
    position = 0
    for index, statement in enumerate(body[:first_use]):
        if isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body
        ):
            position = index + 1
        elif position == 0 and index == 0 and _is_docstring(statement):
            position = 1
    return module.with_changes(body=body[:position] + missing + body[position:])


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))
