"""The import lines of a project's files, for the search of a file's importers (`project.importer_files`).

A search reads the project's files up to `project.MAX_IMPORTER_SEARCH` of them, and of each it needs only the lines
an import statement is on. Those lines are kept by the file's size and modification time: for the process, so that
linting many files of a project reads each file once, and, where the result cache is in use, in its folder
(`keep_in`), so that a one-file run in a large project (pre-commit, an editor's save) takes a `stat` a file instead of
reading it. A file whose size or time changed is read again. The kept copy is written whole by the result cache's atomic write:
a parallel run reads the old one or the new one, and a copy that cannot be read is empty.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

_kept: dict[str, tuple[int, int, str]] = {}  # path -> (size, mtime_ns, its import lines)
_loaded_from: str | None = None  # the file `_kept` was filled from, if any
_folder: str | None = None  # `keep_in`'s
_store: Callable[[str, bytes], None] | None = None
_added = False  # entries made since the file was read or written

_FILE_NAME = "import-lines.json"


def keep_in(folder: str | None, store: Callable[[str, bytes], None] | None = None) -> None:
    """Keep the lines in `folder` (the result cache's, for this build of shapecheck), written there by `store`
    (given a name in it and the bytes: the cache's own atomic write, which makes the folder with its `.gitignore`),
    or only for the process."""
    global _folder, _store
    _folder, _store = folder, store


def forget() -> None:
    """Read every file again (the editor saw files change)."""
    global _loaded_from, _added
    _kept.clear()
    _loaded_from, _added = None, False


def lines_of(path: str) -> str | None:
    """The lines of the file at `path` an import statement is on (`import_lines`), as the file is now; None where it
    cannot be read."""
    global _added
    _load()
    try:
        info = os.stat(path)
        kept = _kept.get(path)
        if kept is not None and kept[0] == info.st_size and kept[1] == info.st_mtime_ns:
            return kept[2]
        with open(path, encoding="utf-8", errors="replace") as file:
            found = import_lines(file.read())
    except OSError:
        return None
    _kept[path] = (info.st_size, info.st_mtime_ns, found)
    _added = True
    return found


def save() -> None:
    """Write what was added to the kept copy, merged with what another run wrote since it was read."""
    global _added
    if not _added or _folder is None or _store is None:
        return
    merged = {**_read(os.path.join(_folder, _FILE_NAME)), **{path: list(entry) for path, entry in _kept.items()}}
    _store(_FILE_NAME, json.dumps(merged, separators=(",", ":")).encode("ascii"))
    _added = False


def _load() -> None:
    global _loaded_from
    if _folder is None or _loaded_from == _folder:
        return
    _loaded_from = _folder
    for path, entry in _read(os.path.join(_folder, _FILE_NAME)).items():
        _kept.setdefault(path, (entry[0], entry[1], entry[2]))


def _read(target: str) -> dict[str, list]:
    try:
        with open(target, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {path: entry for path, entry in data.items()
            if isinstance(entry, list) and len(entry) == 3 and type(entry[0]) is int and type(entry[1]) is int
            and type(entry[2]) is str}


def import_lines(text: str) -> str:
    """The lines of `text` that start with `from` or `import` (indented or not) and contain `import`, each with the
    lines its open parenthesis spans: every line an import statement of `project._IMPORT` can match on, found by
    the word `import` rather than by a pattern tried at every line (a tenth of the time)."""
    kept = []
    end = 0  # past the last line looked at
    position = text.find("import")
    while position != -1:
        start = text.rfind("\n", 0, position) + 1
        if start >= end:
            line_end = _line_end(text, position)
            line = text[start:line_end]
            if line.lstrip(" \t").startswith(("from", "import")):
                if "(" in line and ")" not in line:
                    close = text.find(")", line_end)
                    line_end = len(text) if close == -1 else _line_end(text, close)
                kept.append(text[start:line_end])
            end = line_end + 1
        position = text.find("import", max(position + len("import"), end))
    return "\n".join(kept)


def _line_end(text: str, position: int) -> int:
    found = text.find("\n", position)
    return len(text) if found == -1 else found
