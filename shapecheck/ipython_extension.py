"""`%load_ext shapecheck` in IPython and Jupyter: each cell is linted before it runs, and the functions and classes
cells define are checked at run time.

- **Linting.** Before a cell runs, it is linted with the cells run before it in the session as its context (a model
  bound in one cell is known in the next), as `shapecheck lint` lints a notebook, with the settings of the
  `pyproject.toml` above the working folder. Findings in the cell are printed on stderr with the cell's own lines,
  as warnings: the cell always runs. A cell with a syntax error is left to IPython to report.
- **Run-time checks.** Every function and class a cell defines gets `@shapecheck.check` added, as the import hook
  adds it to a package (`shapecheck.runtime.import_hook`), with an AST transformer as `%load_ext jaxtyping` adds
  its own: functions with tensor annotations and `nn.Module` classes are checked on every call, the others are left
  alone. This needs torch and jaxtyping (`pip install "torch-shapecheck[runtime]"`); without them, cells are only
  linted, and loading says so.

`%unload_ext shapecheck` takes both away again.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shapecheck.config import ConfigError, Resolver, rules_without
from shapecheck.engine.linter import WHOLE_FILE, lint_notebook
from shapecheck.engine.rule import Rule
from shapecheck.engine.context import Context
from shapecheck.engine.source import ParsedSource, parse_source, reparse
from shapecheck.engine.traversal import Traversal
from shapecheck.findings import SYNTAX_ERROR, Finding
from shapecheck.reporters import full
from shapecheck.runner import with_large_stack
from shapecheck.runtime.import_hook import DECORATOR, _AddDecorators

if TYPE_CHECKING:
    import libcst as cst

    from shapecheck.engine.compile_check import Verdict

_SESSIONS: dict[int, _Session] = {}  # id(shell) -> what loading installed there


def load_ipython_extension(shell: Any) -> None:
    if id(shell) in _SESSIONS:
        return
    session = _Session(shell)
    _SESSIONS[id(shell)] = session
    session.install()


def unload_ipython_extension(shell: Any) -> None:
    session = _SESSIONS.pop(id(shell), None)
    if session is not None:
        session.uninstall()


def _check(target: Any) -> Any:
    """What `@__shapecheck_check__` calls: imports the runtime (and torch) on the first definition only."""
    from shapecheck.runtime.decorator import Options, decorate

    return decorate(target, Options(), only_annotated=True)


class _Session:
    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.cells: list[str] = []  # the cells run so far: the context the next one is linted in
        self.filename = os.path.join(os.getcwd(), "ipython-session.ipynb")
        # The import hook's transformer, one of IPython's `ast_transformers`: adds `@__shapecheck_check__` to every
        # function and class a cell defines.
        self.transformer: _AddDecorators | None = None
        self._parsed: ParsedSource | None = None
        self._rules: tuple[type[Rule], ...] | None = None

    def install(self) -> None:
        self.shell.events.register("pre_run_cell", self.pre_run_cell)
        missing = [name for name in ("torch", "jaxtyping") if importlib.util.find_spec(name) is None]
        if missing:
            _warn(f"run-time checks are off: {' and '.join(missing)} not installed (pip install "
                  f"\"torch-shapecheck[runtime]\"); cells are still linted before they run")
            return
        self.transformer = _AddDecorators()
        self.shell.ast_transformers.append(self.transformer)

    def uninstall(self) -> None:
        self.shell.events.unregister("pre_run_cell", self.pre_run_cell)
        if self.transformer in self.shell.ast_transformers:
            self.shell.ast_transformers.remove(self.transformer)
        self.shell.user_ns.pop(DECORATOR, None)
        self.shell.user_ns_hidden.pop(DECORATOR, None)

    def pre_run_cell(self, info: Any) -> None:
        if self.transformer is not None:
            # Put back before every cell: `%reset` empties the namespace the decorator is looked up in.
            self.shell.user_ns[DECORATOR] = self.shell.user_ns_hidden[DECORATOR] = _check
        cell = info.raw_cell or ""
        try:
            findings = self.lint(cell)
        except Exception as error:  # noqa: BLE001 - linting must never keep a cell from running
            _warn(f"could not lint this cell: {type(error).__name__}: {error}")
            findings = []
        finally:
            self.cells.append(cell)
        if findings:
            # Printed below the cell itself, so "cell" names it (IPython 8 and 9 count executions differently).
            shown = [finding._replace(filename="cell", cell=None) for finding in findings]
            count = f"{len(shown)} finding{'s' if len(shown) > 1 else ''}"
            print(f"shapecheck: {count} in this cell (it runs anyway):\n\n{full.render(shown, False)}",
                  file=sys.stderr)

    def lint(self, cell: str) -> list[Finding]:
        """The findings in `cell`, linted after the cells run before it."""
        rules = self.rules()
        if not rules:
            return []
        cells = [*self.cells, cell]
        document = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                               "source": text} for text in cells],
                    "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
        limit = sys.getrecursionlimit()
        try:  # on the linter's thread with a large stack, as `shapecheck lint` runs libcst's parser
            result = with_large_stack(lint_notebook, json.dumps(document), self.filename, rules, None, self)
        finally:
            sys.setrecursionlimit(limit)  # the linter raises it for libcst; the user's code runs under their own
        return [finding for finding in result.findings if finding.cell == len(cells) and finding.code != SYNTAX_ERROR]

    def rules(self) -> tuple[type[Rule], ...]:
        """The rules the working folder's configuration enables (read once)."""
        if self._rules is None:
            try:
                config = Resolver(None).for_path(self.filename)
                self._rules = rules_without(config.enabled_rules(), config.ignored_codes(self.filename))
            except ConfigError as error:
                _warn(f"cells are not linted: {error}")
                self._rules = ()
        return self._rules

    # The session is the linter's `Analysis` of its growing source: each cell adds to the end of it, so only what
    # the cell adds is parsed again; the traversal is the whole file's.
    def parse(self, text: str) -> ParsedSource:
        self._parsed = parse_source(text) if self._parsed is None else reparse(self._parsed, text)
        return self._parsed

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None]) -> Verdict:
        return WHOLE_FILE.judge(text, filename, tree)  # never asked: cells are judged one by one

    def traverse(self, ctx: Context, visitors: list[object]) -> Traversal | None:
        return WHOLE_FILE.traverse(ctx, visitors)


def _warn(message: str) -> None:
    print(f"shapecheck: {message}", file=sys.stderr)

