"""The settings one configuration table holds, and checking every value of it before anything uses it.

A table is `[tool.shapecheck]` in a pyproject.toml, the top level of a `shapecheck.toml` / `.shapecheck.toml`, the
`KEY = VALUE` pairs given to `--config`, or the command line's options. Each becomes one `Settings`: what that table
says, None (or empty) for what it leaves to the tables it extends. `shapecheck.config` stacks them.

`parse_table` checks every key and value and reports every problem at once, one message per bad value, each naming
the file, the key and what was expected (`pyproject.toml: select: expected a list of rule codes, got a string
'SC1'`), so one run shows everything to fix. Numbers must be finite and within bounds: a time limit of `inf` or
`1e400` would overflow the kernel's CPU limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shapecheck.engine.python_target import target_version
from shapecheck.engine.records import NamedTuple
from shapecheck.engine.registry import SelectorError, check_selectors

SEVERITIES = ("error", "warning")
# The most a limit may be: far past any real need, well inside what the kernel's limits and the clock can hold.
MAX_SECONDS = 1_000_000.0
MAX_MEMORY_MIB = 1 << 30

PerFileIgnores = tuple[tuple[str, tuple[str, ...]], ...]  # (pattern, selectors), in the order written


class ConfigError(Exception):
    """The configuration is unusable. Each message names the file and the key; a table with several bad values
    gives one message for each."""

    def __init__(self, messages: str | Sequence[str]) -> None:
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("\n".join(self.messages))


# A named tuple, not a frozen dataclass: a run answered from the result cache loads this module, and a dataclass
# compiles its methods at import (see `shapecheck.findings`).
class Settings(NamedTuple):
    """What one table says. None: the key is not given, so what the tables below it say (or the default) holds."""

    extend: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    fixable: tuple[str, ...] | None = None
    unfixable: tuple[str, ...] = ()
    extend_fixable: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: PerFileIgnores | None = None
    extend_per_file_ignores: PerFileIgnores = ()
    respect_gitignore: bool | None = None
    fix: bool | None = None
    unsafe_fixes: bool | None = None
    show_fixes: bool | None = None
    external: tuple[str, ...] | None = None
    fail_on: str | None = None
    output_format: str | None = None
    file_time_limit: float | None = None
    file_memory_limit: int | None = None
    target_version: str | None = None  # read by `engine.python_target`, which looks it up itself
    cache_dir: str | None = None  # where the result cache is (`shapecheck.cache`), relative to the table's file


# ------------------------------------------------------------------------------------------------ the values


class _Bad(ValueError):
    """A value of the wrong kind; the message says what was expected."""


class _Invalid(ValueError):
    """A value of the right kind that is still wrong; the messages say why (one per bad entry of a table)."""

    def __init__(self, *messages: str) -> None:
        super().__init__(*messages)
        self.messages = messages


def describe(value: Any) -> str:
    """`value` as a message shows it: its TOML type and a short spelling."""
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text if len(text) <= 60 else text[:57] + '...'}"


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false")
    return value


def _strings(expected: str) -> Callable[[Any], tuple[str, ...]]:
    def check(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise _Bad(f"a list of {expected}")
        if any("\0" in item for item in value):
            raise _Bad(f"a list of {expected} without NUL characters")
        return tuple(value)
    return check


def _selectors(value: Any) -> tuple[str, ...]:
    codes = _strings("rule codes (\"SC101\", a prefix such as \"SC2\", or \"ALL\")")(value)
    try:
        check_selectors(codes, "")
    except SelectorError as error:
        raise _Invalid(str(error).removeprefix(": ")) from None
    return codes


def _per_file_ignores(value: Any) -> PerFileIgnores:
    if not isinstance(value, dict):
        raise _Bad('a table of "pattern" = [rule codes]')
    entries, problems = [], []
    for pattern, codes in value.items():
        where = f"[{pattern!r}]"
        try:
            if "\0" in pattern or not pattern.lstrip("!"):
                raise _Invalid("expected a file pattern, not an empty one or one with a NUL character")
            entries.append((pattern, _selectors(codes)))
        except _Bad as bad:
            problems.append(f"{where}: expected {bad}, got {describe(codes)}")
        except _Invalid as invalid:
            problems += [f"{where}: {message}" for message in invalid.messages]
    if problems:
        raise _Invalid(*problems)
    return tuple(entries)


def _choice(options: Sequence[str]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options or not isinstance(value, str):
            raise _Bad(" or ".join(f'"{option}"' for option in options))
        return value
    return check


def seconds(value: Any) -> float:
    """A time limit: a finite number of seconds from 0 (no limit) to MAX_SECONDS."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not (
            0 <= value <= MAX_SECONDS):
        raise _Bad(f"a number of seconds from 0 (no limit) to {MAX_SECONDS:,.0f}")
    return float(value)


