"""The compiler's verdict on an edited document (`engine.compile_check`), compiling only the statements an edit
replaced.

`shapecheck lint` compiles the whole text: on a 2,000-line file about 30 ms, a fifth of what an edit costs the
server. Between edits most top-level statements are the very nodes of the text before (`engine.source.reparse`
keeps them), and a text whose top-level statements each compile on their own compiles whole, but for what ties
them together in the module's scope: `from __future__` imports, which must come first and change how the rest is
compiled, and `global` declarations at module level, which must come before the name's uses. So once a text of the
document has compiled (for the running Python), the statements the next edit replaced are compiled alone, under
that text's future imports; if each compiles, the whole text would have. Everything else is judged whole, as
`shapecheck lint` judges it: the first text, one after a text that did not compile or compiled only for a newer
target, a text with a `global` statement anywhere, an edit at or before a future import or one that writes
`__future__`, a replaced statement that does not compile alone (the whole text says where CPython reports the error,
which may be in another statement), a parse whose statements' lines are not known.
"""

from __future__ import annotations

import __future__ as future_features
import re
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from shapecheck.engine.compile_check import NoVerdict, Verdict, compile_error, judge
from shapecheck.engine.source import ParsedSource

# A `global` statement, or a docstring line that reads like one (then the text is judged whole: no harm).
_GLOBAL = re.compile(r"(?:^|;)[ \t]*global\b", re.M)


@dataclass(frozen=True)
class _Compiled:
    """The latest text that compiled: its statements (held, so no new node can take one's id), their ids, the
    compiler flags of its future imports and the index of the last of them (-1: none)."""

    filename: str
    statements: tuple[cst.BaseStatement, ...]
    ids: frozenset[int]
    future: int
    last_future: int


class DocumentVerdicts:
    """The verdicts on the successive texts of one document."""

    def __init__(self) -> None:
        self._compiled: _Compiled | None = None
        self.partial = False  # whether the latest verdict compiled only the replaced statements

    def judge(self, text: str, filename: str, tree: Callable[[], cst.Module | None],
              parsed: Callable[[], ParsedSource | None]) -> Verdict:
        """`engine.compile_check.judge(text, filename, tree)`; `parsed()` is the parse `tree()` made."""
        verdict = self._from_the_replaced(text, filename, tree, parsed)
        self.partial = verdict is not None
        if verdict is None:
            verdict = judge(text, filename, tree)
        self._compiled = None
        if verdict.error is None and verdict.newer is None and verdict.certain:
            module = tree()
            if module is not None:
                self._compiled = _compiled(filename, module)
        return verdict

    def _from_the_replaced(self, text: str, filename: str, tree: Callable[[], cst.Module | None],
                           parsed: Callable[[], ParsedSource | None]) -> Verdict | None:
        before = self._compiled
        if before is None or before.filename != filename or _GLOBAL.search(text):
            return None
        module = tree()
        source = parsed()
        if module is None or source is None or source.module is not module:
            return None
        starts = source.starts_if_known
        if starts is None or len(starts) != len(module.body):
            return None
        ends = [*starts[1:], len(source.lines)]
        for k, statement in enumerate(module.body):
            if id(statement) in before.ids:
                continue
            code = "".join(source.lines[starts[k]:ends[k]])
            if k <= before.last_future or "__future__" in code:
                return None
            try:
                if compile_error(code, future=before.future) is not None:
                    return None
            except NoVerdict:
                return None
        return Verdict(None)


def _compiled(filename: str, module: cst.Module) -> _Compiled:
    future, last = 0, -1
    for k, statement in enumerate(module.body):
        for small in getattr(statement, "body", ()) if isinstance(statement, cst.SimpleStatementLine) else ():
            if (isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name)
                    and small.module.value == "__future__" and not isinstance(small.names, cst.ImportStar)):
                last = k
                for alias in small.names:
                    feature = getattr(future_features, alias.evaluated_name, None)
                    future |= getattr(feature, "compiler_flag", 0)
    statements = tuple(module.body)
    return _Compiled(filename, statements, frozenset(map(id, statements)), future, last)
