"""Annotated code as the project's formatters would write it: a signature too long for a line is wrapped as black
wraps it, and new imports go where isort puts them, so `black --check` and `isort --check` leave the result alone.

Only what annotating changes is laid out: a signature that already spanned several lines keeps its layout (black's
magic trailing comma keeps it one parameter a line), and existing imports stay where they are.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import libcst as cst


_EMPTY = cst.Module([])


def line_length(source_root_config: dict | None) -> int:
    """black's `line-length` from a parsed pyproject.toml, else black's default."""
    tool = (source_root_config or {}).get("tool", {})
    for section in ("black", "ruff"):
        value = tool.get(section, {}).get("line-length")
        if isinstance(value, int) and value > 0:
            return value
    return 88


def trailing_comma_safe(source: str) -> bool:
    """Whether black may add a trailing comma after `*args` / `**kwargs`: only when the file uses syntax of Python 3.6
    or later (black infers the target versions from the file): f-strings, `:=`, positional-only parameters."""
    return bool(_MODERN.search(source))


_MODERN = re.compile(r"""(?<![\w.])(?:[rRbB]?[fF]|[fF][rR])["']|:=|,\s*/\s*[,)]""")


def wrap_signature(function: cst.FunctionDef, original: cst.FunctionDef, indent: str, length: int,
                   comma_safe: bool) -> cst.FunctionDef:
    """`function` (the annotated `original`) with its signature laid out as black would: wrapped when it no longer
    fits on one line. A signature black keeps one parameter a line (a magic trailing comma) or that holds comments
    keeps its layout."""
    if _magic_trailing_comma(original.params):
        return function
    params = _parameter_texts(function.params)
    head = f"{'async ' if function.asynchronous else ''}def {function.name.value}("
    returns = _EMPTY.code_for_node(function.returns.annotation) if function.returns is not None else None
    arrow = f" -> {returns}" if returns is not None else ""
    if len(f"{indent}{head}{', '.join(params)}){arrow}:") <= length or "#" in _header(original):
        return function
    inner = indent + "    "
    starred = any(text.startswith("*") for text in params)
    comma = "," if comma_safe or not starred else ""
    lines = [f"{indent}{head}"] if params else []
    if params:
        joined = ", ".join(params)
        if len(inner) + len(joined) <= length:
            lines.append(f"{inner}{joined}{comma if len(params) == 1 else ''}")
        else:
            lines += [f"{inner}{text}," for text in params[:-1]] + [f"{inner}{params[-1]}{comma}"]
        closing = f"{indent}){arrow}:"
    else:
        closing = f"{indent}{head}){arrow}:"
    if len(closing) > length and returns is not None and isinstance(function.returns.annotation, cst.Subscript):
        subscript = function.returns.annotation
        items = [_EMPTY.code_for_node(element.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                 for element in subscript.slice]
        opened = closing[: len(closing) - len(returns) - 1] + _EMPTY.code_for_node(subscript.value) + "["
        joined = ", ".join(items)
        body = [f"{inner}{joined}"] if len(inner) + len(joined) <= length else [f"{inner}{item}," for item in items]
        lines += [opened, *body, f"{indent}]:"]
    else:
        lines.append(closing)
    text = "\n".join(line[len(indent):] for line in lines) + "\n    pass\n"
    try:
        parsed = cst.parse_statement(text)
    except cst.ParserSyntaxError:
        return function
    assert isinstance(parsed, cst.FunctionDef)
    return function.with_changes(params=parsed.params, returns=parsed.returns,
                                 whitespace_before_params=parsed.whitespace_before_params,
                                 whitespace_before_colon=parsed.whitespace_before_colon)


def _header(function: cst.FunctionDef) -> str:
    code = _EMPTY.code_for_node(function.with_changes(decorators=(), leading_lines=(),
                                                      body=cst.SimpleStatementSuite([cst.Pass()])))
    return code.rsplit(":", 1)[0]


def _magic_trailing_comma(params: cst.Parameters) -> bool:
    elements = [*params.posonly_params, *params.params, params.star_arg, *params.kwonly_params, params.star_kwarg]
    elements = [element for element in elements if isinstance(element, (cst.Param, cst.ParamStar))]
    last = elements[-1] if elements else None
    return isinstance(last, cst.Param) and isinstance(last.comma, cst.Comma)


def _parameter_texts(params: cst.Parameters) -> list[str]:
    texts = []

    def add(node: cst.CSTNode) -> None:
        texts.append(_EMPTY.code_for_node(node.with_changes(comma=cst.MaybeSentinel.DEFAULT)).strip())

    for param in params.posonly_params:
        add(param)
    if params.posonly_ind is not cst.MaybeSentinel.DEFAULT:
        texts.append("/")
    for param in params.params:
        add(param)
    if isinstance(params.star_arg, cst.Param):
        add(params.star_arg)
    elif isinstance(params.star_arg, cst.ParamStar):
        texts.append("*")
    for param in params.kwonly_params:
        add(param)
    if params.star_kwarg is not None:
        add(params.star_kwarg)
    return texts


# ------------------------------------------------------------------------------------------------ imports

def add_imports(module: cst.Module, imports: Sequence[tuple[str, str | None]], first_party: Sequence[str] = (),
                length: int = 88) -> cst.Module:
    """Add `from MODULE import NAME` for each (MODULE, NAME) the module lacks (`import MODULE` for (MODULE, None)): a
    name joins an existing `from MODULE import ...` in isort's order, and a new statement goes among the imports of
    its section (standard library, third party, first party) in isort's order."""
    body = list(module.body)
    had_imports = any(isinstance(statement, cst.SimpleStatementLine) and isinstance(
        statement.body[0], (cst.Import, cst.ImportFrom)) for statement in body)
    wanted: dict[str, list[str]] = {}
    for source, name in imports:
        if name is None:
            if not any(isinstance(statement, cst.SimpleStatementLine) and any(
                    isinstance(small, cst.Import) and any(_EMPTY.code_for_node(alias.name) == source and
                                                          alias.asname is None for alias in small.names)
                    for small in statement.body) for statement in body):
                _insert(body, cst.parse_statement(f"import {source}\n"), source, False, first_party)
            continue
        wanted.setdefault(source, []).append(name)
    for source, names in wanted.items():
        index = _existing_from(body, source)
        if index is not None:
            statement = body[index]
            existing = statement.body[0]
            have = [_EMPTY.code_for_node(alias.name) if alias.asname is None else None for alias in existing.names]
            missing = [name for name in names if name not in have]
            if missing:
                aliases = [alias.with_changes(comma=cst.MaybeSentinel.DEFAULT) for alias in existing.names]
                aliases += [cst.ImportAlias(cst.Name(name)) for name in missing]
                if _is_sorted([_EMPTY.code_for_node(alias.name) for alias in existing.names]):
                    aliases.sort(key=lambda alias: _name_key(_EMPTY.code_for_node(alias.name)))
                aliases = [alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                           for alias in aliases[:-1]] + [aliases[-1]]
                if existing.lpar is not None or len(_EMPTY.code_for_node(
                        statement.with_changes(body=[existing.with_changes(names=aliases)])).strip()) > length:
                    return _fallback_extend(module, body, index, existing, aliases)
                body[index] = statement.with_changes(body=[existing.with_changes(names=aliases)])
            continue
        new = cst.parse_statement(f"from {source} import {', '.join(sorted(names, key=_name_key))}\n")
        _insert(body, new, source, True, first_party)
    if not had_imports:  # a new import block: isort's (and black's) blank lines after it
        after = next((index for index, statement in enumerate(body) if index and not (
            isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], (cst.Import,
                                                                                           cst.ImportFrom)))), None)
        if after is not None:
            blank = 2 if isinstance(body[after], (cst.FunctionDef, cst.ClassDef)) else 1
            lines = [line for line in body[after].leading_lines if line.comment is not None]
            body[after] = body[after].with_changes(leading_lines=[cst.EmptyLine()] * blank + lines)
    return module.with_changes(body=body)