def mebibytes(value: Any) -> int:
    """A memory limit: a whole number of MiB from 0 (no limit) to MAX_MEMORY_MIB."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MEMORY_MIB:
        raise _Bad(f"a whole number of MiB from 0 (no limit) to {MAX_MEMORY_MIB:,}")
    return value


def _path(value: Any) -> str:
    if not isinstance(value, str) or not value or "\0" in value:
        raise _Bad("the path of a configuration file (a non-empty string without NUL characters)")
    return value


def _folder(value: Any) -> str:
    if not isinstance(value, str) or not value or "\0" in value:
        raise _Bad("the path of a folder (a non-empty string without NUL characters)")
    return value


def _target(value: Any) -> str:
    if not isinstance(value, str) or target_version(value) is None:
        raise _Bad('a Python version as ruff spells it ("py312")')
    return value


def _formats() -> Sequence[str]:
    from shapecheck.reporters import FORMATS  # the reporters import nothing of the configuration's
    return FORMATS


# Each key: how its value is checked. `output-format`'s choices come from the reporters, read when checked.
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "extend": _path,
    "select": _selectors,
    "ignore": _selectors,
    "extend-select": _selectors,
    "fixable": _selectors,
    "unfixable": _selectors,
    "extend-fixable": _selectors,
    "exclude": _strings("file patterns"),
    "extend-exclude": _strings("file patterns"),
    "per-file-ignores": _per_file_ignores,
    "extend-per-file-ignores": _per_file_ignores,
    "respect-gitignore": _boolean,
    "fix": _boolean,
    "unsafe-fixes": _boolean,
    "show-fixes": _boolean,
    "external": _strings("codes of other tools' rules (\"SC100\")"),
    "fail-on": _choice(SEVERITIES),
    "output-format": lambda value: _choice(_formats())(value),
    "file-time-limit": seconds,
    "file-memory-limit": mebibytes,
    "target-version": _target,
    "cache-dir": lambda value: _folder(value),
}
KEYS = tuple(_CHECKS)
assert {key.replace("-", "_") for key in KEYS} == set(Settings._fields)


def parse_table(table: Mapping[str, Any], origin: str) -> Settings:
    """The settings of `table`, every key and value checked; ConfigError with one message per problem, each
    starting with `origin` (the file, or `--config`)."""
    values: dict[str, Any] = {}
    problems = []
    for key, value in table.items():
        if key not in _CHECKS:
            problems.append(f"{origin}: {_unknown(key)}")
            continue
        try:
            values[key.replace("-", "_")] = check_value(key, value, f"{origin}: {key}")
        except ConfigError as error:
            problems += error.messages
    if problems:
        raise ConfigError(problems)
    return Settings(**values)


def check_value(key: str, value: Any, origin: str) -> Any:
    """`value` for `key`, checked; ConfigError with one message per problem, each starting with `origin` (the file
    and key, or a command-line option)."""
    try:
        return _CHECKS[key](value)
    except _Bad as bad:
        raise ConfigError(f"{origin}: expected {bad}, got {describe(value)}") from None
    except _Invalid as invalid:
        raise ConfigError([f"{origin}{'' if message.startswith('[') else ': '}{message}"
                           for message in invalid.messages]) from None


def _unknown(key: str) -> str:
    spelled = key.replace("_", "-")
    hint = f" (did you mean {spelled!r}?)" if spelled in _CHECKS and spelled != key else ""
    return f"unknown key {key!r}{hint}; known keys: {', '.join(KEYS)}"
