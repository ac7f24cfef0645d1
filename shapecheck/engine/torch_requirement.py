"""The torch version a project requires, read from its packaging files: what version-dependent rules ask.

From the linted file's folder up to the project root (the first folder with a `.git`, or the filesystem root), the
nearest folder whose `pyproject.toml` (`[project]` dependencies and optional dependencies, Poetry's
`[tool.poetry.dependencies]`), `requirements*.txt` or `setup.cfg` (`install_requires`) names torch gives the
answer: the lowest version its specifiers allow (`torch>=2.6` -> (2, 6), `torch==2.7.1` -> (2, 7),
`torch~=2.6.0` -> (2, 6)). A requirement without a lower bound, or no requirement at all, gives None: nothing is
known. Cached per folder, so a tree of files costs one read of each packaging file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from shapecheck.engine import dependencies

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

Version = tuple[int, int]

# `torch`, `torch[extra]`, then specifiers; a name that merely starts with torch (torchvision) is another package.
_TORCH = re.compile(r"^\s*torch\s*(?:\[[^\]]*\])?\s*(?P<specs>(?:[<>=!~]=?=?\s*[\w.*+!-]+\s*,?\s*)*)\s*(?:;.*)?$",
                    re.IGNORECASE)
_SPEC = re.compile(r"(?P<op>~=|===|==|>=|>)\s*(?P<version>\d+(?:\.\d+)*)")
_MAX_FILE = 1 << 20


def minimum_torch(filename: str) -> Version | None:
    """The lowest torch version the project around `filename` allows, or None when that is not stated. The files
    read (or looked for) for it are recorded as the file's dependencies."""
    try:
        folder = Path(filename).resolve().parent
    except (OSError, RuntimeError):
        return None
    version, read = _minimum_in(folder)
    for consulted in read:
        dependencies.record((str(consulted / name) for name in ("pyproject.toml", "setup.cfg", ".git")))
        dependencies.record_pattern(str(consulted), "requirements*.txt")
    return version


@lru_cache(maxsize=4096)
def _minimum_in(folder: Path) -> tuple[Version | None, tuple[Path, ...]]:
    """The answer for `folder`, and the folders whose packaging files gave it."""
    found = _requirement_here(folder)
    if found is not None:
        return found[0], (folder,)
    if (folder / ".git").exists() or folder.parent == folder:
        return None, (folder,)
    version, above = _minimum_in(folder.parent)
    return version, (folder, *above)


dependencies.remembered(_minimum_in.cache_clear)


def _requirement_here(folder: Path) -> tuple[Version | None] | None:
    """`(version,)` when a packaging file in `folder` names torch (version None: no lower bound); None if none."""
    lines: list[str] = []
    pyproject = _read(folder / "pyproject.toml")
    if pyproject is not None:
        lines += _pyproject_requirements(pyproject)
    try:
        requirement_files = sorted(folder.glob("requirements*.txt"))
    except OSError:
        requirement_files = []
    for path in requirement_files:
        text = _read(path)
        if text is not None:
            lines += text.splitlines()
    setup_cfg = _read(folder / "setup.cfg")
    if setup_cfg is not None:
        lines += setup_cfg.splitlines()
    versions = [v for v in (_lower_bound(line) for line in lines) if v is not False]
    if not versions:
        return None
    known = [v for v in versions if v is not None]
    # Several files or lines naming torch: the project must work with the lowest of what they allow.
    return (min(known) if known and len(known) == len(versions) else None,)


def _pyproject_requirements(text: str) -> list[str]:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    found = [d for d in project.get("dependencies", []) if isinstance(d, str)]
    optional = project.get("optional-dependencies", {})
    if isinstance(optional, dict):
        found += [d for group in optional.values() if isinstance(group, list) for d in group if isinstance(d, str)]
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    poetry = tool.get("poetry", {}).get("dependencies", {}) if isinstance(tool.get("poetry"), dict) else {}
    if isinstance(poetry, dict) and isinstance(poetry.get("torch"), str):
        found.append("torch" + _poetry_spec(poetry["torch"]))
    return found


def _poetry_spec(spec: str) -> str:
    """Poetry's `^2.6` and `2.6.*` mean at least 2.6; a bare `2.6.0` means exactly that."""
    spec = spec.strip()
    if spec.startswith("^"):
        return ">=" + spec[1:]
    if spec and spec[0].isdigit():
        return "==" + spec
    return spec


def _lower_bound(line: str) -> Version | None | bool:
    """The lower bound a requirement line sets on torch; None: torch without one; False: not about torch."""
    match = _TORCH.match(line.split("#", 1)[0])
    if match is None:
        return False
    bounds = [_version(m.group("version")) for m in _SPEC.finditer(match.group("specs"))]
    return max(bounds) if bounds else None


def _version(text: str) -> Version:
    parts = [int(p) for p in text.split(".")[:2]]
    return (parts[0], parts[1] if len(parts) > 1 else 0)


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