def _insert(body: list[cst.CSTNode], new: cst.BaseStatement, source: str, is_from: bool,
            first_party: Sequence[str]) -> None:
    position, before, after = _position(body, source, is_from, first_party)
    section = _section(source, first_party)
    if before is not None and before != section or before is None and position > 0 and after is None:
        # The first import of a new section, or the first import after the docstring: a blank line before it.
        new = new.with_changes(leading_lines=[cst.EmptyLine()])
    if after is not None and after != section and not body[position].leading_lines:
        body[position] = body[position].with_changes(leading_lines=[cst.EmptyLine()])
    body.insert(position, new)


def _fallback_extend(module, body, index, existing, aliases):
    # A parenthesized or long import: one name a line, as black and isort (profile black) write it.
    statement = body[index]
    lines = ",\n".join(f"    {_EMPTY.code_for_node(alias.name)}" for alias in aliases)
    relative = "." * len(existing.relative)
    source = _EMPTY.code_for_node(existing.module) if existing.module is not None else ""
    new = cst.parse_statement(f"from {relative}{source} import (\n{lines},\n)\n")
    body[index] = new.with_changes(leading_lines=statement.leading_lines)
    return module.with_changes(body=body)


def _existing_from(body: list[cst.CSTNode], source: str) -> int | None:
    for index, statement in enumerate(body):
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
        if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None \
                and _EMPTY.code_for_node(small.module) == source and not isinstance(small.names, cst.ImportStar):
            return index
    return None


def _section(module_name: str, first_party: Sequence[str]) -> int:
    top = module_name.split(".")[0]
    if top == "__future__":
        return 0
    if top in sys.stdlib_module_names:
        return 1
    if top in first_party:
        return 3
    return 2


def _position(body: list[cst.CSTNode], source: str, is_from: bool, first_party: Sequence[str]
              ) -> tuple[int, int | None, int | None]:
    """Where isort would put `from SOURCE import ...` (or `import SOURCE`) among the module's top imports, with the
    sections of the imports just before and after that place (None where there is none)."""
    section = _section(source, first_party)
    imports = []  # (index, section, is_from, module)
    for index, statement in enumerate(body):
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
        if isinstance(small, cst.Import):
            name = _EMPTY.code_for_node(small.names[0].name)
            imports.append((index, _section(name, first_party), False, name))
        elif isinstance(small, cst.ImportFrom):
            name = ("." * len(small.relative)) + (_EMPTY.code_for_node(small.module) if small.module else "")
            imports.append((index, 3 if small.relative else _section(name, first_party), True, name))
        elif index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue  # the docstring
        elif imports:
            break
    if not imports:
        docstring = bool(body) and isinstance(body[0], cst.SimpleStatementLine) and isinstance(
            body[0].body[0], cst.Expr) and isinstance(body[0].body[0].value, cst.SimpleString)
        return (1 if docstring else 0), None, None
    earlier = [entry for entry in imports if (entry[1], entry[2], entry[3].lower()) < (section, is_from, source.lower())]
    if not earlier:
        return imports[0][0], None, imports[0][1]
    index, before = earlier[-1][0], earlier[-1][1]
    later = [entry for entry in imports if entry[0] > index]
    return index + 1, before, later[0][1] if later else None


def _name_key(name: str) -> tuple[int, str]:
    # isort's order_by_type: CONSTANTS, then Classes, then functions and modules.
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def _is_sorted(names: list[str]) -> bool:
    return names == sorted(names, key=_name_key)
