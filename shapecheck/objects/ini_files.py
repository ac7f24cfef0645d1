"""The ini files a module names (`config.read("settings.ini")`, `--config` with `default="configs/model.ini"`): what
an option of one holds, read from the file the project ships, for `config.getint(section, option)`. The file is the
one a run with no flags reads, as a command-line option's default is the value of that run; the values are read
only where the module (else the first-party modules it imports) names exactly one ini file that exists, so an option
read from a parser of another file is never given this one's value."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine import dependencies
from shapecheck.engine.walker import walk
from shapecheck.objects.project import PROJECT, first_party_texts

if TYPE_CHECKING:
    from shapecheck.engine.context import Context

_NAMED = "ini files named"  # the module fact's kind
_INI_NAME = re.compile(r"""["']([^"'\s]+\.ini)["']""")
_PARENTS = 2  # a script in `scripts/` reading `configs/model.ini` from the repository root
_MAX_SIZE = 100_000


def ini_read(ctx: Context, call: cst.Call, section: str | None = None) -> int | None:
    """The int `config.getint("model", "hidden")` (`config["model"].getint("hidden")`, or of a section a name holds,
    `section`) reads from the one ini file
    the module names; None where the call is not such a read, the module names no file or several, the file is not
    there or does not parse, the option is missing or not an int, or the module may change the config (`set`,
    `read_dict`, `read_string`: the file's value need not be the one read)."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "getint" \
            or any(arg.keyword is None and type(arg.value) is not cst.SimpleString for arg in call.args):
        return None
    keys = [arg.value.evaluated_value for arg in call.args if arg.keyword is None]  # type: ignore[attr-defined]
    container = func.value
    while type(container) is cst.Subscript and len(container.slice) == 1 \
            and type(container.slice[0].slice) is cst.Index \
            and type(container.slice[0].slice.value) is cst.SimpleString:
        keys.insert(0, container.slice[0].slice.value.evaluated_value)
        container = container.value
    if section is not None and len(keys) == 1:  # `model_cfg.getint("hidden")` of `model_cfg = config["model"]`
        keys.insert(0, section)
    if len(keys) != 2 or not all(isinstance(key, str) for key in keys):
        return None
    return ini_option(ctx, keys[0], keys[1])


def entry_keys(node: cst.BaseExpression) -> tuple[tuple[str, str], cst.BaseExpression] | None:
    """`config["model"]["hidden"]`: the section and option, and what they are read of; None for anything else."""
    keys: list[str] = []
    container = node
    while type(container) is cst.Subscript and len(container.slice) == 1 \
            and type(container.slice[0].slice) is cst.Index \
            and type(container.slice[0].slice.value) is cst.SimpleString:
        key = container.slice[0].slice.value.evaluated_value
        if not isinstance(key, str):
            return None
        keys.insert(0, key)
        container = container.value
    return ((keys[0], keys[1]), container) if len(keys) == 2 else None


def ini_option(ctx: Context, section: str, option: str) -> int | None:
    """The int the option of `section` holds in the one ini file the module names (`int(config["model"]["hidden"])`
    reads it too); None as for `ini_read`."""
    if ctx.module_fact(_SETTERS, _setters_in):
        return None
    parser = ctx.analysis(IniFile).parser
    if parser is None:
        return None
    try:
        return parser.getint(section, option)
    except (configparser.Error, ValueError):
        return None


class IniFile:
    """The file's ini config, read once per lint on first use."""

    def __init__(self, ctx: Context) -> None:
        self.parser = _read(ctx) if ctx.filename else None


def _read(ctx: Context) -> configparser.ConfigParser | None:
    names = ctx.module_fact(_NAMED, _named_in)
    if not names:
        try:
            # a module another file imports is read as an extract of the definitions it asks for, without the
            # `config.read("config.ini")` statement that names the file: the whole file's text names it
            whole = PROJECT.summary(Path(ctx.filename))
            text = ctx.module.code
            full = "\n".join(whole.lines) if whole is not None else text
            names = frozenset(_INI_NAME.findall(full)) if full.strip() != text.strip() else frozenset()
            if not names:
                names = frozenset(name for other in first_party_texts(text, ctx.filename)
                                  for name in _INI_NAME.findall(other))
        except (OSError, ValueError):
            return None
    if len(names) != 1:
        return None
    name = next(iter(names))
    folder = Path(ctx.filename).resolve().parent
    candidates = [folder, *list(folder.parents)[:_PARENTS]]
    paths = [candidate / name for candidate in candidates]
    dependencies.record(str(path) for path in paths)
    found = [path for path in paths if path.is_file()]
    if len(found) != 1:
        return None
    try:
        if found[0].stat().st_size > _MAX_SIZE:
            return None
        parser = configparser.ConfigParser()
        parser.read_string(found[0].read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    return parser


_SETTERS = "ini config setters"  # the module fact's kind
_SETTER_NAMES = frozenset({"set", "remove_option", "remove_section", "read_dict", "read_string"})


def _setters_in(statement: cst.CSTNode) -> frozenset[str]:
    """One statement's part: the config-changing methods it calls (on anything: a `set` of another object only
    costs the file's values)."""
    return frozenset(node.func.attr.value for node in walk(statement)
                     if type(node) is cst.Call and type(node.func) is cst.Attribute
                     and node.func.attr.value in _SETTER_NAMES)


def _named_in(statement: cst.CSTNode) -> frozenset[str]:
    """One statement's part: the ini file names its string literals spell."""
    return frozenset(node.evaluated_value for node in walk(statement)
                     if type(node) is cst.SimpleString and isinstance(node.evaluated_value, str)
                     and _INI_NAME.fullmatch(f'"{node.evaluated_value}"'))
