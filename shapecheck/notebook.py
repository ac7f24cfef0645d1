"""Jupyter notebooks (`.ipynb`) as one Python module, the way ruff lints them.

The code cells are joined in cell order into one source, so a name bound in one cell is known in the next. Each
cell is first transformed as IPython transforms it (`shapecheck.ipython_syntax`): magics, shell commands and help
become `pass`, a dedented cell loses its margin, a cell magic that runs another language (`%%bash`) leaves the cell
out; every row keeps its number, and columns map back to the cell's own. Between cells the source has a boundary
comment line, which lets fixed source be cut back into cells.

    notebook = read_notebook(text)          # NotebookError if it is not a notebook
    notebook.source                         # the Python to lint
    notebook.locate(row)                    # source row -> (cell number, row in that cell), both 1-based
    notebook.in_cell(row, column)           # source position -> (cell number, row, column) in the cell's own text
    notebook.source_row(cell, row)          # and back
    notebook.file_position(row, column)     # source position -> (line, column) in the .ipynb file itself
    notebook.with_source(fixed_source)      # the notebook's text with the fixed cells, None if it can't be cut back
    notebook.cell_codes(), .without(cells)  # each cell's Python; the notebook less some cells (those that don't parse)
    cell_diff(old_text, new_text, name)     # a unified diff per changed cell, ruff's `--diff` for notebooks

Cells are numbered among all cells, markdown included, from 1: Jupyter's order and ruff's `cell N`. Rewriting a
notebook replaces only the JSON strings of the changed cells' `source`, in the layout they had, so outputs,
metadata, indentation and the final newline stay byte for byte what they were.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Collection
from dataclasses import field, replace

from shapecheck.discovery import NOTEBOOK_SUFFIX as SUFFIX, is_notebook  # noqa: F401 - this module's interface
from shapecheck.engine.records import record
from shapecheck.ipython_syntax import CellCode, python_of_cell, split_lines


# The boundary comment between cells in the joined source.
_BOUNDARY = "# shapecheck: end of cell"


class NotebookError(Exception):
    """The file is not a notebook we can read: not JSON, or not nbformat's layout."""


@record
class CodeCell:
    """A code cell as it stands in the file, and where it went in the joined source."""

    number: int  # 1-based among all cells
    text: str  # its source as Jupyter shows it
    span: tuple[int, int]  # where its `source` value is in the file's text
    code: CellCode  # the Python IPython runs for it
    first_row: int = 0  # its first row in the joined source (1-based); 0: left out


