"""`# noqa` silences findings and their fixes alike, on the line the parser numbers, whatever else ends a line for
str.splitlines()."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import lint, reported, write

SUPPRESSED = {
    "line": "import torch\nx = torch.Tensor(3)  # noqa: SC401\ny = torch.load(p)  # noqa\n",
    "file": "# shapecheck: noqa: SC401, SC501\nimport torch\nx = torch.Tensor(3)\ny = torch.load(p)\n",
}


@pytest.mark.parametrize("source", SUPPRESSED.values(), ids=SUPPRESSED.keys())
def test_fix_and_diff_leave_suppressed_findings_alone(project: Path, source: str) -> None:
    path = write(project / "m.py", source)
    options = ("--extend-select", "SC501", "--unsafe-fixes")
    diff = lint("--diff", *options)
    assert (diff.exit_code, diff.stdout) == (0, "")
    result = lint("--fix", *options)
    assert result.exit_code == 0
    assert path.read_text() == source


def test_fix_still_fixes_the_unsuppressed_finding_next_to_a_suppressed_one(project: Path) -> None:
    path = write(project / "m.py", "import torch\nx = torch.Tensor(3)  # noqa: SC401\ny = torch.Tensor(4)\n")
    assert lint("--fix", "--unsafe-fixes")  # torch.empty keeps the garbage: an unsafe fix.exit_code == 0
    assert path.read_text() == "import torch\nx = torch.Tensor(3)  # noqa: SC401\ny = torch.empty(4)\n"


@pytest.mark.parametrize("char", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_noqa_on_the_parsers_line_after_characters_splitlines_breaks_at(project: Path, char: str) -> None:
    write(project / "m.py", f"import torch  # a{char}b\nx = torch.Tensor(3)  # noqa: SC401\ny = torch.Tensor(4)\n")
    result = lint("--output-format", "full")
    assert reported(result) == ["m.py:3:5: SC401"]
    assert "y = torch.Tensor(4)" in result.stdout  # the printed line is the reported one
