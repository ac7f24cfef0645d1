"""The running Python's compiler's verdict on a source text: SC000 is what CPython says, before any rule or fix.

libcst reads more than CPython accepts (`b"é"`, `"\\N{NOT A NAME}"`, `return` outside a function, syntax of a newer
Python), so a file libcst parses may still be one Python refuses to run; such a file is an SC000 and never fixed.
The whole compiler judges, not only the parser: its later passes refuse code too (`nonlocal` at module level, a
misplaced `from __future__` import), and a full compile costs less than `ast.parse` (no Python objects are built
for the tree), about a tenth of libcst's parse.

Positions come from the text itself. Given a file name, CPython reads the offending line back from that file when
one exists and counts the column against it, so a notebook (whose file is JSON), standard input named with
`--stdin-filename` and an editor's unsaved buffer would get the column of whatever is on disk. So the text is
compiled under a name no file system can open.

A project may declare a newer Python than the one running (`requires-python = ">=3.12"`, or `target-version`):
then syntax newer than the running Python is judged as that version would judge it (`engine.newer_syntax`), the
way ruff lints for its target version.
"""

from __future__ import annotations

import ast
import sys
import warnings
from collections.abc import Callable

import libcst as cst

from shapecheck.engine.python_target import Target, declared_target
from shapecheck.engine.records import record

# One path component longer than any file system allows (255 bytes), so opening it always fails.
_UNOPENABLE = "<" + "source text " * 24 + ">"
# The compiler recurses on the C stack as deep as the recursion limit allows (three frames a level), and the linter
# raises that limit for libcst: under it a 100,000-term chain overflows an ordinary 8 MiB stack. So it compiles
# under the limit `python file.py` compiles under.
_PYTHON_RECURSION_LIMIT = 1000


class NoVerdict(Exception):
    """The compiler gave up without saying whether the text is Python: too deep to compile under Python's default
    recursion limit, or too large. The linter's own guard answers for such a text."""


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(unsafe_hash=True)
class CompileError:
    message: str
    row: int  # 1-based, as CPython counts lines
    column: int  # 1-based, in characters of the text's own line


@record(unsafe_hash=True)
class Verdict:
    error: CompileError | None  # what to report as SC000; None: the text is Python for its target
    newer: Target | None = None  # the declared target the text was judged for, where the running Python refuses it
    certain: bool = True  # False: the compiler gave up (NoVerdict); libcst and the guard must decide

    @property
    def note(self) -> str | None:
        """What to tell the user about a text accepted for a newer target than the running Python."""
        if self.newer is None:
            return None
        from shapecheck.engine.newer_syntax import running_version, version_text

        return (f"judged as Python {version_text(self.newer.version)} code ({self.newer.origin}): the running "
                f"Python {version_text(running_version())} cannot compile it")


def compile_error(text: str, top_level_await: bool = False, future: int = 0) -> CompileError | None:
    """CPython's syntax error in `text`, None if it compiles; NoVerdict where the compiler gives up (see there).
    `top_level_await`: as IPython compiles a cell; `future`: the `__future__` features' compiler flags in force (a
    part of a module compiled alone, under the module's future imports)."""
    flags = (ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if top_level_await else 0) | future
    limit = sys.getrecursionlimit()
    try:
        with warnings.catch_warnings():  # invalid escape sequences and the like are not ours to report
            warnings.simplefilter("ignore")
            if limit > _PYTHON_RECURSION_LIMIT:
                sys.setrecursionlimit(_PYTHON_RECURSION_LIMIT)
            compile(text, _UNOPENABLE, "exec", flags, dont_inherit=True)
    except SyntaxError as error:
        return CompileError(error.msg, max(error.lineno or 1, 1), max(error.offset or 1, 1))
    except ValueError as error:  # NUL bytes: no Python compiles them
        return CompileError(str(error), 1, 1)
    except (RecursionError, MemoryError, OverflowError) as error:
        raise NoVerdict(type(error).__name__) from None
    finally:
        sys.setrecursionlimit(limit)
    return None


def compiles(text: str) -> bool:
    """Whether the running Python compiles `text` (False where it gives up)."""
    try:
        return compile_error(text) is None
    except NoVerdict:
        return False


def judge(text: str, filename: str, tree: Callable[[], cst.Module | None], top_level_await: bool = False
          ) -> Verdict:
    """The verdict on `text` from `filename`: CPython's error, unless the project around the file declares a newer
    Python than the running one and the error is that Python's newer syntax. `tree()` gives the text parsed by
    libcst (None where libcst cannot parse it); it is asked only when the running Python refuses the text."""
    try:
        error = compile_error(text, top_level_await)
    except NoVerdict:
        return Verdict(None, certain=False)
    if error is None:
        return Verdict(None)
    # Only a text the running Python refuses is judged for newer syntax: most files never load its tables.
    from shapecheck.engine.newer_syntax import older_spelling, running_version, version_text

    target = declared_target(filename)
    if target is None or target.version <= running_version():
        return Verdict(error)
    module = tree()
    if module is None:
        return Verdict(error)
    older = older_spelling(module, target.version)
    if older.too_new is not None:
        feature = older.too_new
        return Verdict(CompileError(f"{feature.name} need Python {version_text(feature.version)}, newer than the "
                                    f"target Python {version_text(target.version)} ({target.origin})",
                                    *older.position(feature)))
    if older.code is None:  # nothing newer than the running Python: the error is one every Python reports
        return Verdict(error)
    try:
        rest = compile_error(older.code, top_level_await)
    except NoVerdict:
        return Verdict(None, target, certain=False)
    return Verdict(rest) if rest is not None else Verdict(None, target)

