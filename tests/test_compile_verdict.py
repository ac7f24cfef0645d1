"""SC000 is the running Python's compiler's verdict, at positions in the text linted, before any rule or fix; a
project that targets a newer Python is judged for that version."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck.engine import python_target
from shapecheck.engine.compile_check import compile_error
from shapecheck.engine.linter import lint_notebook, lint_text
from shapecheck.engine.python_target import lowest_version
from shapecheck.engine.registry import all_rules
from shapecheck.server.documents import Documents
from tests.cli_helpers import BUGGY, FIXED, lint, reported, write

RULES = all_rules()
WILDCARD = "import torch\nabcdefgh = torch.*Tensor\n"  # CPython and ruff: 2:18 "invalid syntax"
older_than_312 = pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running Python reads 3.12 syntax")


def sc000(result) -> list[tuple[int, int]]:
    return [(f.location.row, f.location.column) for f in result.findings if f.code == "SC000"]


# ------------------------------------------------------------------------- positions from the text linted

def test_the_column_comes_from_the_text_not_the_file_on_disk(project: Path) -> None:
    # CPython re-reads the line from a file of the given name and counts the column on it: here line 2 on disk is
    # shorter than the column, so it would say 2:7.
    disk = write(project / "m.py", "x = 1\nshort\n")
    assert sc000(lint_text(WILDCARD, str(disk), RULES)) == [(2, 18)]
    assert sc000(lint_text("é = 1\n" + WILDCARD, str(disk), RULES)) == [(3, 18)]


def test_stdin_filename_of_a_file_with_other_content(project: Path) -> None:
    write(project / "m.py", "x = 1\nshort\n")
    result = lint("--output-format", "concise", "--stdin-filename", "m.py", "-", stdin=WILDCARD)
    assert reported(result) == ["m.py:2:18: SC000"]


def test_notebook_cell_position_is_the_cells_own(project: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
             for source in ("import torch\n", "x = 1\nabcdefgh = torch.*Tensor\n")]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    path = write(project / "nb.ipynb", text)
    [finding] = lint_notebook(text, str(path), RULES).findings
    assert (finding.cell, finding.location.row, finding.location.column) == (2, 2, 18)


def test_an_unsaved_editor_buffer(project: Path) -> None:
    path = write(project / "m.py", "x = 1\nshort\n")  # what is saved; the buffer holds more
    documents = Documents()
    try:
        result = asyncio.run(documents.lint(path.as_uri(), str(path), WILDCARD, version=2))
    finally:
        documents.worker.stop()
    assert sc000(result) == [(2, 18)]


# ---------------------------------------------------------------- what libcst reads but CPython refuses

@pytest.mark.parametrize("line, position", [
    ('b"é"', (2, 1)),
    ('"\\N{NOT A NAME}"', (2, 17)),
    ("return 1", (2, 1)),  # the compiler's later passes refuse it, not the parser
    ("nonlocal x", (2, 1)),
])
def test_source_the_compiler_refuses_is_sc000_and_never_fixed(project: Path, line: str,
                                                               position: tuple[int, int]) -> None:
    path = write(project / "m.py", BUGGY.replace("\n", f"\n{line}\n", 1))
    result = lint_text(path.read_text(), str(path), RULES, fix="safe")
    assert sc000(result) == [position]
    assert result.new_source is None and result.fixed == 0
    cli = lint("--fix", "m.py")
    assert cli.exit_code == 1 and path.read_text() == BUGGY.replace("\n", f"\n{line}\n", 1)


@pytest.mark.parametrize("line", ['b"é"', '"\\N{NOT A NAME}"'])
def test_a_newer_target_does_not_excuse_what_no_python_accepts(project: Path, line: str) -> None:
    write(project / "pyproject.toml", '[project]\nname = "p"\nrequires-python = ">=3.13"\n')
    path = write(project / "m.py", BUGGY + "type X = int\n" + line + "\n")
    result = lint_text(path.read_text(), str(path), RULES, fix="safe")
    assert [f.code for f in result.findings] == ["SC000"] and result.new_source is None


NEWER = {
    "type statement": "type Pair = tuple[int, int]\n",
    "type parameters": "def first[T](items: list[T]) -> T:\n    return items[0]\n",
    "nested quotes in an f-string": 'names = {"a": 1}\nlabel = f"{names["a"]}"\n',
    "except*": "try:\n    pass\nexcept* ValueError:\n    pass\n",
}


@older_than_312
@pytest.mark.parametrize("code", NEWER.values(), ids=NEWER.keys())
def test_syntax_newer_than_the_running_python_is_sc000_without_a_newer_target(project: Path, code: str) -> None:
    if "except*" in code and sys.version_info >= (3, 11):
        pytest.skip("the running Python reads except*")
    write(project / "pyproject.toml", '[project]\nname = "p"\nrequires-python = ">=3.10"\n')
    path = write(project / "m.py", BUGGY + code)
    result = lint("--fix", "--output-format", "concise", "m.py")
    [finding] = reported(result)
    assert finding.startswith("m.py:") and finding.endswith(": SC000")
    assert path.read_text() == BUGGY + code  # never fixed


@older_than_312
@pytest.mark.parametrize("declaration", ['[project]\nrequires-python = ">=3.12"\n',
                                         '[project]\nrequires-python = ">=3.9"\n'
                                         '[tool.shapecheck]\ntarget-version = "py312"\n'])
@pytest.mark.parametrize("code", [c for c in NEWER.values() if "except*" not in c],
                         ids=[k for k, c in NEWER.items() if "except*" not in c])
def test_a_newer_target_is_linted_and_fixed_for_that_version(project: Path, declaration: str, code: str) -> None:
    write(project / "pyproject.toml", declaration)
    path = write(project / "m.py", BUGGY + code)
    result = lint("--fix", "--output-format", "concise", "m.py")
    assert result.exit_code == 0, result.output
    assert path.read_text() == FIXED + code
    assert "judged as Python 3.12 code" in result.stderr and "cannot compile it" in result.stderr
    assert str(project / "pyproject.toml") in result.stderr


@older_than_312
def test_under_a_newer_target_the_rest_of_the_file_is_still_compiled(project: Path) -> None:
    write(project / "pyproject.toml", '[project]\nrequires-python = ">=3.12"\n')
    text = BUGGY + "type X = int\n" + 'label = f"{d["k"]}"\n' + "return 1\n"
    result = lint_text(text, str(project / "m.py"), RULES, fix="safe")
    assert sc000(result) == [(5, 1)] and result.new_source is None
    assert "'return' outside function" in result.findings[0].message


@pytest.mark.skipif(sys.version_info >= (3, 13), reason="the running Python reads type parameter defaults")
def test_syntax_newer_than_the_target_is_sc000_at_its_position(project: Path) -> None:
    write(project / "pyproject.toml", '[project]\nrequires-python = ">=3.12"\n')
    text = BUGGY + "def f[T](x: T) -> T:\n    return x\nclass C[T = int]:\n    pass\n"
    result = lint_text(text, str(project / "m.py"), RULES, fix="safe")
    [finding] = result.findings
    assert (finding.code, finding.location.row, finding.location.column) == ("SC000", 5, 9)
    assert "type parameter defaults" in finding.message and "Python 3.13" in finding.message
    assert "target Python 3.12" in finding.message


def test_a_newer_target_changes_nothing_for_source_the_running_python_compiles(project: Path) -> None:
    write(project / "pyproject.toml", '[project]\nrequires-python = ">=3.99"\n')
    write(project / "m.py", BUGGY)
    result = lint("--output-format", "concise", "m.py")
    assert reported(result) == ["m.py:2:5: SC301"] and "judged as" not in result.stderr


@older_than_312
def test_notebook_cells_are_judged_for_the_target_too(project: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
             for source in (BUGGY, "type X = int\n")]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    path = write(project / "nb.ipynb", text)
    assert [f.code for f in lint_notebook(text, str(path), RULES).findings] == ["SC301", "SC000"]
    write(project / "pyproject.toml", '[project]\nrequires-python = ">=3.12"\n')
    python_target.forget()
    result = lint_notebook(text, str(path), RULES)
    assert [f.code for f in result.findings] == ["SC301"] and "judged as Python 3.12" in result.warning


@pytest.mark.parametrize("value, version", [(">=3.12", (3, 12)), ("~=3.12.1", (3, 12)), (">=3.10,<4", (3, 10)),
                                            ("==3.11.*", (3, 11)), (" >= 3.9 , != 3.9.1", (3, 9)), ("<3.13", None),
                                            ("", None), (">3.11", (3, 11)), (">=3", (3, 0))])
def test_the_lowest_version_requires_python_allows(value: str, version: tuple[int, int] | None) -> None:
    assert lowest_version(value) == version


def test_target_version_must_be_a_python_version(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.shapecheck]\ntarget-version = "3.12"\n')
    write(project / "m.py", BUGGY)
    result = lint("m.py")
    assert result.exit_code == 2 and "target-version" in result.stderr and "py312" in result.stderr


def test_compile_error_is_none_for_python_and_what_compile_says_otherwise() -> None:
    assert compile_error("x = 1\n") is None
    assert compile_error("await f()\n") is not None
    assert compile_error("await f()\n", top_level_await=True) is None
    error = compile_error("x = (\n")
    assert error is not None and (error.row, error.column) == (1, 5)


def test_a_chain_too_deep_to_compile_does_not_crash_an_ordinary_stack() -> None:
    # The linter raises the recursion limit for libcst; the compiler, recursing on the C stack that deep, would
    # overflow the main thread's 8 MiB and kill the process. It compiles under Python's own limit instead, and
    # leaves the verdict to libcst's guard.
    script = ("import sys\n"
              "from shapecheck.engine.compile_check import NoVerdict, compile_error, judge\n"
              "sys.setrecursionlimit(20_000)\n"
              "text = 'x = ' + 'a.' * 100_000 + 'b\\n'\n"
              "try:\n"
              "    compile_error(text)\n"
              "except NoVerdict as error:\n"
              "    print('no verdict:', error)\n"
              "print(judge(text, 'm.py', lambda: None).certain, sys.getrecursionlimit())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["no verdict: RecursionError", "False 20000"]


def test_without_a_verdict_the_guard_still_decides(project: Path) -> None:
    # Before the compiler judged first, such a file went to libcst's guarded parser: it still does, rules or none.
    result = lint_text("import torch\nx = " + "not " * 3000 + "y\n", "m.py", [])
    assert result.error == "too complex to analyse: an expression nested 3,000 deep on line 2"
