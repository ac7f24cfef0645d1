"""Lint one file's source: decode, skip cheaply when nothing can fire, parse once, traverse once, report.

Positions are computed only for files that have findings, and only for the top-level statements that hold them
(`source.ParsedSource.positions`): for the whole module they cost several times the parse.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import io
import os
import re
import sys
import tokenize
import warnings
from collections.abc import Callable, Sequence
from functools import cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from shapecheck.engine import dependencies, walker
from shapecheck.engine.bindings import traverse
from shapecheck.engine.compile_check import Verdict, judge
from shapecheck.engine.traversal import Traversal
from shapecheck.engine.context import Context
from shapecheck.engine.file_options import FileOptions
from shapecheck.engine.fixer import apply_fixes
from shapecheck.engine.guard import TooComplex
from shapecheck.engine.noqa import file_exemption, invalid_rows, line_exemptions
from shapecheck.engine.registry import RuleSpec, all_rules, unimported
from shapecheck.engine.rule import Report, Rule
from shapecheck.engine.source import ParsedSource, parse_source
from shapecheck.engine.torch_code import TRAINING_LOOP_RULES, handed_training, implicit_torch_training, imports_torch
from shapecheck.findings import (ENGINE_CODES, INTERNAL_ERROR, SYNTAX_ERROR, UNUSED_NOQA, Edit, FileResult, Finding,
                                 FixInfo, Location)
from shapecheck.objects.project import PROJECT, first_party_texts, importers_through_packages, sibling_texts
from shapecheck.startup import loading

if TYPE_CHECKING:
    from shapecheck.notebook import Notebook

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


# A loop running a method of each of its callbacks (`for cb in self.callbacks:` then `cb.on_epoch_start(self)` or
# `getattr(cb, event)()`): what they do happens in the loop (`loops.callbacks`), so the modules beside the file that
# define them (`objects.project.sibling_files`) trigger the rules too.
_BACKWARD = re.compile(r"\.backward\(")
_DISPATCH = re.compile(r"for (\w+) in [\w.]+(?:\.values\(\))?:\s*(?:\1\.\w+\(|getattr\(\1,)")


# Compiled on first use: only a file that does not import torch asks.
@cache
def _held_step() -> re.Pattern[str]:
    return re.compile(r"\bself\.\w+\.step\(\)")


def applicable(rules: Sequence[RuleSpec], text: str, filename: str = "") -> list[type[Rule]]:
    """The rules that could fire on this text, imported: the file imports torch and contains one of the rule's
    triggers (or, for a rule `triggered_through_imports`, a first-party module it imports does); for torch training
    code without the import (see `shapecheck.engine.torch_code`) and for callbacks a torch trainer beside it runs,
    the training-loop rules, and for a helper that trains those triggered through imports; for a script that runs
    the project's torch modules without importing torch (`main.py` importing the model and the trainer), every rule,
    triggered by its text or those modules'; the unused-noqa check wherever a directive may name one of our
    codes."""
    noqa_check = [rule for rule in rules if rule.code == UNUSED_NOQA and _unused_noqa().has_directive(text)]
    rules = [rule for rule in rules if rule.code != UNUSED_NOQA]
    imported: list[str] = []  # the texts of the first-party modules the file imports, read when first needed
    glue = False  # a script running the project's torch modules without importing torch itself
    if not imports_torch(text):
        if implicit_torch_training(text) or _torch_callbacks(text, filename):
            # a training helper without the import (`def fit(model, loader, criterion, optimizer)`) is handed its
            # model and criterion by the modules importing it: the rules reading what those hand it run too
            handed = handed_training(text)
            rules = [rule for rule in rules
                     if rule.code.startswith(TRAINING_LOOP_RULES) or handed and rule.triggered_through_imports]
        elif filename and _runs_project_torch(text, filename):
            # `main.py` building the model, the loader and the trainer from the project's modules runs what fails
            # in them: every rule, its triggers looked for in those modules too
            glue = True
        else:
            return _loaded(noqa_check)

    def triggered(rule: RuleSpec) -> bool:
        if not rule.triggers or any(t in text for t in rule.triggers):
            return True
        if not (rule.triggered_through_imports or glue) or not filename:
            return False
        if not imported:
            imported.append("\n".join(first_party_texts(text, filename)))
            if _DISPATCH.search(text):
                imported.append("\n".join(sibling_texts(text, filename)))
            if _BACKWARD.search(text):
                # a training helper or trainer handed its criterion and model by the modules that import it, also
                # through a package's `__init__` re-exporting it (`from .train_utils import train_model`)
                found = importers_through_packages(filename, lambda _, text: True)
                imported.append("\n".join(text for _, text, _ in found or ()))
                # ... which build them with the project's modules they import (`criterion =
                # build_criterion(args.loss)` of losses.py, the model of models.py)
                imported.append("\n".join(text for path, importer, _ in found or ()
                                          for text in first_party_texts(importer, path)))
        return any(t in texts for texts in imported for t in rule.triggers)

    return _loaded([rule for rule in rules if triggered(rule)] + noqa_check, text)


def _runs_project_torch(text: str, filename: str) -> bool:
    """No `import torch`, yet a module of the project importing the project's torch code (`from model import Net`,
    `from trainer import Trainer`, through a package's `__init__` too): a script that runs it."""
    return "import" in text and imports_torch("\n".join(first_party_texts(text, filename)))


