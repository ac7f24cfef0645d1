"""`# noqa` suppression, read from the source text the way flake8 and ruff read it.

`# noqa` silences every finding that starts on its line, `# noqa: SC101, SC201` only those codes; a
`# shapecheck: noqa` comment on a line of its own silences the whole file (`# shapecheck: noqa: SC101` one code).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_CODES = r"[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*"
_LINE = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODES}))?", re.IGNORECASE)
_FILE = re.compile(rf"^[ \t]*#[ \t]*shapecheck[ \t]*:[ \t]*noqa(?::[ \t]*(?P<codes>{_CODES}))?[ \t]*$",
                   re.IGNORECASE | re.MULTILINE)
_SPLIT = re.compile(r"[\s,]+")

Exemption = bool | frozenset[str]


def _codes(text: str | None) -> Exemption:
    return True if text is None else frozenset(code.upper() for code in _SPLIT.split(text.strip()) if code)


def file_exemption(text: str) -> Exemption:
    """True when the whole file is exempt, else the codes exempted file-wide (possibly none)."""
    if "noqa" not in text:
        return frozenset()
    codes: set[str] = set()
    for match in _FILE.finditer(text):
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
            match = _LINE.search(lines[row - 1])
            if match is not None:
                found[row] = _codes(match.group("codes"))
    return found
