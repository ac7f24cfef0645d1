"""A notebook cell as the Python IPython runs, row for row, so findings map back to the cell's own lines.

IPython transforms each cell before compiling it (`IPython.core.inputtransformer2`), in this order, and so does
`python_of_cell`:

1. a cell whose lines are all indented is dedented (the common leading whitespace goes, as `textwrap.dedent`);
2. pasted prompts are stripped: doctest's `>>> ` / `... ` and IPython's own `In [3]: ` / `   ...: `;
3. a cell magic on the first line (`%%time`) hands the whole cell to the magic: for the magics whose body is
   Python (`%%time`, `%%capture`, ...) the body is linted, for the others (`%%bash`, `%%writefile`) nothing is;
4. then each logical line that is IPython syntax: an escaped command at the start of a statement (`%magic`,
   `!shell`, `!!shell`, `?obj`, `??obj`, `,f a b`, `;f a b`, `/f a b`), an assignment from one (`x = %time f()`,
   `files = !ls`), and help at the end of a line (`obj?`, `obj.attr??`, `torch.*Tensor?`). Commands continue
   onto the next line after a backslash, as in IPython.

IPython syntax becomes `pass` at the same indentation (`x = get_ipython()` for an assignment, so `x` stays
bound), and the further lines of a command a comment, so every row keeps its number. Rows lose the margin and
prompt that steps 1 and 2 removed: `shifts` says how many characters, so a column maps back to the cell. The
lines that stand for IPython syntax are kept (`magics`), to put them back when fixed Python is written into the
cell.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import field

from shapecheck.engine.records import record

# Cell magics whose body IPython runs as Python (ruff's list): their first line is skipped, the rest linted.
PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "prun", "pypy", "python", "python2", "python3", "time",
                                "timeit"})

# IPython's escape characters at the start of a statement (ESCAPE_SINGLES; `!!` and `??` start with them).
_ESCAPES = frozenset("!%?,;/")
# Help at the end of a line: IPython's `_help_end_re`, a dotted name with `*` wildcards and literal indexes.
_HELP_END = re.compile(r"%{0,2}(?!\d)[\w*]+(?:\.(?!\d)[\w*]+|\[-?[0-9]+\])*\?\??$")
_DOCTEST_PROMPT = re.compile(r"[ \t]*(?:>>>|\.\.\.)[ \t]?")
_DOCTEST_FIRST = re.compile(r"[ \t]*>>>")
_IPYTHON_PROMPT = re.compile(r"(?:(?:\[nav\]|\[ins\])? )?In \[\d+\]: |[ \t]*\.{3,}: ?")
_COMMAND_TAG = "# shapecheck: magic"


@record
class CellCode:
    """One cell's Python: `lines[i]` stands for the cell's line i (0-based)."""

    lines: list[str]
    shifts: list[int]  # per line: the characters before its column 1 in the cell (margin and prompt)
    magics: dict[str, str] = field(default_factory=dict)  # placeholder line -> the cell's line it stands for
    is_python: bool = True  # False: a cell magic runs the cell in another language
    margin: str = ""  # the indentation removed from every line
    prompts: bool = False  # prompts were stripped: Python can't be written back into this cell

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def restore(self, python: str, original: str) -> str | None:
        """The cell's text for `python` (this cell's Python, possibly fixed): IPython syntax, margin and prompts
        put back. None where that cannot be done (a prompt cell that was changed, a command line that is gone)."""
        if python == self.text:
            return original
        if self.prompts:
            return None
        lines = split_lines(python)
        found = 0
        for index, line in enumerate(lines):
            body = line.rstrip("\r\n")
            if body in self.magics:
                lines[index] = self.magics[body] + line[len(body):]
                found += 1
            elif self.margin and body.strip(" \t\f"):
                lines[index] = self.margin + line
        return "".join(lines) if found == len(self.magics) else None


def split_lines(text: str) -> list[str]:
    # Python's line ends (\n, \r\n, \r), not str.splitlines()'s form feeds and the like.
    return io.StringIO(text, newline="").readlines()


def python_of_cell(text: str) -> CellCode:
    """The Python IPython would run for the cell `text`, row for row (see the module's docstring)."""
    lines = split_lines(text)
    shifts = [0] * len(lines)
    margin = _dedent(lines, shifts)
    prompts = _strip_doctest_prompts(lines, shifts) | _strip_ipython_prompts(lines, shifts)
    code = CellCode(lines, shifts, margin=margin, prompts=prompts)
    first = next((row for row, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].startswith("%%"):
        name = re.match(r"%%(\w*)", lines[first]).group(1)
        if name not in PYTHON_CELL_MAGICS and not re.match(r"%%\w+\?", lines[first]):
            code.is_python = False
            return code
        _to_placeholder(code, first, first, "pass")
    _replace_commands(code, first + 1 if first is not None and lines[first].startswith("%%") else 0)
    return code


# ------------------------------------------------------------------------------------- cleanup transforms

def _dedent(lines: list[str], shifts: list[int]) -> str:
    """Remove the whitespace every non-blank line starts with (IPython's `leading_indent`)."""
    indents = [line[:len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    margin = os.path.commonprefix(indents) if indents else ""
    if margin:
        for row, line in enumerate(lines):
            if line.startswith(margin) and line.strip():
                lines[row] = line[len(margin):]
                shifts[row] += len(margin)
    return margin


def _strip_doctest_prompts(lines: list[str], shifts: list[int]) -> bool:
    """`>>> ` and `... ` prompts, where some line outside a triple-quoted string starts with `>>>`; then each run
    of lines outside such strings that had prompts is dedented (IPython's `classic_prompt`)."""
    if not any(_DOCTEST_FIRST.match(line) for line in lines):
        return False
    inside = _in_triple_quotes(lines)
    if not any(_DOCTEST_FIRST.match(line) and not inside[row] for row, line in enumerate(lines)):
        return False
    stripped = set()
    for row, line in enumerate(lines):
        match = None if inside[row] else _DOCTEST_PROMPT.match(line)
        if match is not None:
            lines[row] = line[match.end():]
            shifts[row] += match.end()
            stripped.add(row)
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and inside[end] == inside[start]:
            end += 1
        if not inside[start] and stripped.intersection(range(start, end)):
            run, run_shifts = lines[start:end], shifts[start:end]
            _dedent(run, run_shifts)
            lines[start:end], shifts[start:end] = run, run_shifts
        start = end
    return True


def _strip_ipython_prompts(lines: list[str], shifts: list[int]) -> bool:
    """`In [3]: ` and `   ...: `, where the first line has the one or the second line either (IPython's
    `ipython_prompt`); blank lines before the first line do not count."""
    first = next((row for row, line in enumerate(lines) if line.strip()), len(lines))
    if not any(_IPYTHON_PROMPT.match(line) for line in lines[first:first + 2]):
        return False
    for row, line in enumerate(lines):
        match = _IPYTHON_PROMPT.match(line)
        if match is not None:
            lines[row] = line[match.end():]
            shifts[row] += match.end()
    return True


def _in_triple_quotes(lines: list[str]) -> list[bool]:
    """Per line, whether it starts inside a triple-quoted string (so `>>>` there is text, not a prompt)."""
    inside, scanner = [], _Scanner()
    for line in lines:
        inside.append(bool(scanner.quote))
        scanner.feed(_DOCTEST_PROMPT.sub("", line, count=1) if not scanner.quote else line)
    return inside


# --------------------------------------------------------------------------------------- token transforms

def _replace_commands(code: CellCode, start: int) -> None:
    """Replace each logical line from row `start` on that IPython reads as a command, an assignment from one, or
    a help request (IPython's `EscapedCommand`, `MagicAssign`, `SystemAssign` and `HelpEnd`)."""
    lines = code.lines
    row = start
    while row < len(lines):
        body = lines[row].lstrip(" \t")
        if body[:1] in _ESCAPES:
            end = _continued(lines, row)
            _to_placeholder(code, row, end, "pass")
            row = end + 1
            continue
        scanner, end = _Scanner(), row
        scanner.feed(lines[row])
        while not scanner.at_statement_start() and end + 1 < len(lines):
            end += 1
            scanner.feed(lines[end])
        # `$`, as in IPython: a help line ends at the `?` (one with a space after it is a syntax error there too)
        if scanner.help_end and _HELP_END.search("".join(lines[row:end + 1]).rstrip("\r\n")):
            _to_placeholder(code, row, end, "pass")
        elif scanner.command_assignment is not None:
            assign_row, column = scanner.command_assignment
            end = _continued(lines, row + assign_row)
            lhs = lines[row][:column].lstrip(" \t") if assign_row == 0 else None
            _to_placeholder(code, row, end, "pass" if lhs is None else lhs + " get_ipython()")
        row = end + 1


def _continued(lines: list[str], row: int) -> int:
    """The last row of the command starting at `row`: lines ending in a backslash continue it."""
    while row + 1 < len(lines) and lines[row].rstrip("\r\n").endswith("\\"):
        row += 1
    return row


def _to_placeholder(code: CellCode, first: int, last: int, statement: str) -> None:
    """Rows `first` to `last` stand for one piece of IPython syntax: the first becomes `statement` at its
    indentation, the others comments."""
    for row in range(first, last + 1):
        line = code.lines[row]
        content = line.rstrip("\r\n")
        indent = content[:len(content) - len(content.lstrip(" \t"))] if row == first else ""
        placeholder = (f"{indent}{statement}  " if row == first else "") + f"{_COMMAND_TAG} {row + 1}"
        code.magics[placeholder] = _original(code, row, content)
        code.lines[row] = placeholder + line[len(content):]


def _original(code: CellCode, row: int, content: str) -> str:
    """The cell's own line for row `row` (its margin back; prompt cells are never written back)."""
    return code.margin + content if code.shifts[row] else content


class _Scanner:
    """Just enough of Python's tokenizer to find where a logical line ends (brackets, strings, backslashes), whether
    it ends in IPython's help `?`, and where an `= %magic` / `= !shell` assignment is."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open triple quote, if any
        self.continued = False
        self.help_end = False  # the code so far ends in `?`, with no comment after it
        self.command_assignment: tuple[int, int] | None = None  # (row, column) of the `=` before `%` or `!`
        self._assigned = False  # an `=` at depth 0 was seen
        self._rows = 0  # lines fed

    def at_statement_start(self) -> bool:
        return self.depth == 0 and not self.quote and not self.continued

    def feed(self, line: str) -> None:
        end = len(line.rstrip("\r\n"))
        index, code_end = 0, 0  # code_end: past the last character of code (not a comment) on this line
        commented = False
        while index < end:
            if self.quote:
                close = line.find(self.quote, index, end)
                while close > 0 and _escaped(line, close):
                    close = line.find(self.quote, close + 1, end)
                if close < 0:
                    code_end = index = end
                    break
                index, self.quote = close + 3, ""
                code_end = index
                continue
            match = _SPECIAL.search(line, index, end)
            if match is None:
                code_end = index = end
                break
            index = match.start()
            char = line[index]
            if char == "#":
                code_end, commented = index, True
                break
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            elif char in "'\"":
                if line.startswith(char * 3, index):
                    self.quote = char * 3
                    code_end = index = index + 3
                    continue
                index += 1
                while index < end and (line[index] != char or _escaped(line, index)):
                    index += 1
            elif self.depth == 0 and not self._assigned and not line.startswith("==", index) \
                    and line[:index].rstrip(" \t\f")[-1:] not in _OPERATOR_ENDS:
                self._assigned = True
                self._check_command(line, index)
            index += 1
            code_end = index
        code = line[:code_end].rstrip(" \t\f\\")
        if code:  # IPython's help ends its line: no comment after the `?`
            self.help_end = code.endswith("?") and not self.quote and not commented
        self.continued = line[:end].endswith("\\") and not self.quote
        self._rows += 1

    def _check_command(self, line: str, index: int) -> None:
        rest = line[index + 1:].lstrip(" \t")
        if re.match(r"%[ \t]*[^\W\d]", rest) or (rest.startswith("!") and not rest.startswith("!=")):
            self.command_assignment = (self._rows, index + 1)


# What the scanner stops at: comments, brackets, quotes and `=`; and what makes an `=` part of another operator.
_SPECIAL = re.compile(r"[#()\[\]{}'\"=]")
_OPERATOR_ENDS = frozenset("=<>!:+-*/%@&|^~") | {""}


def _escaped(line: str, index: int) -> bool:
    backslashes = len(line[:index]) - len(line[:index].rstrip("\\"))
    return backslashes % 2 == 1
