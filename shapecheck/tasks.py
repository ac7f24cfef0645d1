"""What a lint run is made of: the files to lint (`Task`), what came of each (`Outcome`) and what one file may cost
(`Budget`).

Plain data, cheap to import: the command line and the result cache use these without loading the engine, which a
run answered from the cache never needs (`shapecheck.runner` lints the rest). Named tuples, not dataclasses: a
dataclass costs a few compiled functions at import, and a cached run's whole budget is three Python start-ups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

try:
    from _blake2 import blake2b  # hashlib's own blake2b without hashlib's OpenSSL import, a tenth of a cache hit
except ImportError:  # pragma: no cover - an interpreter without the module
    from hashlib import blake2b

from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.records import NamedTuple
from shapecheck.findings import FileResult

if TYPE_CHECKING:
    from shapecheck.engine.registry import RuleSpec

# Larger files are skipped with a warning: real source is far smaller, and a generated file of this size would
# take libcst seconds and gigabytes to parse.
MAX_FILE_SIZE = 5 * 1024 * 1024
# A notebook's size is mostly its outputs (plots as base64 images): only its code is parsed.
MAX_NOTEBOOK_SIZE = 50 * 1024 * 1024

# The default budget of one file: far over what real source takes (the slowest file of a site-packages with torch,
# numpy and sympy lints in a few seconds), well under what a stuck pre-commit hook costs.
DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_MIB = 4096


class Task(NamedTuple):
    path: str  # as the user sees it
    rules: tuple[RuleSpec, ...]  # this file's rules, after per-file-ignores; imported when the file needs them
    data: bytes | None = None  # the source itself (standard input), instead of the file at `path`
    options: FileOptions = FileOptions()  # what else its configuration says: unfixable codes, external ones


class Outcome(NamedTuple):
    result: FileResult
    diff: str = ""  # with --diff: what --fix would change
    digest: str | None = None  # the hash of the bytes that were linted (`shapecheck.cache.digest`), when read


class Budget(NamedTuple):
    """What one file may take. A file over it is reported "not linted" and the run goes on. None: no limit."""

    seconds: float | None = DEFAULT_SECONDS
    memory_mib: int | None = DEFAULT_MEMORY_MIB


def digest(data: bytes) -> str:
    """What the result cache keys a file's bytes by (the runner reports it for the bytes it linted)."""
    return blake2b(data, digest_size=16).hexdigest()
