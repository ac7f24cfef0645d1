"""`# noqa` suppression, read from the source text the way flake8 and ruff read it.

`# noqa` silences every finding that starts on its line, `# noqa: SC101, SC201` only those codes; a
`# shapecheck: noqa` comment on a line of its own silences the whole file (`# shapecheck: noqa: SC101` one code).
As in ruff, `noqa` may be written in any case but codes only in capitals: `# noqa: sc101`, `# noqa: not-a-code`,
a bare `# noqa:` or text glued to it (`# noqa-foo`) are invalid, silence nothing, and `invalid_rows` finds them so
the user is warned. Text after a space (`# noqa F401`) leaves a bare `# noqa`, as ruff reads it.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Iterable, Sequence

from shapecheck.engine.source import split_lines

_CODES = r"(?-i:[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)"


# The two directives' patterns are compiled on first use: most files have no `noqa` (`file_exemption` and the others
# look for the word first), and compiling them cost every lint some 3 million instructions.
@functools.cache
def _line() -> re.Pattern[str]:
    """A `# noqa` directive. `codes` unmatched after a colon (`invalid`): the directive is invalid. `glued`: text
    straight after the word noqa (a dash, a backtick) is invalid too; after a space it is a bare noqa."""
    return re.compile(rf"#\s*noqa(?:(?P<colon>\s*:)\s*(?P<codes>{_CODES})?|(?P<glued>[^\s:]))?", re.IGNORECASE)


@functools.cache
def _file() -> re.Pattern[str]:
    """A `# shapecheck: noqa` line."""
    return re.compile(rf"^[ \t]*#[ \t]*shapecheck[ \t]*:[ \t]*noqa(?::[ \t]*(?P<codes>{_CODES}))?[ \t]*$",
                      re.IGNORECASE | re.MULTILINE)


_SPLIT = re.compile(r"[\s,]+")

Exemption = bool | frozenset[str]


def _codes(text: str | None) -> Exemption:
    return True if text is None else frozenset(code for code in _SPLIT.split(text.strip()) if code)


def file_exemption(text: str) -> Exemption:
    """True when the whole file is exempt, else the codes exempted file-wide (possibly none)."""
    if "noqa" not in text:
        return frozenset()
    codes: set[str] = set()
    for match in _file().finditer(text):
        exemption = _codes(match.group("codes"))
        if exemption is True:
            return True
        codes |= exemption
    return frozenset(codes)


def line_exemptions(lines: Sequence[str], rows: Iterable[int]) -> dict[int, Exemption]:
    """For each 1-based row that carries a `# noqa` comment: True (all codes) or the codes it names."""
    found: dict[int, Exemption] = {}
    for row in rows:
        if 0 < row <= len(lines) and "noqa" in lines[row - 1].lower():
            match = _line().search(lines[row - 1])
            if match is not None and not _invalid(match):
                found[row] = _codes(match.group("codes"))
    return found


def directive_in(comment: str) -> re.Match[str] | None:
    """The valid `# noqa` directive in `comment` (one comment token), or None; its `codes` group is None for a
    bare `# noqa`."""
    match = _line().search(comment)
    return None if match is None or _invalid(match) else match


def invalid_rows(text: str) -> list[int]:
    """The 1-based rows whose `# noqa` directive is invalid (codes missing, lowercase, or not codes)."""
    if "noqa" not in text.lower():
        return []
    rows = []
    for row, line in enumerate(text.splitlines(), start=1):
        match = _line().search(line) if "noqa" in line.lower() else None
        if match is not None and _invalid(match):
            rows.append(row)
    return _in_comments(text, rows) if rows else rows


def _in_comments(text: str, rows: list[int]) -> list[int]:
    """`rows` less those where the directive is inside a string, not a comment (tokenizing only the rare file with
    a candidate; one that does not tokenize keeps them all)."""
    try:
        comments = {token.start[0]: token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
                    if token.type == tokenize.COMMENT}
    except (tokenize.TokenError, SyntaxError):
        return rows
    return [row for row in rows
            if row in comments and (m := _line().search(comments[row])) is not None and _invalid(m)]


def _invalid(match: re.Match[str]) -> bool:
    return match.group("glued") is not None or (match.group("colon") is not None and match.group("codes") is None)


def with_codes(line: str, codes: Iterable[str]) -> str | None:
    """`line` (without its line end) with a `# noqa` directive that names `codes` too, as `--add-noqa` writes it;
    None when it needs no change (a bare `# noqa` already silences everything) or can't take one (an invalid
    directive the user must fix first)."""
    match = _line().search(line) if "noqa" in line.lower() else None
    if match is None:
        return f"{line}  # noqa: {', '.join(sorted(codes))}"
    if _invalid(match) or match.group("codes") is None:
        return None
    present = _codes(match.group("codes"))
    assert present is not True
    missing = set(codes) - present
    if not missing:
        return None
    start, end = match.span("codes")
    return line[:start] + ", ".join(sorted(present | missing)) + line[end:]


def noqa_blocked_rows(text: str) -> set[int] | None:
    """The 1-based rows whose end cannot take a comment: inside a multi-line string, or continued by a backslash.
    None when the text does not tokenize."""
    blocked = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            blocked.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        return None
    blocked.update(row for row, line in enumerate(split_lines(text), start=1) if line.rstrip("\r\n").endswith("\\"))
    return blocked
