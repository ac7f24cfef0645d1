"""`--output-format full` (the default): each finding's line, then its source line with the span underlined, as
ruff draws it.

    model.py:3:12: SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`
      |
    3 | log_probs = F.softmax(logits, dim=-1).log()
      |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ SC301
      |
      = help: Use `log_softmax`

Carets are placed by display width, not by character count: a tab expands to the next tab stop and a wide (CJK)
character takes two cells, so the underline stays under the code it means.
"""

from __future__ import annotations

from collections.abc import Sequence

from shapecheck.findings import Finding
from shapecheck.reporters import concise

TAB_WIDTH = 4  # ruff's default indent width, which is also how far it expands tabs in snippets

# Control characters would move the terminal's cursor (or, for ESC, start an escape sequence); show their Unicode
# "control pictures" (U+2400 ...) instead, one cell wide like the character they replace.
_VISIBLE = {chr(code): chr(0x2400 + code) for code in range(0x20)} | {"\x7f": "\u2421"}


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    if not findings:
        return ""
    # A blank line after every finding, the last one included: it separates the findings from the summary.
    return "\n\n".join("\n".join(_block(finding, unsafe_fixes)) for finding in findings) + "\n"


def _block(finding: Finding, unsafe_fixes: bool) -> list[str]:
    row = finding.location.row
    gutter = " " * len(str(row))
    lines = [concise.line(finding, unsafe_fixes)]
    if finding.source_line:
        text, starts = _display(finding.source_line)
        start, end = _underline(finding, starts)
        lines += [
            f"{gutter} |",
            f"{row} | {text}",
            f"{gutter} | {' ' * start}{'^' * (end - start)} {finding.code}",
            f"{gutter} |",
        ]
    if finding.fix is not None:
        lines.append(f"{gutter} = help: {finding.fix.message}")
    return lines


def _display(line: str) -> tuple[str, list[int]]:
    """`line` as the terminal shows it, and the display cell where each of its characters starts, plus one entry
    for the end of the line."""
    shown = []
    starts = [0]
    for char in line:
        cell = starts[-1]
        piece = " " * (TAB_WIDTH - cell % TAB_WIDTH) if char == "\t" else _VISIBLE.get(char, char)
        shown.append(piece)
        starts.append(cell + sum(_width(c) for c in piece))
    return "".join(shown), starts


# No character below U+0300 combines (the combining marks start there) or is wide (the wide ones start at U+1100):
# the lines of most source code are all such characters, and showing them never loads `unicodedata` (1.6 million
# instructions).
_NARROW_BELOW = "\u0300"


def _width(char: str) -> int:
    if char < _NARROW_BELOW:
        return 1
    import unicodedata

    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _underline(finding: Finding, starts: list[int]) -> tuple[int, int]:
    """The display cells the carets cover: the finding's span on its first line, to the end of that line when the
    span goes on past it; at least one caret, for the single point of a syntax error."""
    length = len(starts) - 1

    def cell(column: int) -> int:
        # A column past the end of the line (a syntax error at the newline) counts on in plain cells.
        index = column - 1
        return starts[min(index, length)] + max(0, index - length)

    start = cell(finding.location.column)
    same_row = finding.end_location.row == finding.location.row
    end = cell(finding.end_location.column) if same_row else starts[-1]
    return start, max(end, start + 1)
