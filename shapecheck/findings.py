"""Plain data that leaves the engine: findings, fixes and per-file results.

Everything here is picklable and free of libcst nodes, so worker processes can hand results back to the CLI and
reporters never touch a syntax tree. A run answered from the result cache imports this module, and its whole budget
is three Python start-ups: the immutable records are named tuples, not frozen dataclasses, which would compile five
or six functions each at import (together a tenth of a hit); `_replace` changes a field.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from shapecheck.engine.records import NamedTuple, record

Applicability = Literal["safe", "unsafe"]
Severity = Literal["error", "warning"]

SYNTAX_ERROR = "SC000"
INTERNAL_ERROR = "SC999"
# A rule, off by default, that the engine runs itself once the other findings are known (`engine.unused_noqa`).
UNUSED_NOQA = "SC900"

# The engine's own codes have no Rule class to take a name and description from.
ENGINE_CODES = {SYNTAX_ERROR: "syntax-error", INTERNAL_ERROR: "internal-error"}
ENGINE_DOCS = {
    SYNTAX_ERROR: "A file the running Python's compiler refuses (for the project's target version, where that is "
                  "newer): reported with CPython's message at the line and column of the error in the text linted, "
                  "and no rule checked the file. Always on; fixes never touch such a file. Fix the syntax error "
                  "to lint it.",
    INTERNAL_ERROR: "A rule raised an exception on this file, so that rule did not check it: the message names the "
                    "rule and the error. The other rules' findings still count, and the run exits with code 2. "
                    "Please report it with the file's code.",
}


class Location(NamedTuple):
    row: int  # 1-based
    column: int  # 1-based, like ruff


class Edit(NamedTuple):
    content: str
    location: Location
    end_location: Location


class FixInfo(NamedTuple):
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]


class Finding(NamedTuple):
    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    fix: FixInfo | None = None
    source_line: str = ""
    # In a notebook: the cell (1-based, among all cells) that `location` and `end_location` count rows in, and where
    # the finding is in the .ipynb file's own text, which is what GitHub annotates.
    cell: int | None = None
    file_location: Location | None = None
    file_end_location: Location | None = None
    severity: Severity = "error"  # the rule's; the engine's own codes are errors

    @property
    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.filename, self.cell or 0, self.location.row, self.location.column, self.code)

    @property
    def span_in_file(self) -> tuple[Location, Location]:
        """Start and end in the file's own text: for a notebook, in its JSON rather than in the cell."""
        if self.file_location is None or self.file_end_location is None:
            return self.location, self.end_location
        return self.file_location, self.file_end_location

    @property
    def position(self) -> str:
        """`row:column`, or `cell N:row:column` in a notebook, as ruff writes them after the file's name."""
        cell = "" if self.cell is None else f"cell {self.cell}:"
        return f"{cell}{self.location.row}:{self.location.column}"


@record
class FileResult:
    """What linting one file produced.

    `error` is set when the file could not be linted at all (unreadable, undecodable, not source); `warning` when it
    was skipped on purpose (too large). Internal errors of single rules are findings (SC999), not errors here, so the
    other rules' findings in the same file still count.
    """

    filename: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    warning: str | None = None
    fixed: int = 0
    fixes: dict[str, int] = field(default_factory=dict)  # code -> how many of its findings were fixed
    new_source: str | None = None
    # Where an invalid noqa directive is (`row`, or `cell N:row` in a notebook): it silences nothing, as in ruff.
    invalid_noqa: list[str] = field(default_factory=list)
    # The other files the analysis read or looked for, as glob patterns: an absolute path `glob.escape`d (an ordinary
    # path stays as it is), or a pattern for the files it matches (`shapecheck.engine.dependencies`). The result
    # cache lints the file again when any of them changes, goes or appears.
    dependencies: list[str] = field(default_factory=list)