def _torch_callbacks(text: str, filename: str) -> bool:
    """No `import torch`, yet a module of callbacks stepping something they hold (`self._scheduler.step()`, not an
    environment's `env.step(action)`) that a torch trainer beside it runs on each of its callbacks."""
    return bool(filename) and _held_step().search(text) is not None and any(
        (imports_torch(other) or implicit_torch_training(other)) and _DISPATCH.search(other)
        for other in sibling_texts(text, filename))


def _loaded(rules: list[RuleSpec], text: str = "") -> list[type[Rule]]:
    # What a rule's import loads lives as long as the process (`shapecheck.startup`); `loading` also freezes what the
    # lint holds then, so only when there is something to import: a worker's later files are collected as usual.
    with loading() if any(unimported(rule) for rule in rules) else contextlib.nullcontext():
        loaded = [rule.load() for rule in rules]
    read = {module for rule in loaded for module, triggers in rule.reads if any(t in text for t in triggers)}
    if read - sys.modules.keys():
        with loading():
            for module in sorted(read - sys.modules.keys()):
                importlib.import_module(module)
    return loaded


def _unused_noqa() -> ModuleType:
    """`shapecheck.engine.unused_noqa`, loaded by the runs that enable SC900 (off by default) alone."""
    from shapecheck.engine import unused_noqa

    return unused_noqa


class Analysis(Protocol):
    """How a text is parsed and traversed: `WHOLE_FILE`, or the editor server's analysis of one document between
    edits (`shapecheck.server.incremental`), which re-parses and re-analyses only what an edit changed. Either
    way the findings are the same."""

    def parse(self, text: str) -> ParsedSource: ...

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None]) -> Verdict:
        """The running Python's verdict on `text`, exactly `engine.compile_check.judge`'s (`tree`: as there)."""

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal | None:
        """The finished traversal of `ctx.module` with `visitors` (the recording analyses, then the rules); None
        when this analysis cannot give exactly the whole-file traversal's findings this time, and the linter is
        to traverse the whole file on a fresh context instead."""


class WholeFile:
    def parse(self, text: str) -> ParsedSource:
        return parse_source(text)

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None]) -> Verdict:
        return judge(text, filename, tree)

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal:
        return traverse(ctx, visitors)


WHOLE_FILE = WholeFile()


