"""Path patterns in `.gitignore` syntax, for `.gitignore` files and for the `exclude` / `per-file-ignores` settings.

A pattern is matched against a path relative to the folder it belongs to (the `.gitignore`'s folder, or the
pyproject's), with git's rules:

- a pattern with a slash at its start or in its middle is anchored to that folder (`/build`, `docs/build`);
  one without matches a name at any depth (`build`, `*.py`);
- a trailing slash matches folders only (`build/`); `!` re-includes what an earlier pattern excluded;
- `*` and `?` match within one path component, `[...]` a character class (`[!...]` or `[^...]` negated);
- `**/` matches any number of folders, a trailing `/**` everything inside a folder;
- within one file the last matching pattern wins; `#` starts a comment, a backslash escapes the next character.

Only the standard library is used: the linter's dependencies are libcst and click alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence

from shapecheck.engine.records import NamedTuple


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class Pattern(NamedTuple):
    text: str  # as written, for messages
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    anchored: bool

    def matches(self, relpath: str, is_dir: bool) -> bool:
        """`relpath`: slash-separated, relative to the pattern's folder."""
        return (is_dir or not self.dir_only) and self.regex.fullmatch(relpath) is not None


def parse(line: str) -> Pattern | None:
    """One line of a `.gitignore`; None for blank lines and comments."""
    text = line.rstrip("\r\n")
    while text.endswith(" ") and not text.endswith("\\ "):  # trailing spaces count only when escaped
        text = text[:-1]
    if not text or text.startswith("#"):
        return None
    body = text
    negate = body.startswith("!")
    if negate:
        body = body[1:]
    dir_only = body.endswith("/")
    body = body.rstrip("/")
    anchored = "/" in body
    body = body.lstrip("/")
    if not body:
        return None
    regex = _translate(body)
    if not anchored:
        regex = "(?:.*/)?" + regex
    return Pattern(text, re.compile(regex, re.DOTALL), negate, dir_only, anchored)


def parse_lines(lines: Iterable[str]) -> list[Pattern]:
    return [pattern for pattern in map(parse, lines) if pattern is not None]


def _translate(glob: str) -> str:
    parts = glob.split("/")
    out = []
    for index, part in enumerate(parts):
        first, last = index == 0, index == len(parts) - 1
        if part == "**":
            if first and last:
                out.append(".*")
            elif first:
                out.append("(?:.*/)?")  # `**/x`: x at any depth
            elif last:
                out.append("/.*")  # `x/**`: everything inside x
            else:
                out.append("/(?:.*/)?")  # `x/**/y`: zero or more folders between
            continue
        if not first and parts[index - 1] != "**":
            out.append("/")
        out.append(_component(part))
    return "".join(out)


def _component(glob: str) -> str:
    out = []
    i = 0
    while i < len(glob):
        char = glob[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "\\" and i + 1 < len(glob):
            i += 1
            out.append(re.escape(glob[i]))
        elif char == "[":
            end = _class_end(glob, i)
            if end is None:
                out.append(re.escape(char))  # an unclosed bracket is a literal
            else:
                out.append(_char_class(glob[i + 1:end]))
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _class_end(glob: str, start: int) -> int | None:
    i = start + 1
    if i < len(glob) and glob[i] in "!^":
        i += 1
    if i < len(glob) and glob[i] == "]":  # `[]abc]`: a leading bracket is a member
        i += 1
    while i < len(glob) and glob[i] != "]":
        i += 2 if glob[i] == "\\" else 1
    return i if i < len(glob) else None


def _char_class(body: str) -> str:
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    members = []

    def take(i: int) -> tuple[str, int]:
        """The member character at `i` (`\\x` is `x`) and the index after it."""
        if body[i] == "\\" and i + 1 < len(body):
            return body[i + 1], i + 2
        return body[i], i + 1

    i = 0
    while i < len(body):
        low, i = take(i)
        if i + 1 < len(body) and body[i] == "-":
            high, i = take(i + 1)
            if low <= high:  # a reversed range (`[z-a]`) matches nothing in git
                members.append(f"{re.escape(low)}-{re.escape(high)}")
        else:
            members.append(re.escape(low))
    if not members:
        return "[^/]" if negate else "(?!)"
    # A class never matches the separator, negated or not.
    return f"[^/{''.join(members)}]" if negate else f"(?!/)[{''.join(members)}]"


class PatternList:
    """Patterns that belong to one folder, e.g. one `.gitignore` file or the `exclude` setting."""

    def __init__(self, base: str, patterns: Sequence[Pattern]) -> None:
        self.base = os.path.abspath(base)
        self.patterns = tuple(patterns)
        self._prefix = self.base.rstrip(os.sep) + os.sep

    @classmethod
    def from_file(cls, path: str, base: str | None = None) -> PatternList:
        """A `.gitignore`-style file, its patterns relative to `base` (default: the file's folder); a missing or
        unreadable file is empty, as git treats it."""
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                patterns = parse_lines(file)
        except OSError:
            patterns = []
        return cls(base or os.path.dirname(path), patterns)

    def relative(self, path: str) -> str | None:
        """`path` (absolute) relative to the base folder, slash-separated; None outside it."""
        if not path.startswith(self._prefix):
            return None
        relative = path[len(self._prefix):]
        return relative.replace(os.sep, "/") if os.sep != "/" else relative

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: `path` (absolute) is excluded; False: re-included by a `!` pattern; None: no pattern matches.
        A path outside the base folder can only match by its name, through an unanchored pattern."""
        relative = self.relative(path)
        name = os.path.basename(path)
        for pattern in reversed(self.patterns):
            if relative is None:
                if pattern.anchored or not pattern.matches(name, is_dir):
                    continue
            elif not pattern.matches(relative, is_dir):
                continue
            return not pattern.negate
        return None

    def covers(self, path: str, is_dir: bool = False) -> bool:
        """`path` (absolute) or one of its folders below the base is excluded: git never looks inside an
        excluded folder, so nothing under it can be re-included."""
        relative = self.relative(path)
        folders = relative.split("/")[:-1] if relative else []
        current = self.base
        for folder in folders:
            current = os.path.join(current, folder)
            if self.decide(current, True):
                return True
        return bool(self.decide(path, is_dir))
