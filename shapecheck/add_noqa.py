"""`shapecheck lint --add-noqa`: silence every current finding with a `# noqa: CODE` on its line, as ruff does, so a
project can adopt shapecheck today and fix its findings one at a time.

Codes are added to a `# noqa: ...` the line already has. Lines a comment can't end are skipped (their finding
stays): a line that opens a multi-line string, or ends in a backslash continuation. Notebooks get the comments in
their cells, the rest of the file untouched. Files are written atomically in their own encoding.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence

from shapecheck.engine.linter import decode
from shapecheck.engine.noqa import with_codes
from shapecheck.findings import INTERNAL_ERROR, SYNTAX_ERROR, UNUSED_NOQA, Finding
from shapecheck.notebook import is_notebook, read_notebook
from shapecheck.writer import encode, write_atomically


def add_noqa(path: str, findings: Sequence[Finding]) -> int:
    """Add directives for `findings` (all of the file at `path`) to it; how many lines got one."""
    # An unused directive is removed by its fix, not silenced by another.
    wanted = [finding for finding in findings if finding.code not in (SYNTAX_ERROR, INTERNAL_ERROR, UNUSED_NOQA)]
    if not wanted:
        return 0
    with open(path, "rb") as file:
        data = file.read()
    text = decode(data)
    notebook = read_notebook(text) if is_notebook(path) else None
    source = notebook.source if notebook is not None else text
    codes: dict[int, set[str]] = {}
    for finding in wanted:
        row = finding.location.row
        if notebook is not None and finding.cell is not None:
            row = notebook.source_row(finding.cell, row)
        codes.setdefault(row, set()).add(finding.code)
    lines = io.StringIO(source, newline="").readlines()
    blocked = _rows_a_comment_cannot_end(source)
    added = 0
    for row, names in codes.items():
        if row in blocked or not 0 < row <= len(lines):
            continue
        line = lines[row - 1]
        body = line.rstrip("\r\n")
        changed = with_codes(body, names)
        if changed is not None:
            lines[row - 1] = changed + line[len(body):]
            added += 1
    if added:
        new = "".join(lines)
        if notebook is not None:
            new = notebook.with_source(new)
            if new is None:
                return 0
        write_atomically(path, encode(new, data))
    return added


def _rows_a_comment_cannot_end(source: str) -> set[int]:
    blocked = {row for row, line in enumerate(source.splitlines(), start=1) if line.rstrip().endswith("\\")}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.start[0] < token.end[0] and token.type not in (tokenize.NEWLINE, tokenize.NL):
                blocked.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return blocked