def lint_text(text: str, filename: str, rules: Sequence[RuleSpec], fix: str | None = None,
              analysis: Analysis = WHOLE_FILE, options: FileOptions = FileOptions()
              ) -> FileResult:
    """Lint decoded source. With `fix` ("safe" or "unsafe"), apply fixes of that applicability until none apply
    and report what remains; the fixed text is in `result.new_source`. `analysis` parses and traverses it (the
    editor server passes one that re-analyses only what an edit changed). Source the running Python's compiler
    refuses is one SC000 finding and is never fixed (`engine.compile_check`). The fixes of codes in
    `options.unfixable` are neither applied nor reported. The other files the analysis read are in
    `result.dependencies`."""
    with dependencies.collecting() as read, warnings.catch_warnings():
        # What CPython's compiler warns of in the code linted (`1and`, "\d" in a plain string, `x is 1`) is the
        # user's, printed by each parse of the file and of the modules it reads: ruff and pyflakes print none of it.
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        result = _lint_source(text, filename, rules, fix, analysis, options, judged=False)
    return _with_dependencies(result, read, filename)


def _with_dependencies(result: FileResult, read: set[str], filename: str) -> FileResult:
    read.discard(os.path.abspath(filename))
    result.dependencies = sorted(read)
    return result


def _lint_source(text: str, filename: str, rules: Sequence[RuleSpec], fix: str | None,
                 analysis: Analysis, options: FileOptions, judged: bool,
                 certain: bool = True) -> FileResult:
    """`lint_text`; `judged`: the compiler has had its say already (a notebook's cells, each on its own), and
    `certain` says whether it gave a verdict."""
    unfixable = options.unfixable
    result = FileResult(filename, invalid_noqa=[str(row) for row in invalid_rows(text)])
    exempt = file_exemption(text)
    if exempt is True:
        return result
    rules = [rule for rule in rules if rule.code not in exempt]
    enabled = frozenset(rule.code for rule in rules)
    noqa_check = (enabled, options.external) if UNUSED_NOQA in enabled else None
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    if not judged:
        analysis = _ParsingOnce(analysis)  # the verdict may need libcst's tree; the first round then reuses it
        verdict = analysis.judge(text, filename, partial(_tree_or_none, analysis.parse, text))
        if verdict.error is not None:
            return _syntax_error(filename, text, verdict.error.message, verdict.error.row, verdict.error.column,
                                 result.invalid_noqa)
        result.warning = verdict.note
        certain = verdict.certain
    current = text
    # One round more than fix rounds: the findings must come from linting the text the last fix produced.
    for round_ in range(MAX_FIX_ROUNDS + 1):
        outcome = _lint_once(current, filename, applicable(rules, current, filename), analysis, certain, noqa_check)
        if isinstance(outcome, FileResult):  # syntax error or too deep: nothing else to do with this text
            outcome.fixed, outcome.fixes = result.fixed, result.fixes
            outcome.new_source = current if current != text else None
            outcome.invalid_noqa, outcome.warning = result.invalid_noqa, outcome.warning or result.warning
            return outcome
        module, reports, findings = outcome
        if fix is None or round_ == MAX_FIX_ROUNDS:
            break
        wanted = [r for r in reports if r.fix is not None and r.rule.code not in unfixable
                  and (fix == "unsafe" or r.fix.applicability == "safe")]
        if not wanted:
            break
        fixed_text, applied = apply_fixes(module, wanted)
        if current.endswith("\r") and not fixed_text.endswith(("\r", "\n")):
            fixed_text += "\r"  # libcst drops the last line end of a file whose lines end in a lone \r
        if not applied or fixed_text == current:
            break
        result.fixed += len(applied)
        for code in applied:
            result.fixes[code] = result.fixes.get(code, 0) + 1
        current = fixed_text
    result.findings = [f._replace(fix=None) if f.fix is not None and f.code in unfixable else f for f in findings]
    result.new_source = current if current != text else None
    return result