@record
class Notebook:
    text: str  # the .ipynb file as read
    source: str  # the code cells as one module
    cells: list[CodeCell]  # the code cells in the source, in order
    _rows: list[tuple[int, int]]  # (cell index in `cells`, row in cell) per source row
    is_python: bool = True  # the kernel runs Python (notebooks of R, Julia, ... kernels are not linted, as in ruff)
    _line_starts: list[int] = field(default_factory=list)
    _offsets: dict[int, list[int]] = field(default_factory=dict)  # cell number -> its characters' offsets in `text`

    def locate(self, row: int) -> tuple[int, int]:
        """The cell number and the row in that cell of a 1-based row of `source`."""
        cell, cell_row = self._rows[min(max(row, 1), len(self._rows)) - 1]
        return self.cells[cell].number, cell_row

    def in_cell(self, row: int, column: int) -> tuple[int, int, int]:
        """The cell number, row and column in the cell's own text of a 1-based (row, column) of `source`."""
        cell, cell_row = self._rows[min(max(row, 1), len(self._rows)) - 1]
        code = self.cells[cell]
        shifts = code.code.shifts
        return code.number, cell_row, column + (shifts[cell_row - 1] if cell_row <= len(shifts) else 0)

    def cell_line(self, row: int) -> str:
        """The cell's own line (as Jupyter shows it) that row `row` of `source` stands for."""
        cell, cell_row = self._rows[min(max(row, 1), len(self._rows)) - 1]
        lines = split_lines(self.cells[cell].text)
        return lines[cell_row - 1].rstrip("\r\n") if cell_row <= len(lines) else ""

    def source_row(self, cell: int, row: int) -> int:
        """The row of `source` that is row `row` of cell number `cell` (the inverse of `locate`)."""
        first = next(code.first_row for code in self.cells if code.number == cell)
        return first + row - 1

    def cell_codes(self) -> list[tuple[int, int, str]]:
        """Each joined cell's number, first row in `source`, and its Python as in `source` (magics replaced)."""
        lines = split_lines(self.source)
        ends = [cell.first_row - 2 for cell in self.cells[1:]] + [len(lines)]  # the boundary line is no cell's
        return [(cell.number, cell.first_row, "".join(lines[cell.first_row - 1:end]))
                for cell, end in zip(self.cells, ends)]

    def without(self, numbers: Collection[int]) -> Notebook:
        """This notebook with the code cells numbered `numbers` left out of `source` (and left alone by
        `with_source`)."""
        return replace(_join([cell for cell in self.cells if cell.number not in numbers], self.text),
                       is_python=self.is_python)

    def file_position(self, row: int, column: int) -> tuple[int, int]:
        """Where a 1-based (row, column) of `source` is in the notebook file: its line and column (1-based)."""
        cell_index, cell_row = self._rows[min(max(row, 1), len(self._rows)) - 1]
        cell = self.cells[cell_index]
        lines = split_lines(cell.text)
        _, _, column = self.in_cell(row, column)
        index = sum(len(line) for line in lines[:cell_row - 1]) + column - 1
        if cell.number not in self._offsets:  # worked out for cells with findings only: a loop over every character
            self._offsets[cell.number] = _decoded_offsets(self.text, *cell.span)
        starts = self._offsets[cell.number]
        offset = starts[min(max(index, 0), len(starts) - 1)]
        if not self._line_starts:
            self._line_starts = [0] + [match.end() for match in re.finditer(r"\r\n|\r|\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def with_source(self, source: str) -> str | None:
        """The notebook's text with each code cell's source taken from `source` (this notebook's `source`, fixed);
        None when the fixed source can no longer be cut into the same cells."""
        pieces = _split_cells(source)
        if len(pieces) != len(self.cells):
            return None
        replacements = []
        for cell, piece in zip(self.cells, pieces):
            if not cell.code.text.endswith("\n") and piece.endswith("\n"):
                piece = piece[:-1]  # the newline the joined source added
            text = cell.code.restore(piece, cell.text)
            if text is None:
                return None
            if text != cell.text:
                replacements.append((cell.span, _serialize(text, self.text, cell.span)))
        result = self.text
        for (start, end), value in sorted(replacements, reverse=True):
            result = result[:start] + value + result[end:]
        return result


def read_notebook(text: str) -> Notebook:
    """The notebook in `text` (the .ipynb file's contents); NotebookError when it is not one."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"Expected a Jupyter notebook, which must be stored as JSON, but this file isn't valid "
                            f"JSON: {error}") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise NotebookError("Expected a Jupyter notebook: a JSON object with a `cells` list")
    spans = _source_spans(text)
    cells: list[CodeCell] = []
    for number, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        value = cell.get("source", "")
        if isinstance(value, list) and all(isinstance(line, str) for line in value):
            value = "".join(value)
        if not isinstance(value, str):
            raise NotebookError(f"Expected a Jupyter notebook: cell {number}'s source is not text")
        start, end = spans[number - 1]
        cells.append(CodeCell(number, value, (start, end), python_of_cell(value)))
    notebook = _join([cell for cell in cells if cell.code.is_python], text)
    notebook.is_python = _kernel_runs_python(document.get("metadata"))
    return notebook


def _kernel_runs_python(metadata: object) -> bool:
    """What ruff reads: `language_info.name`, else the kernelspec's `language`; a notebook that says neither is
    Python."""
    if not isinstance(metadata, dict):
        return True
    language_info, kernelspec = metadata.get("language_info"), metadata.get("kernelspec")
    if isinstance(language_info, dict) and "name" in language_info:
        return language_info["name"] == "python"
    if isinstance(kernelspec, dict) and "language" in kernelspec:
        return kernelspec["language"] == "python"
    return True


def _join(cells: list[CodeCell], text: str) -> Notebook:
    cells = [replace(cell) for cell in cells]  # a Notebook never shares its cells' rows
    parts: list[str] = []
    rows: list[tuple[int, int]] = []
    for index, cell in enumerate(cells):
        if index:
            parts.append(_BOUNDARY + "\n")
            rows.append(rows[-1])  # nothing is reported on a boundary; it belongs to the cell before it
        cell.first_row = len(rows) + 1
        for row, line in enumerate(cell.code.lines or [""], start=1):  # an empty cell still has its (empty) row
            parts.append(line if line.endswith(("\n", "\r")) else line + "\n")
            rows.append((index, row))
    if not rows:
        rows.append((0, 1))
    return Notebook(text, "".join(parts), cells, rows)


def _split_cells(source: str) -> list[str]:
    cells = [[]]
    for line in split_lines(source):
        if line.rstrip("\r\n") == _BOUNDARY:
            cells.append([])
        else:
            cells[-1].append(line)
    return ["".join(lines) for lines in cells]


# ------------------------------------------------------------------------------------------- the JSON text itself

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _source_spans(text: str) -> list[tuple[int, int]]:
    """For each cell, where its `source` value is in `text` (a valid notebook's JSON); (0, 0) for none."""
    spans: list[tuple[int, int]] = []
    for key, start, end in _members(text, _skip(text, 0)):
        if key != "cells":
            continue
        spans = []  # a key given twice: JSON readers (and so `read_notebook`) take the last
        position = _skip(text, start + 1)  # past `[`
        while text[position] != "]":
            cell_span = (0, 0)
            if text[position] == "{":
                for cell_key, value_start, value_end in _members(text, position):
                    if cell_key == "source":
                        cell_span = (value_start, value_end)
                _, position = _DECODER.raw_decode(text, position)
            else:
                _, position = _DECODER.raw_decode(text, position)
            spans.append(cell_span)
            position = _skip(text, position)
            if text[position] == ",":
                position = _skip(text, position + 1)
        assert position <= end
    return spans


def _members(text: str, position: int):
    """(key, value start, value end) of each member of the JSON object at `position`."""
    position = _skip(text, position + 1)  # past `{`
    while text[position] != "}":
        key, position = _DECODER.raw_decode(text, position)
        position = _skip(text, _skip(text, position) + 1)  # past `:`
        _, end = _DECODER.raw_decode(text, position)
        yield key, position, end
        position = _skip(text, end)
        if text[position] == ",":
            position = _skip(text, position + 1)


def _skip(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()


def _decoded_offsets(text: str, start: int, end: int) -> list[int]:
    """The offset in `text` of each character of the string (or list of strings) between `start` and `end`, as
    decoded, plus one past the last: maps a position in the cell's source to the file."""
    offsets: list[int] = []
    position = start
    while position < end:
        if text[position] != '"':
            position += 1
            continue
        position += 1
        while text[position] != '"':
            offsets.append(position)
            if text[position] != "\\":
                position += 1
            elif text[position + 1] != "u":
                position += 2
            else:
                high = int(text[position + 2:position + 6], 16)
                position += 6
                # A surrogate pair is one character once decoded.
                if 0xD800 <= high < 0xDC00 and text.startswith("\\u", position):
                    position += 6
        position += 1
    offsets.append(end)
    return offsets


def _serialize(source: str, text: str, span: tuple[int, int]) -> str:
    """`source` as a JSON value laid out like the one at `span`: a string, or a list of lines with the original's
    indentation (nbformat's usual form)."""
    start, end = span
    original = text[start:end]
    ascii_only = "\\u" in text and text.isascii()
    if not original.startswith("["):
        return json.dumps(source, ensure_ascii=ascii_only)
    lines = split_lines(source)
    if not lines:
        return "[]"
    inner = original[1:-1]
    if inner.strip():
        lead = inner[:len(inner) - len(inner.lstrip())]
        tail = inner[len(inner.rstrip()):]
    else:  # `[]` before: indent one step past the `"source"` key, as nbformat writes
        line_start = text.rfind("\n", 0, start) + 1
        indent = text[line_start:start][:len(text[line_start:start]) - len(text[line_start:start].lstrip())]
        lead, tail = f"\n{indent} ", f"\n{indent}"
    items = [json.dumps(line, ensure_ascii=ascii_only) for line in lines]
    return "[" + lead + ("," + lead).join(items) + tail + "]"


def cell_diff(old: str, new: str, filename: str) -> str:
    """A unified diff of each code cell whose source differs between two versions of the same notebook, headed
    `filename:cell N` as ruff heads them."""
    import difflib  # here: only --diff needs it

    before, after = json.loads(old)["cells"], json.loads(new)["cells"]
    chunks = []
    for number, (old_cell, new_cell) in enumerate(zip(before, after), start=1):
        old_source, new_source = _cell_text(old_cell), _cell_text(new_cell)
        if old_source != new_source:
            name = f"{filename}:cell {number}"
            diff = difflib.unified_diff(split_lines(old_source), split_lines(new_source), fromfile=name, tofile=name)
            chunks.append("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                                  for line in diff))
    return "".join(chunks)


def _cell_text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source
