"""What a file's configuration tells the engine beyond its rules: plain, picklable data a worker process receives."""

from __future__ import annotations

from shapecheck.engine.records import NamedTuple


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class FileOptions(NamedTuple):
    unfixable: frozenset[str] = frozenset()  # codes whose fixes are neither applied nor offered (`unfixable`)
    external: tuple[str, ...] = ()  # code prefixes other tools own: the unused-noqa check leaves them alone