def lint_notebook(text: str, filename: str, rules: Sequence[RuleSpec], fix: str | None = None,
                  analysis: Analysis = WHOLE_FILE, options: FileOptions = FileOptions()
                  ) -> FileResult:
    """Lint a notebook's JSON text: its code cells as one module, findings placed by cell. A file that is not a
    notebook is one SC000 finding, as ruff reports it; a notebook whose kernel runs another language is skipped, as
    ruff skips it. With fixes, `result.new_source` is the notebook's new text."""
    with dependencies.collecting() as read:
        result = _lint_notebook(text, filename, rules, fix, analysis, options)
    return _with_dependencies(result, read, filename)


def _lint_notebook(text: str, filename: str, rules: Sequence[RuleSpec], fix: str | None,
                   analysis: Analysis, options: FileOptions) -> FileResult:
    from shapecheck.notebook import NotebookError, read_notebook  # a lint of Python files alone does without

    try:
        notebook = read_notebook(text)
    except NotebookError as error:
        start = Location(1, 1)
        return FileResult(filename, [Finding(SYNTAX_ERROR, "syntax-error", str(error), filename, start, start)])
    if not notebook.is_python:
        return FileResult(filename)
    notebook, broken, note, certain = _leave_out_broken_cells(notebook, filename)
    result = _lint_source(notebook.source, filename, rules, fix, analysis, options, judged=True, certain=certain)
    if result.new_source is not None:
        result.new_source = notebook.with_source(result.new_source)
        if result.new_source is None:  # a fix moved a cell boundary or a magic: report the notebook unfixed
            result = _lint_source(notebook.source, filename, rules, None, analysis, options, judged=True,
                                  certain=certain)
            result.warning = "fixes not applied: they could not be put back into the notebook's cells"
    result.warning = result.warning or note
    result.findings = sorted([*broken, *(_in_cell(notebook, finding) for finding in result.findings)],
                             key=lambda finding: finding.sort_key)
    result.invalid_noqa = ["cell {}:{}".format(*notebook.locate(int(row))) for row in result.invalid_noqa]
    return result


def _leave_out_broken_cells(notebook: Notebook, filename: str
                            ) -> tuple[Notebook, list[Finding], str | None, bool]:
    """Jupyter compiles each cell on its own, so a cell with a syntax error (an exercise's `loss = # TODO`) fails
    alone and the others run. Likewise here, as in ruff: each such cell is one SC000 (a bracket left open for the
    next cell breaks both) and the rest of the notebook is linted without them. Also returns the verdict's note
    where a cell was judged for a newer target Python than the running one, and whether every cell got a
    verdict."""
    broken, findings, note, certain = [], [], None, True
    for number, first_row, code in notebook.cell_codes():
        verdict = judge(code, filename, partial(_tree_or_none, parse_source, code), top_level_await=True)
        if verdict.error is not None:
            error = verdict.error
            [finding] = _syntax_error(filename, notebook.source, error.message, first_row + error.row - 1,
                                      error.column).findings
            findings.append(_in_cell(notebook, finding))
            broken.append(number)
        note, certain = note or verdict.note, certain and verdict.certain
    return (notebook.without(broken) if broken else notebook), findings, note, certain


def _in_cell(notebook: Notebook, finding: Finding) -> Finding:
    def in_cell(location: Location) -> Location:
        return Location(*notebook.in_cell(location.row, location.column)[1:])

    fix = finding.fix
    if fix is not None:
        fix = fix._replace(edits=tuple(edit._replace(location=in_cell(edit.location),
                                                     end_location=in_cell(edit.end_location)) for edit in fix.edits))
    start, end = finding.location, finding.end_location
    return finding._replace(location=in_cell(start), end_location=in_cell(end), fix=fix,
                            cell=notebook.locate(start.row)[0], source_line=notebook.cell_line(start.row),
                            file_location=Location(*notebook.file_position(start.row, start.column)),
                            file_end_location=Location(*notebook.file_position(end.row, end.column)))


NoqaCheck = tuple[frozenset[str], tuple[str, ...]]  # the unused-noqa check's: the enabled codes, `external`


