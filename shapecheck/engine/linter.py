"""Lint one file's source: decode, skip cheaply when nothing can fire, parse once, traverse once, report.

Positions are computed only for files that have findings, and only for the top-level statements that hold them
(`source.ParsedSource.positions`): for the whole module they cost several times the parse.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import sys
import tokenize
import warnings
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.traversal import Traversal
from shapecheck.engine.context import Context, Report
from shapecheck.engine.fixer import apply_fixes
from shapecheck.engine.guard import TooComplex
from shapecheck.engine.noqa import file_exemption, invalid_rows, line_exemptions
from shapecheck.engine.rule import Rule
from shapecheck.engine.source import ParsedSource, parse_source
from shapecheck.engine.torch_code import TRAINING_LOOP_RULES, implicit_torch_training, imports_torch
from shapecheck.loops.training_loop import TrainingLoop
from shapecheck.objects.model_outputs import ForwardReturns
from shapecheck.findings import INTERNAL_ERROR, SYNTAX_ERROR, Edit, FileResult, Finding, FixInfo, Location
from shapecheck.notebook import Notebook, NotebookError, read_notebook

# Deeply nested expressions recurse once per level in the parser, the traversal and the code generator.
_RECURSION_LIMIT = 20_000

MAX_FIX_ROUNDS = 8

_LINE_END = re.compile(r"\r\n|\r|\n")


class SourceError(Exception):
    """The file's bytes are not Python source we can read."""


