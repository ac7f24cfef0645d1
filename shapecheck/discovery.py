"""Which files `shapecheck lint PATHS...` lints.

Folders are walked for `*.py` files and `*.ipynb` notebooks in sorted order, skipping what `exclude` /
`extend-exclude` name (by default ruff's list of tool, build and virtualenv folders), what `.gitignore` files name,
and any folder holding a `pyvenv.cfg` (a virtualenv under any name); `respect-gitignore = false`
(`--no-respect-gitignore`) leaves `.gitignore` files out of it, as in ruff. A path named on the command line is always
linted, excluded or not, unless `--force-exclude` is given (pre-commit passes every staged file by name; the hook uses
it so `exclude` still holds there, as ruff's hook does).

Symbolic links to folders are not followed while walking (they lead to cycles and to code outside the project);
links to files are linted. Which `exclude` applies to a folder's entries is the folder's own configuration's
(`shapecheck.config.Resolver`), so a sub-project's pyproject.toml excludes within it. `.gitignore` files are read in
every walked folder and, above the named folder, up to the root of its git repository, along with the repository's
`.git/info/exclude`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from shapecheck.engine.records import NamedTuple
from shapecheck.gitignore import PatternList

class Excludes(Protocol):
    respect_gitignore: bool  # False: `.gitignore` files and .git/info/exclude are not read (`--no-respect-gitignore`)

    def decide(self, path: str, is_dir: bool) -> bool | None: ...
    def covers(self, path: str, is_dir: bool = False) -> bool: ...


# The excludes that apply to the entries of a folder (absolute): each folder's nearest configuration's.
ExcludesIn = Callable[[str], Excludes]

# Python files and Jupyter notebooks; not stubs (`.pyi`): no code runs there, so no shape bug can.
NOTEBOOK_SUFFIX = ".ipynb"
LINTED_SUFFIXES = (".py", NOTEBOOK_SUFFIX)


def is_notebook(filename: str) -> bool:
    """Here rather than in `shapecheck.notebook`, which a lint of a Python file does not load."""
    return filename.endswith(NOTEBOOK_SUFFIX)


class Discovery(NamedTuple):  # a named tuple: cheaper to define than a dataclass, in a cached run's start-up
    files: list[str]  # as the user will see them: relative when given relative
    errors: list[tuple[str, str]]  # (path, reason) for paths that can't be linted


def discover(paths: Sequence[str], exclusions: ExcludesIn, force_exclude: bool = False) -> Discovery:
    found = Discovery([], [])
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.realpath(path)  # one file named twice, or reached through a link, is linted once
        if key not in seen:
            seen.add(key)
            found.files.append(path)

    for given in paths:
        path = os.path.normpath(given)
        absolute = os.path.abspath(path)
        if not os.path.lexists(path):
            found.errors.append((given, "no such file or directory"))
        elif not os.path.exists(path):
            found.errors.append((given, f"is a broken symbolic link (to {os.readlink(path)})"))
        elif force_exclude and exclusions(os.path.dirname(absolute)).covers(absolute, os.path.isdir(path)):
            continue
        elif os.path.isdir(path):
            for file in _walk(path, absolute, exclusions, _ancestor_ignores(absolute), found.errors):
                add(file)
        elif os.path.isfile(path):
            add(path)
        else:
            found.errors.append((given, "is not a regular file or a folder"))
    return found


def _walk(shown: str, folder: str, exclusions: ExcludesIn, ignores: list[PatternList],
          errors: list[tuple[str, str]]) -> Iterator[str]:
    """Files to lint under `folder` (absolute), named as `shown` + the relative path. `ignores` holds the
    `.gitignore` lists that apply, the deepest last."""
    excluded = exclusions(folder)
    gitignore = os.path.join(folder, ".gitignore")
    if excluded.respect_gitignore and os.path.isfile(gitignore):
        ignores = [*ignores, PatternList.from_file(gitignore)]
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as error:
        errors.append((shown, f"cannot be listed: {error.strerror or error}"))
        return
    for entry in entries:
        child = entry.name if shown == "." else os.path.join(shown, entry.name)
        is_dir = entry.is_dir(follow_symlinks=False)
        ignored = excluded.respect_gitignore and _ignored(ignores, entry.path, is_dir)
        if ignored or excluded.decide(entry.path, is_dir):
            continue
        if is_dir:
            if not os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                yield from _walk(child, entry.path, exclusions, ignores, errors)
        elif entry.name.endswith(LINTED_SUFFIXES):
            try:
                is_file = entry.is_file()  # follows a link to a file; a link to a folder is not walked
            except OSError as error:  # a link that loops
                errors.append((child, f"cannot be read: {error.strerror or error}"))
                continue
            if is_file:
                yield child
            elif entry.is_symlink() and not os.path.exists(entry.path):
                errors.append((child, f"is a broken symbolic link (to {os.readlink(entry.path)})"))


def _ignored(ignores: list[PatternList], path: str, is_dir: bool) -> bool:
    """The deepest `.gitignore` with a matching pattern decides, as in git."""
    for patterns in reversed(ignores):
        decision = patterns.decide(path, is_dir)
        if decision is not None:
            return decision
    return False


def _ancestor_ignores(folder: str) -> list[PatternList]:
    """The ignore lists above `folder` (absolute) within its git repository, outermost first, starting with
    `.git/info/exclude`; none outside a repository. `folder`'s own `.gitignore` is read by the walk."""
    above = []
    current = folder
    while not os.path.exists(os.path.join(current, ".git")):
        parent = os.path.dirname(current)
        if parent == current:
            return []
        current = parent
        above.append(current)
    # Patterns in .git/info/exclude are relative to the repository's root, like its top-level .gitignore.
    ignores = [PatternList.from_file(os.path.join(current, ".git", "info", "exclude"), base=current)]
    for ancestor in reversed(above):
        gitignore = os.path.join(ancestor, ".gitignore")
        if os.path.isfile(gitignore):
            ignores.append(PatternList.from_file(gitignore))
    return ignores
