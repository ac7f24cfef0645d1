"""Syntax newer than the running Python, found in a module libcst parsed, and the module spelled without it.

A project may declare a newer Python than the one linting it (`requires-python = ">=3.12"` run on 3.11). The
running compiler cannot judge such a file, and it must not be passed on libcst's word alone (libcst accepts
`b"é"`), so the file is judged in two steps, as ruff judges syntax against its target version:

- each construct newer than the target is an error ("type parameter defaults need Python 3.13");
- every construct newer than the running Python is rewritten in its older spelling, line for line (`type X = v`
  becomes `X = v`, `def f[T](x)` becomes `def f(x)`, an f-string only Python 3.12 reads becomes `""`), and the
  running compiler judges the rest.

    older = older_spelling(module, target=(3, 12))
    older.code        # the module in the running Python's syntax; None when nothing in it is newer
    older.too_new     # the first construct newer than the target, if any: its name, version and node
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from shapecheck.engine.records import record

Version = tuple[int, int]


def running_version() -> Version:
    return sys.version_info[:2]


def version_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


@dataclass(frozen=True)
class Feature:
    name: str  # plural: "... need Python 3.12"
    version: Version  # the first Python that reads it
    node: cst.CSTNode


@record
class OlderSpelling:
    module: cst.Module
    code: str | None
    too_new: Feature | None

    def position(self, feature: Feature) -> tuple[int, int]:
        """The 1-based row and column where `feature` starts."""
        start = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)[feature.node].start
        return start.line, start.column + 1


def older_spelling(module: cst.Module, target: Version) -> OlderSpelling:
    rewriter = _Rewriter(module, target)
    rewritten = module.visit(rewriter)
    return OlderSpelling(module, rewritten.code if rewriter.rewritten else None, rewriter.too_new)


_EXCEPT_STAR = "`except*` clauses"
_STARRED_SUBSCRIPT = "starred subscripts (`a[*b]`)"
_STARRED_ANNOTATION = "starred annotations (`*args: *Ts`)"
_TYPE_STATEMENT = "`type` statements"
_TYPE_PARAMETERS = "type parameter lists (`def f[T]`)"
_TYPE_PARAMETER_DEFAULT = "type parameter defaults (`[T = int]`)"
_NEW_FSTRING = "f-strings with their own quote, a backslash, a comment or a line break inside `{}`"
_TEMPLATE_STRING = "template strings (`t\"...\"`)"
_BARE_EXCEPT_TUPLE = "`except` clauses naming several exceptions without parentheses"


class _Rewriter(cst.CSTTransformer):
    """Finds the newer constructs (on the way down, so in source order) and respells them (on the way up)."""

    def __init__(self, module: cst.Module, target: Version) -> None:
        super().__init__()
        self.module = module
        self.target = target
        self.too_new: Feature | None = None
        self.rewritten = False
        self._running = running_version()

    def _newer(self, name: str, version: Version, node: cst.CSTNode) -> None:
        """Note a construct that needs `version`: the first one newer than the target is an error."""
        if version > self.target and self.too_new is None:
            self.too_new = Feature(name, version, node)

    def _respell(self, version: Version) -> bool:
        """On the way up: whether to respell a construct that needs `version` (the running Python is older)."""
        if version > self._running:
            self.rewritten = True
            return True
        return False

    # ------------------------------------------------------------------------------------------------ 3.11

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._newer(_EXCEPT_STAR, (3, 11), node)

    def leave_TryStar(self, original: cst.TryStar, updated: cst.TryStar) -> cst.BaseStatement:
        if not self._respell((3, 11)):
            return updated
        handlers = [cst.ExceptHandler(body=h.body, type=h.type, name=h.name, leading_lines=h.leading_lines,
                                      whitespace_after_except=h.whitespace_after_except,
                                      whitespace_before_colon=h.whitespace_before_colon) for h in updated.handlers]
        return cst.Try(body=updated.body, handlers=handlers, orelse=updated.orelse, finalbody=updated.finalbody,
                       leading_lines=updated.leading_lines, whitespace_before_colon=updated.whitespace_before_colon)

    def visit_Index(self, node: cst.Index) -> None:
        if node.star is not None:
            self._newer(_STARRED_SUBSCRIPT, (3, 11), node)

    def leave_Index(self, original: cst.Index, updated: cst.Index) -> cst.Index:
        if original.star is not None and self._respell((3, 11)):
            return updated.with_changes(star=None)
        return updated

    def visit_Param(self, node: cst.Param) -> None:
        if _starred_annotation(node):
            self._newer(_STARRED_ANNOTATION, (3, 11), node)

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        if _starred_annotation(original) and self._respell((3, 11)):
            annotation = updated.annotation
            assert annotation is not None and isinstance(annotation.annotation, cst.StarredElement)
            return updated.with_changes(annotation=annotation.with_changes(annotation=annotation.annotation.value))
        return updated

    # ------------------------------------------------------------------------------------------------ 3.12

    def visit_TypeAlias(self, node: cst.TypeAlias) -> None:
        self._newer(_TYPE_STATEMENT, (3, 12), node)

    def leave_TypeAlias(self, original: cst.TypeAlias, updated: cst.TypeAlias) -> cst.BaseSmallStatement:
        if not self._respell((3, 12)):
            return updated
        return cst.Assign(targets=[cst.AssignTarget(updated.name)], value=updated.value, semicolon=updated.semicolon)

    def visit_TypeParameters(self, node: cst.TypeParameters) -> None:
        self._newer(_TYPE_PARAMETERS, (3, 12), node)

    def visit_TypeParam(self, node: cst.TypeParam) -> None:
        if node.default is not None:
            self._newer(_TYPE_PARAMETER_DEFAULT, (3, 13), node)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if original.type_parameters is not None and self._respell((3, 12)):
            return updated.with_changes(type_parameters=None, whitespace_after_type_parameters=cst.SimpleWhitespace(""))
        return updated

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if original.type_parameters is not None and self._respell((3, 12)):
            return updated.with_changes(type_parameters=None, whitespace_after_type_parameters=cst.SimpleWhitespace(""))
        return updated

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        if self._needs_pep_701(node):
            self._newer(_NEW_FSTRING, (3, 12), node)

    def leave_FormattedString(self, original: cst.FormattedString, updated: cst.FormattedString
                              ) -> cst.BaseExpression:
        if self._needs_pep_701(original) and self._respell((3, 12)):
            return self._blank_string(original)
        return updated

    def _needs_pep_701(self, node: cst.FormattedString) -> bool:
        """Before 3.12 an f-string was a string literal first: a `{}` field could not hold its closing quote, a
        backslash, a comment, or (in a one-line string) a line break."""
        quote = node.end
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                inner = self.module.code_for_node(part)
                if quote in inner or "\\" in inner or "#" in inner or (len(quote) == 1 and ("\n" in inner
                                                                                           or "\r" in inner)):
                    return True
        return False

    # ------------------------------------------------------------------------------------------------ 3.14

    def visit_TemplatedString(self, node: cst.TemplatedString) -> None:
        self._newer(_TEMPLATE_STRING, (3, 14), node)

    def leave_TemplatedString(self, original: cst.TemplatedString, updated: cst.TemplatedString
                              ) -> cst.BaseExpression:
        return self._blank_string(original) if self._respell((3, 14)) else updated

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if _bare_tuple(node.type):
            self._newer(_BARE_EXCEPT_TUPLE, (3, 14), node)

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        if _bare_tuple(node.type):
            self._newer(_BARE_EXCEPT_TUPLE, (3, 14), node)

    def leave_ExceptHandler(self, original: cst.ExceptHandler, updated: cst.ExceptHandler) -> cst.ExceptHandler:
        return self._parenthesize(original, updated)

    def leave_ExceptStarHandler(self, original: cst.ExceptStarHandler, updated: cst.ExceptStarHandler
                                ) -> cst.ExceptStarHandler:
        return self._parenthesize(original, updated)

    def _parenthesize(self, original, updated):
        if _bare_tuple(original.type) and self._respell((3, 14)):
            return updated.with_changes(type=updated.type.with_changes(lpar=[cst.LeftParen()],
                                                                       rpar=[cst.RightParen()]))
        return updated

    # -----------------------------------------------------------------------------------------------------

    def _blank_string(self, original: cst.CSTNode) -> cst.SimpleString:
        """An empty string literal over as many lines as `original`, so every later line keeps its row."""
        code = self.module.code_for_node(original)
        breaks = code.count("\n") + code.count("\r") - code.count("\r\n")
        return cst.SimpleString('""' if not breaks else '"""' + "\n" * breaks + '"""')


def _starred_annotation(param: cst.Param) -> bool:
    return param.annotation is not None and isinstance(param.annotation.annotation, cst.StarredElement)


def _bare_tuple(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Tuple) and not expr.lpar