def decode(data: bytes) -> str:
    if b"\x00" in data:
        raise SourceError("contains NUL bytes: not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise SourceError(f"cannot detect its encoding: {error}") from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise SourceError(f"is not valid {encoding}: {error}") from None
    # The BOM is not part of the code; positions and fixes work on the text after it.
    return text[1:] if text.startswith(codecs.BOM_UTF8.decode("utf-8")) else text


def applicable(rules: Sequence[type[Rule]], text: str) -> list[type[Rule]]:
    """The rules that could fire on this text: the file imports torch and contains one of the rule's triggers;
    for torch training code without the import (see `shapecheck.engine.torch_code`), the training-loop rules."""
    if not imports_torch(text):
        if not implicit_torch_training(text):
            return []
        rules = [rule for rule in rules if rule.code.startswith(TRAINING_LOOP_RULES)]
    return [rule for rule in rules if not rule.triggers or any(t in text for t in rule.triggers)]


class Analysis(Protocol):
    """How a text is parsed and traversed: `WHOLE_FILE`, or the editor server's analysis of one document between
    edits (`shapecheck.server.incremental`), which re-parses and re-analyses only what an edit changed. Either
    way the findings are the same."""

    def parse(self, text: str) -> ParsedSource: ...

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal | None:
        """The finished traversal of `ctx.module` with `visitors` (the recording analyses, then the rules); None
        when this analysis cannot give exactly the whole-file traversal's findings this time, and the linter is
        to traverse the whole file on a fresh context instead."""


class WholeFile:
    def parse(self, text: str) -> ParsedSource:
        return parse_source(text)

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal:
        return traverse(ctx, visitors)


WHOLE_FILE = WholeFile()


def lint_text(text: str, filename: str, rules: Sequence[type[Rule]], fix: str | None = None,
              analysis: Analysis = WHOLE_FILE) -> FileResult:
    """Lint decoded source. With `fix` ("safe" or "unsafe"), apply fixes of that applicability until none apply
    and report what remains; the fixed text is in `result.new_source`."""
    result = FileResult(filename, invalid_noqa=[str(row) for row in invalid_rows(text)])
    exempt = file_exemption(text)
    if exempt is True:
        return result
    rules = [rule for rule in rules if rule.code not in exempt]
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    current = text
    # One round more than fix rounds: the findings must come from linting the text the last fix produced.
    for round_ in range(MAX_FIX_ROUNDS + 1):
        outcome = _lint_once(current, filename, applicable(rules, current), analysis)
        if isinstance(outcome, FileResult):  # syntax error or too deep: nothing else to do with this text
            outcome.fixed, outcome.new_source = result.fixed, (current if current != text else None)
            outcome.invalid_noqa = result.invalid_noqa
            return outcome
        module, reports, findings = outcome
        if fix is None or round_ == MAX_FIX_ROUNDS:
            break
        wanted = [r for r in reports if r.fix is not None and (fix == "unsafe" or r.fix.applicability == "safe")]
        if not wanted:
            break
        fixed_text, count = apply_fixes(module, wanted)
        if current.endswith("\r") and not fixed_text.endswith(("\r", "\n")):
            fixed_text += "\r"  # libcst drops the last line end of a file whose lines end in a lone \r
        if count == 0 or fixed_text == current:
            break
        result.fixed += count
        current = fixed_text
    result.findings = findings
    result.new_source = current if current != text else None
    return result


def lint_notebook(text: str, filename: str, rules: Sequence[type[Rule]], fix: str | None = None,
                  analysis: Analysis = WHOLE_FILE) -> FileResult:
    """Lint a notebook's JSON text: its code cells as one module, findings placed by cell. A file that is not a
    notebook is one SC000 finding, as ruff reports it. With fixes, `result.new_source` is the notebook's new text."""
    try:
        notebook = read_notebook(text)
    except NotebookError as error:
        start = Location(1, 1)
        return FileResult(filename, [Finding(SYNTAX_ERROR, "syntax-error", str(error), filename, start, start)])
    notebook, broken = _leave_out_broken_cells(notebook, filename)
    result = lint_text(notebook.source, filename, rules, fix, analysis)
    if result.new_source is not None:
        result.new_source = notebook.with_source(result.new_source)
        if result.new_source is None:  # a fix moved a cell boundary or a magic: report the notebook unfixed
            result = lint_text(notebook.source, filename, rules)
            result.warning = "fixes not applied: they could not be put back into the notebook's cells"
    result.findings = sorted([*broken, *(_in_cell(notebook, finding) for finding in result.findings)],
                             key=lambda finding: finding.sort_key)
    result.invalid_noqa = ["cell {}:{}".format(*notebook.locate(int(row))) for row in result.invalid_noqa]
    return result


def _leave_out_broken_cells(notebook: Notebook, filename: str) -> tuple[Notebook, list[Finding]]:
    """Jupyter compiles each cell on its own, so a cell with a syntax error (an exercise's `loss = # TODO`) fails
    alone and the others run. Likewise here, as in ruff: each such cell is one SC000 (a bracket left open for the
    next cell breaks both) and the rest of the notebook is linted without them. Checked with CPython's own parser,
    which costs a fraction of libcst's."""
    broken, findings = [], []
    for number, first_row, code in notebook.cell_codes():
        try:
            compile(code, filename, "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError as error:
            row = first_row + max(error.lineno or 1, 1) - 1
            [finding] = _syntax_error(filename, notebook.source, error.msg, row, error.offset or 1).findings
            findings.append(_in_cell(notebook, finding))
            broken.append(number)
        except (ValueError, RecursionError, MemoryError):
            continue
    return (notebook.without(broken) if broken else notebook), findings


def _in_cell(notebook: Notebook, finding: Finding) -> Finding:
    def in_cell(location: Location) -> Location:
        return Location(notebook.locate(location.row)[1], location.column)

    fix = finding.fix
    if fix is not None:
        fix = replace(fix, edits=tuple(replace(edit, location=in_cell(edit.location),
                                               end_location=in_cell(edit.end_location)) for edit in fix.edits))
    start, end = finding.location, finding.end_location
    return replace(finding, location=in_cell(start), end_location=in_cell(end), fix=fix,
                   cell=notebook.locate(start.row)[0],
                   file_location=Location(*notebook.file_position(start.row, start.column)),
                   file_end_location=Location(*notebook.file_position(end.row, end.column)))


def _lint_once(text: str, filename: str, rules: Sequence[type[Rule]], analysis: Analysis):
    # A file no rule can fire on is only syntax-checked, by CPython's parser (a tenth of libcst's time); libcst,
    # which reads syntax newer than the running Python's, has the last word on a file CPython rejects.
    if not rules and _cpython_parses(text, filename):
        return None, [], []
    try:
        source = analysis.parse(text)  # guarded: see `engine.guard`
    except TooComplex as reason:
        return FileResult(filename, error=f"too complex to analyse: {reason}")
    except cst.ParserSyntaxError as error:
        return _syntax_error(filename, text, *_locate_syntax_error(text, filename, error))
    except SyntaxError as error:  # from the guard's tokenizer: the file is not Python
        return _syntax_error(filename, text, *_cpython_syntax_error(text, filename, error))
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to parse")
    module = source.module
    if not rules:
        return module, [], []
    outcome = _in_context(source, filename, text, rules, analysis)
    if outcome is None:  # the analysis could not be exact this time: the whole file, on a fresh context
        outcome = _in_context(source, filename, text, rules, WHOLE_FILE)
    return outcome


def _in_context(source: ParsedSource, filename: str, text: str, rules: Sequence[type[Rule]], analysis: Analysis):
    ctx = Context(source.module, filename, implicit_torch=not imports_torch(text))
    try:
        return _analyse(ctx, source, filename, text, rules, analysis)
    finally:
        ctx.release()


def _analyse(ctx: Context, source: ParsedSource, filename: str, text: str, rules: Sequence[type[Rule]],
             analysis: Analysis):
    module = source.module
    # The recording analyses see each node before the rules do, so a rule's `visit_*` finds them up to date.
    recorders = [ctx.analysis(TrainingLoop), ctx.analysis(ForwardReturns)]
    try:
        traversal = analysis.traverse(ctx, [*recorders, *(rule(ctx) for rule in rules)])
        if traversal is None:
            return None
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to analyse")
    if not ctx.imports_torch:
        return module, [], []
    # A finding a noqa comment silences is not fixed either, as in ruff: the comment says "leave this line alone".
    reports, findings = _findings(source, filename, ctx.reports)
    lines = source_lines(text)
    crashes = [(_visitor_title(crash.visitor), str(crash)) for crash in traversal.crashes]
    for analysis in ctx.analyses():
        # an analysis that crashed answered "unknown" there, so the rules went on; the crash is still a bug
        errors = getattr(analysis, "errors", None)
        if errors:
            crashes.append((f"the {analysis.title}", f"{type(errors[0]).__name__}: {errors[0]}"))
    for title, crash in crashes:
        findings.append(Finding(
            INTERNAL_ERROR, "internal-error", f"{title} crashed on this file: {crash}; please report it", filename,
            Location(1, 1), Location(1, 1), source_line=lines[0] if lines else ""))
    return module, reports, findings


def _visitor_title(visitor: object) -> str:
    if isinstance(visitor, Rule):
        return f"rule {visitor.code} ({visitor.name})"
    return f"the {getattr(visitor, 'title', type(visitor).__name__)}"


def _cpython_parses(text: str, filename: str) -> bool:
    try:
        with warnings.catch_warnings():  # invalid escape sequences and the like are not ours to report
            warnings.simplefilter("ignore")
            compile(text, filename, "exec", ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _cpython_syntax_error(text: str, filename: str, error: SyntaxError) -> tuple[str, int, int]:
    """CPython's parser's message and position for a file its tokenizer rejected (`error`): "'(' was never
    closed" where the tokenizer says "unexpected EOF"."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text, filename)
    except SyntaxError as python_error:
        error = python_error
    except (ValueError, RecursionError, MemoryError):
        pass
    return error.msg, error.lineno or 1, error.offset or 1


def _locate_syntax_error(text: str, filename: str, error: cst.ParserSyntaxError) -> tuple[str, int, int]:
    """CPython's message and position when it agrees the code is invalid: libcst points at the end of the
    offending token and words its message in grammar terms."""
    try:
        ast.parse(text, filename)
    except SyntaxError as python_error:
        if python_error.lineno is not None:
            return python_error.msg, python_error.lineno, python_error.offset or 1
    except (ValueError, RecursionError, MemoryError):
        pass
    return error.message, error.raw_line, 1


def source_lines(text: str) -> list[str]:
    """The lines as the parser numbers them: ended by \\n, \\r\\n or \\r only, where str.splitlines() also ends
    them at form feeds, \\x0b, \\x1c-\\x1e, \\x85 and U+2028/9, which Python allows inside a line."""
    lines = _LINE_END.split(text)
    if lines[-1] == "":  # the end of the last line, not a line
        lines.pop()
    return lines


def _syntax_error(filename: str, text: str, message: str, row: int, column: int) -> FileResult:
    lines = source_lines(text)
    line = lines[row - 1] if 0 < row <= len(lines) else ""
    location = Location(row, column)
    return FileResult(filename, [Finding(SYNTAX_ERROR, "syntax-error", f"SyntaxError: {message}", filename,
                                         location, location, source_line=line)])


def _findings(source: ParsedSource, filename: str, reports: Sequence[Report]
              ) -> tuple[list[Report], list[Finding]]:
    """The reports `# noqa` leaves, and their findings: fixes are only ever made for these."""
    if not reports:
        return [], []
    module = source.module
    nodes = [report.node for report in reports]
    nodes += [old for report in reports if report.fix is not None for old, _ in report.fix.replacements]
    positions = source.positions(nodes, near=[report.statement for report in reports])
    lines = source_lines(source.text)
    exemptions = line_exemptions(lines, {positions[r.node].start.line for r in reports})
    kept, findings = [], []
    for report in reports:
        span = positions[report.node]
        row = span.start.line
        codes = exemptions.get(row)
        if codes is not None and (codes is True or report.rule.code in codes):
            continue
        kept.append(report)
        fix = None
        if report.fix is not None:
            edits = tuple(
                Edit(module.code_for_node(new), Location(positions[old].start.line, positions[old].start.column + 1),
                     Location(positions[old].end.line, positions[old].end.column + 1))
                for old, new in report.fix.replacements
            )
            fix = FixInfo(report.fix.applicability, report.fix.message, edits)
        findings.append(Finding(
            report.rule.code, report.rule.name, report.message, filename,
            Location(row, span.start.column + 1), Location(span.end.line, span.end.column + 1), fix,
            lines[row - 1] if row <= len(lines) else "", severity=report.rule.severity))
    findings.sort(key=lambda f: f.sort_key)
    return kept, findings