def _lint_once(text: str, filename: str, rules: Sequence[type[Rule]], analysis: Analysis,
               judged: bool, noqa_check: NoqaCheck | None = None):
    # The compiler has judged the text already (`judged`): then a file no rule can fire on is not parsed at all.
    # Where it gave up, libcst's parser and its guard have the last word.
    if not rules and judged:
        return None, [], []
    try:
        source = analysis.parse(text)  # guarded: see `engine.guard`
    except TooComplex as reason:
        return FileResult(filename, error=f"too complex to analyse: {reason}")
    except cst.ParserSyntaxError as error:  # Python reads it, libcst does not
        return _syntax_error(filename, text, error.message, error.raw_line, error.raw_column + 1)
    except SyntaxError as error:  # the guard's limit on nested brackets
        return _syntax_error(filename, text, error.msg, error.lineno or 1, error.offset or 1)
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to parse")
    module = source.module
    if not rules:
        return module, [], []
    outcome = _in_context(source, filename, text, rules, analysis, noqa_check)
    if outcome is None:  # the analysis could not be exact this time: the whole file, on a fresh context
        outcome = _in_context(source, filename, text, rules, WHOLE_FILE, noqa_check)
    return outcome


def _in_context(source: ParsedSource, filename: str, text: str, rules: Sequence[type[Rule]], analysis: Analysis,
                noqa_check: NoqaCheck | None):
    ctx = Context(source.module, filename, implicit_torch=not imports_torch(text))
    try:
        with walker.caching():
            return _analyse(ctx, source, filename, text, rules, analysis, noqa_check)
    finally:
        ctx.release()


def _analyse(ctx: Context, source: ParsedSource, filename: str, text: str, rules: Sequence[type[Rule]],
             analysis: Analysis, noqa_check: NoqaCheck | None):
    module = source.module
    # The recording analyses see each node before the rules do, so a rule's `visit_*` finds them up to date. Only
    # those some imported module reads are registered (`PROJECT.recorders`), and the rules were imported above.
    recorders = [ctx.analysis(kind) for kind in PROJECT.recorders]
    try:
        traversal = analysis.traverse(ctx, [*recorders, *(rule(ctx) for rule in rules)])
        if traversal is None:
            return None
    except RecursionError:
        return FileResult(filename, error="is nested too deeply to analyse")
    if not ctx.imports_torch:
        return module, [], []
    # A finding a noqa comment silences is not fixed either, as in ruff: the comment says "leave this line alone".
    reports, findings, suppressed = _findings(source, filename, ctx.reports, ctx.code)
    checker = next((rule for rule in rules if rule.code == UNUSED_NOQA), None)
    if checker is not None and noqa_check is not None:
        known = frozenset(rule.code for rule in all_rules()) | ENGINE_CODES.keys()
        extra = _unused_noqa().reports(source, checker(ctx), suppressed, noqa_check[0], known, noqa_check[1])
        extra_reports, extra_findings, _ = _findings(source, filename, extra, ctx.code)
        reports += extra_reports
        findings = sorted(findings + extra_findings, key=lambda f: f.sort_key)
    lines = source.lines
    crashes = [(_visitor_title(crash.visitor), str(crash)) for crash in traversal.crashes]
    for analysis in ctx.analyses():
        # an analysis that crashed answered "unknown" there, so the rules went on; the crash is still a bug
        errors = getattr(analysis, "errors", None)
        if errors:
            crashes.append((f"the {analysis.title}", f"{type(errors[0]).__name__}: {errors[0]}"))
    for title, crash in crashes:
        findings.append(Finding(
            INTERNAL_ERROR, "internal-error", f"{title} crashed on this file: {crash}; please report it", filename,
            Location(1, 1), Location(1, 1), source_line=lines[0].rstrip("\r\n") if lines else ""))
    return module, reports, findings


