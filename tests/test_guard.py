"""The complexity guard: files libcst would spend minutes or gigabytes on are reported, never parsed; real code,
however long, is not mistaken for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from shapecheck.engine.guard import MAX_BRACKETS, MAX_CHAIN, MAX_DEPTH, too_complex
from tests.cli_helpers import BUGGY, lint, reported, write

OTHER = "other.py:2:5: SC301"

CHAINS = {
    "attribute": lambda n: "y = x" + ".a" * n,
    "binary": lambda n: "y = a" + " + a" * n,
    "method calls": lambda n: "y = x" + ".f()" * (n // 2),
    "subscripts": lambda n: "y = x" + "[0]" * n,
    "strings": lambda n: "y = 'a'" + " 'a'" * n,
    "a multi-line sum": lambda n: "y = (a\n" + "     - b * c\n" * n + ")",
}
NESTINGS = {
    "not": lambda n: "y = " + "not " * n + "a",
    "unary minus": lambda n: "y = " + "-" * n + "a",
    "invert": lambda n: "y = " + "~" * n + "a",
    "lambda": lambda n: "y = " + "lambda: " * n + "a",
    "conditional": lambda n: "y = " + "a if b else " * n + "a",
    "power": lambda n: "y = a" + " ** a" * n,
    "brackets and operators": lambda n: "y = " + "-(not " * 50 + "-" * n + "a" + ")" * 50,
}


@pytest.mark.parametrize("make", CHAINS.values(), ids=CHAINS.keys())
def test_long_chains_are_too_complex(make) -> None:
    assert too_complex("import torch\n" + make(20_000) + "\n") is not None
    assert too_complex("import torch\n" + make(MAX_CHAIN // 2) + "\n") is None


@pytest.mark.parametrize("make", NESTINGS.values(), ids=NESTINGS.keys())
def test_deep_nesting_is_too_complex(make) -> None:
    assert too_complex(make(20_000) + "\n") is not None
    assert too_complex(make(MAX_DEPTH // 4) + "\n") is None


def test_the_reason_names_the_size_and_the_line() -> None:
    assert too_complex("import torch\ny = x" + ".a" * 19_999 + "\n") == "a 20,000-term expression on line 2"
    assert too_complex("y = 1\n\nz = " + "not " * 600 + "a\n") == "an expression nested 600 deep on line 3"


@pytest.mark.parametrize("source", [
    "y = [" + "1, " * 50_000 + "]\n",  # a generated table: linear for libcst
    "y = {\n" + "    'k': -1.5,\n" * 20_000 + "}\n",
    "y = f(" + "a + b, " * 5_000 + ")\n",
    "y = a" + " and a" * 20_000 + "\n",  # boolean and comparison chains are flat in libcst
    "y = a" + " < a" * 20_000 + "\n",
    "y = " + " + ".join(f"-c{i} * x**{i}" for i in range(400)) + "\n",  # a polynomial: `**` and `-` close at `+`
    "if a:\n    pass\nelse:\n    y = a if b else c\n" * 2_000,
    "f = lambda x: x\n" * 2_000,
])
def test_long_but_flat_code_is_not_too_complex(source: str) -> None:
    assert too_complex(source) is None


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    opened = "(" * (MAX_BRACKETS + 50)
    assert too_complex(f"x = '{opened}'  # {opened}\ny = '''{opened}\n'''\n") is None


def test_a_bracket_in_a_comment_does_not_hide_real_nesting() -> None:
    depth = MAX_BRACKETS + 10
    source = "x = " + "(  # )\n" * depth + "1" + ")" * depth + "\n"
    with pytest.raises(SyntaxError, match="too many nested parentheses"):
        too_complex(source)


def test_too_complex_files_are_not_analysed(project: Path) -> None:
    write(project / "other.py", BUGGY)
    write(project / "chain.py", BUGGY + "y = x" + ".a" * 19_999 + "\n")
    write(project / "nested.py", BUGGY + "y = " + "- " * 5_000 + "x\n")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2  # as for any path that cannot be linted
    assert "shapecheck: error: chain.py: too complex to analyse: a 20,000-term expression on line 3" in result.stderr
    assert "shapecheck: error: nested.py: too complex to analyse: an expression nested 5,000 deep on line 3" in (
        result.stderr)
    assert reported(result) == [OTHER]


def test_deep_brackets_in_a_file_without_triggers_are_a_syntax_error(project: Path) -> None:
    # The prefilter skips this file (no torch): CPython's parser checks its syntax, and refuses the nesting.
    write(project / "deep.py", "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n")
    result = lint("--output-format", "concise")
    assert reported(result) == ["deep.py:1:205: SC000"]
    assert "too many nested parentheses" in result.stdout


def test_a_statement_over_a_limit_is_found_before_a_later_tokenizer_error() -> None:
    # the shortcut for files of short statements gives up on a tokenizer error: the measuring loop still answers
    unterminated = "z = '''abc\n"
    assert too_complex("y = x" + ".a" * 20_000 + "\n" + unterminated) == "a 20,001-term expression on line 1"
    with pytest.raises(SyntaxError, match="unterminated"):
        too_complex("y = 1\n" + unterminated)
