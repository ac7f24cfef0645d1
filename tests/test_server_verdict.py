"""The editor server's verdict of the compiler (`shapecheck.server.verdict`): after an edit it compiles only the
top-level statements the edit replaced, and its verdict is always the whole text's (`engine.compile_check.judge`),
so the server's SC000 is `shapecheck lint`'s."""

from __future__ import annotations


import pytest

from shapecheck.engine.registry import resolve
from shapecheck.runner import lint_decoded
from shapecheck.server.incremental import Incremental
from tests.helpers import as_data

RULES = resolve(None)
BASE = '''"""A model."""
import torch
import torch.nn.functional as F

x = torch.ones(2, 3)


def scale(v):
    return v * 2


def head(v):
    return F.softmax(v, dim=-1).log()


y = scale(x)
'''
FUTURE = "from __future__ import annotations\n"


def lint(text: str, analysis: Incremental | None = None) -> tuple:
    result = lint_decoded(text, "model.py", RULES, None, *([analysis] if analysis is not None else []))
    return result.error, result.warning, [as_data(finding) for finding in result.findings]


def edits(texts: list[str]) -> list[bool]:
    """Lint the texts in turn as the server does, each checked against `shapecheck lint`; which verdicts compiled
    only the replaced statements."""
    analysis, partial = Incremental(), []
    for text in texts:
        assert lint(text, analysis) == lint(text), text
        partial.append(analysis.verdicts.partial)
    return partial


def test_an_edit_inside_a_function_compiles_that_function_alone() -> None:
    edited = BASE.replace("return v * 2", "return v * 3")
    assert edits([BASE, edited, BASE]) == [False, True, True]


@pytest.mark.parametrize("statement", [
    "return 1",  # the compiler's later passes refuse these, not the parser
    "nonlocal x",
    "await scale(x)",
    "def f(a, a):\n    pass",
    "f(**x, *y)",
])
def test_a_statement_that_does_not_compile_alone_is_judged_with_the_whole_text(statement: str) -> None:
    edited = BASE.replace("y = scale(x)\n", f"y = scale(x)\n{statement}\n")
    assert lint(edited)[2][0]["code"] == "SC000"
    assert edits([BASE, edited, BASE]) == [False, False, False]  # after an error, the whole text once more


def test_an_error_reported_elsewhere_than_the_edit_is_where_cpython_reports_it() -> None:
    # CPython parses the whole text before its later passes: the bytes literal libcst accepts and CPython's
    # parser refuses is reported, not the earlier statement's `nonlocal` at module level.
    edited = BASE.replace("y = scale(x)\n", 'nonlocal x\ny = scale(x)\nz = b"\u00e9"\n')
    (error,) = lint(edited)[2]
    assert (error["code"], error["location"]["row"]) == ("SC000", edited.count("\n"))
    assert edits([BASE, edited]) == [False, False]


def test_future_imports_apply_to_the_replaced_statements_and_must_stay_first() -> None:
    with_future = FUTURE + BASE.replace('"""A model."""\n', "")
    assert edits([with_future, with_future.replace("return v * 2", "return v * 3")]) == [False, True]
    # Without the future import CPython compiles this; with it, the annotation is refused.
    annotated = with_future.replace("return v * 2", "z: (yield)\n    return v * 2")
    assert lint(annotated)[2][0]["code"] == "SC000" and lint(annotated.replace(FUTURE, ""))[2][0]["code"] != "SC000"
    assert edits([with_future, annotated]) == [False, False]
    moved = with_future.replace(FUTURE, "") + FUTURE  # a future import below other code: refused
    assert lint(moved)[2][0]["code"] == "SC000"
    assert edits([with_future, with_future + FUTURE]) == [False, False]
    assert edits([with_future, "import os\n" + with_future]) == [False, False]  # an edit before it


def test_a_module_level_global_ties_statements_together_so_the_whole_text_is_compiled() -> None:
    edited = BASE.replace("y = scale(x)\n", "y = scale(x)\nglobal y\n")
    assert lint(edited)[2][0]["code"] == "SC000"  # assigned before its global declaration
    assert edits([BASE, edited]) == [False, False]


def test_a_text_libcst_cannot_parse_is_judged_whole() -> None:
    assert edits([BASE, BASE.replace("v * 2", "v * (2"), BASE]) == [False, False, False]
