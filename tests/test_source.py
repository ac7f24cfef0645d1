"""`engine.source`: positions from the statements that hold the nodes, and re-parsing only what an edit touched,
both checked against libcst's whole-module parse and PositionProvider."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from shapecheck.engine.source import ParsedSource, code_and_positions, parse_source, reparse, split_lines
from shapecheck.engine.walker import walk

# libcst's verdict, or the complexity guard's tokenizer, which reads the text first
NOT_PYTHON = (cst.ParserSyntaxError, SyntaxError)
FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures").rglob("*.py"))

BASE = '''"""Doc."""
# header comment

import torch


@torch.no_grad()
# between decorators
@staticmethod
def f(x):
    y = x.transpose(1, 2)
    return y.view(2, -1)

    # an indented comment after the block


class A:
    def g(self):
        return (1,
                2)
z = torch.cat([a.sum(), b.sum()]); w = 1
# trailing comment
'''


def assert_same_as_full_parse(source: ParsedSource, text: str, sample: int | None = None) -> None:
    assert source.module.code == text
    cst.parse_module(text)  # the text is valid: the whole parse agrees
    nodes = [node for node in walk(source.module) if not isinstance(node, cst.Module)]
    if sample is not None:
        nodes = random.Random(len(text)).sample(nodes, min(sample, len(nodes)))
    expected = MetadataWrapper(source.module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = source.positions(nodes)
    assert {node: got[node] for node in nodes} == {node: expected[node] for node in nodes}


def test_positions_match_position_provider() -> None:
    source = parse_source(BASE)
    assert source.starts is not None  # the fast path is taken
    assert_same_as_full_parse(source, BASE)


def test_split_lines_counts_lines_as_python_does() -> None:
    assert split_lines("a\r\nb\rc\nd\x0ce\u2028f") == ["a\r\n", "b\r", "c\n", "d\x0ce\u2028f"]
    assert split_lines("") == []


EDITS = {
    "change inside a function": ("return y.view(2, -1)", "return y.reshape(2, -1)"),
    "a line added at the end of a block": ("    return y.view(2, -1)\n", "    return y.view(2, -1)\n    q = 1\n"),
    "a blank line added": ("class A:\n", "\nclass A:\n"),
    "a comment between statements": ("class A:\n", "# note\nclass A:\n"),
    "the header edited": ("# header comment", "# header comment, longer"),
    "the trailing comment removed": ("# trailing comment\n", ""),
    "the last statement removed": ("z = torch.cat([a.sum(), b.sum()]); w = 1\n# trailing comment\n", ""),
    "a statement split in two": ("; w = 1", "\nw = 1"),
    "two statements joined": ("                2)\nz =", "                2); z ="),
    "a new function": ("class A:", "def h():\n    pass\n\n\nclass A:"),
    "indentation that joins the next statement to a block": ("class A:\n", "    v = 1\nclass A:\n"),
    "no trailing newline": ("# trailing comment\n", "# trailing comment"),
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_reparse_equals_the_whole_parse(edit: tuple[str, str]) -> None:
    before, after = edit
    assert before in BASE
    text = BASE.replace(before, after, 1)
    previous = parse_source(BASE)
    previous.positions([previous.module.body[-1]])  # fill the caches that reparse carries over
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:
        with pytest.raises(NOT_PYTHON):
            reparse(previous, text)
        return
    assert_same_as_full_parse(reparse(previous, text), text)


def test_reparse_keeps_the_statements_an_edit_did_not_touch() -> None:
    previous = parse_source(BASE)
    text = BASE.replace("return y.view(2, -1)", "return y.reshape(2, -1)")
    body = reparse(previous, text).module.body
    kept = [new is old for new, old in zip(body, previous.module.body)]
    assert kept == [True, True, False, True, True]  # only f, the third statement, was parsed again


def test_random_edits_of_the_fixtures() -> None:
    """Deletions, insertions and one-character edits, five in a row per file, each compared with a whole parse."""
    rng = random.Random(7)
    pieces = ["x = 1\n", "    y = 2\n", "# c\n", "\n", "def g():\n    return 1\n", "(", ")", "@dec\n", "'''\n",
              "z = (1,\n", "     2)\n"]
    for path in FIXTURES:
        text = path.read_text()
        source = parse_source(text)
        for _ in range(5):
            lines = split_lines(text)
            at = rng.randrange(len(lines) + 1)
            roll = rng.random()
            if roll < 0.4:
                lines[at:at + rng.randrange(1, 3)] = []
            elif roll < 0.8 or at == len(lines):
                lines[at:at] = [rng.choice(pieces)]
            else:
                column = rng.randrange(len(lines[at]))
                lines[at] = lines[at][:column] + rng.choice("a (#") + lines[at][column:]
            edited = "".join(lines)
            try:
                cst.parse_module(edited)
            except cst.ParserSyntaxError:
                with pytest.raises(NOT_PYTHON):
                    reparse(source, edited)
                continue
            source = reparse(source, edited)
            assert_same_as_full_parse(source, edited, sample=20)
            text = edited


def test_reparse_guards_the_edited_span_with_file_line_numbers() -> None:
    from shapecheck.engine.guard import TooComplex

    previous = parse_source(BASE)
    lines = BASE.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if "return y.view" in line)
    lines[row] = "    return y" + ".a" * 20_000 + "\n"
    with pytest.raises(TooComplex, match=f"on line {row + 1}$"):
        reparse(previous, "".join(lines))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_code_and_positions_from_one_code_generation_are_libcsts(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    code, positions = code_and_positions(module)
    assert code == module.code
    assert dict(positions) == dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_positions_past_many_tokens_and_with_any_line_end_are_libcsts(newline: str) -> None:
    lines = [f"x{i} = f(a, [b, c], 'd')  # {i}" for i in range(300)]
    lines[150:150] = ["def g(y):", "    return (y +", "        1)", ""]
    module = cst.parse_module(newline.join(lines) + newline)
    code, positions = code_and_positions(module)
    assert code == module.code
    assert dict(positions) == dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider))