def _visitor_title(visitor: object) -> str:
    if isinstance(visitor, Rule):
        return f"rule {visitor.code} ({visitor.name})"
    return f"the {getattr(visitor, 'title', type(visitor).__name__)}"


class _ParsingOnce:
    """`analysis`, remembering its last parse, so the same text is never parsed twice."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.last: ParsedSource | None = None

    def parse(self, text: str) -> ParsedSource:
        if self.last is None or self.last.text is not text and self.last.text != text:
            self.last = self.analysis.parse(text)
        return self.last

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None]) -> Verdict:
        return self.analysis.judge(text, filename, tree)

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal | None:
        return self.analysis.traverse(ctx, visitors)


def _tree_or_none(parse: Callable[[str], ParsedSource], text: str) -> cst.Module | None:
    try:
        return parse(text).module
    except (TooComplex, cst.ParserSyntaxError, SyntaxError, RecursionError):
        return None


def source_lines(text: str) -> list[str]:
    """The lines as the parser numbers them: ended by \\n, \\r\\n or \\r only, where str.splitlines() also ends
    them at form feeds, \\x0b, \\x1c-\\x1e, \\x85 and U+2028/9, which Python allows inside a line."""
    lines = _LINE_END.split(text)
    if lines[-1] == "":  # the end of the last line, not a line
        lines.pop()
    return lines


def _syntax_error(filename: str, text: str, message: str, row: int, column: int,
                  invalid_noqa: list[str] | None = None) -> FileResult:
    lines = source_lines(text)
    line = lines[row - 1] if 0 < row <= len(lines) else ""
    location = Location(row, column)
    return FileResult(filename, [Finding(SYNTAX_ERROR, "syntax-error", f"SyntaxError: {message}", filename,
                                         location, location, source_line=line)], invalid_noqa=invalid_noqa or [])




def _findings(source: ParsedSource, filename: str, reports: Sequence[Report], code: Callable[[cst.CSTNode], str]
              ) -> tuple[list[Report], list[Finding], set[tuple[int, str]]]:
    """The reports `# noqa` leaves, and their findings: fixes are only ever made for these; and the (row, code) of
    each finding a directive silenced. `code` spells a fix's new nodes (`Context.code`, which the editor server
    keeps between lints for the fixes of the findings it keeps)."""
    if not reports:
        return [], [], set()
    nodes = [report.node for report in reports]
    nodes += [old for report in reports if report.fix is not None for old, _ in report.fix.replacements]
    positions = source.positions(nodes, near=[report.statement for report in reports])
    lines = [line.rstrip("\r\n") for line in source.lines]  # `source_lines(source.text)`: one end per line
    exemptions = line_exemptions(lines, {positions[r.node].start.line for r in reports})
    kept, findings, suppressed = [], [], set()
    reported: set[tuple[str, int]] = set()
    for report in reports:
        if (report.rule.code, id(report.node)) in reported:
            continue  # two calls whose runs fail at one operation: the first one's finding
        reported.add((report.rule.code, id(report.node)))
        span = positions[report.node]
        row = span.start.line
        codes = exemptions.get(row)
        if codes is not None and (codes is True or report.rule.code in codes):
            suppressed.add((row, report.rule.code))
            continue
        kept.append(report)
        fix = None
        if report.fix is not None:
            edits = tuple(
                Edit("" if isinstance(new, cst.RemovalSentinel) else code(new), Location(positions[old].start.line, positions[old].start.column + 1),
                     Location(positions[old].end.line, positions[old].end.column + 1))
                for old, new in report.fix.replacements
            )
            fix = FixInfo(report.fix.applicability, report.fix.message, edits)
        findings.append(Finding(
            report.rule.code, report.rule.name, report.message, filename,
            Location(row, span.start.column + 1), Location(span.end.line, span.end.column + 1), fix,
            lines[row - 1] if row <= len(lines) else "", severity=report.rule.severity))
    findings.sort(key=lambda f: f.sort_key)
    return kept, findings, suppressed
