"""What a lint rule is: one small class with its code, docs, examples and libcst-style visit methods.

A rule defines `visit_<Node>(self, node)` / `leave_<Node>(self, node)` for the libcst node types it cares about
(`visit_Call`, `leave_For`, ...). The engine calls them during its single traversal of the file, after updating the
shared analysis in `self.ctx` (see `shapecheck.engine.context.Context`). `finish()` runs once the whole file has been
seen, for rules that need facts from later in the file. A rule reports with `self.report(node, ...)`.
"""

from __future__ import annotations

import textwrap
from typing import ClassVar, Literal

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.expected_errors import expects_error
from shapecheck.engine.records import record
from shapecheck import urls
from shapecheck.findings import Applicability, Severity


@record(unsafe_hash=True)
class Fix:
    """A rewrite of the file that resolves a finding.

    `replacements` pairs nodes of the parsed module with the nodes to put in their place. `imports` lists import
    statements the new code needs (e.g. "import torch.nn.functional as F"); they are added once, after the file's
    other top-level imports, unless the file already has them.
    """

    message: str
    replacements: tuple[tuple[cst.CSTNode, cst.CSTNode], ...]
    applicability: Applicability = "safe"
    imports: tuple[str, ...] = ()


@record(slots=True, unsafe_hash=True)
class Report:
    rule: Rule
    node: cst.CSTNode
    message: str
    fix: Fix | None
    # The top-level statement the traversal was in (None from `finish`): where the node's position is looked up
    # first, so only that statement's code is generated to find it.
    statement: cst.CSTNode | None = None


@record(unsafe_hash=True)
class Invalid:
    """An INVALID example: `code` must produce exactly `count` findings of the rule; with `fixed`, applying the
    rule's fixes (unsafe ones included) must give exactly that source."""

    code: str
    fixed: str | None = None
    count: int = 1


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]  # the default finding message
    docs: ClassVar[str]  # markdown: "## What it does", "## Why is this bad?", "## Example", "## Use instead"
    # "error": the code crashes or silently corrupts results; "warning": deprecated, slow, fragile or unsafe, but
    # the result is right. SARIF's level, the github format's ::error / ::warning and JSON carry it; the exit
    # code does not depend on it (any finding is 1, as in ruff).
    severity: ClassVar[Severity] = "error"
    default: ClassVar[bool] = True  # on unless deselected; False: only with --select or config
    fixable: ClassVar[Applicability | None] = None
    # The file is analysed for this rule only if its text contains one of these: a cheap test that lets the engine
    # skip parsing files no enabled rule can fire on. Empty: always analysed.
    triggers: ClassVar[tuple[str, ...]] = ()
    # True: the rule also finds what a function or model of a first-party module the file imports does with the
    # file's values (reported at the call, "via ..."): the file is analysed for it also when such a module (or one
    # that module imports) holds a trigger (`loss = model.compute_loss(x, y)` in train.py, CrossEntropyLoss in
    # model.py).
    triggered_through_imports: ClassVar[bool] = False
    # What the rule's findings inside a top-level statement depend on. "statement": only on that statement and on
    # what the names in it are bound to at module level (through `ctx.binding`, `ctx.qualname`, `ctx.value_of`,
    # the shape analysis): the rule's visits keep no state of their own (but what it `gathered`, below) and read none
    # of the whole-file facts (`ctx.training`, `ctx.calls_to`, `ctx.calls`, `ctx.class_defs`; `ctx.functions` so
    # far, which the server records as it does the names looked up, may be read).
    # The editor server then runs its visits only in the statements an edit touched and in those that read what
    # they bind (`shapecheck.server.incremental`), and keeps their findings elsewhere. "file" (the default):
    # anything goes, and the rule runs over the whole file on every edit.
    scope: ClassVar[Literal["statement", "file"]] = "file"
    # A statement-scope rule whose findings also need the whole file gathers, while visiting, what its `finish`
    # decides them with: these name the list attributes its visits only append to (never read), with items made of
    # syntax and values only (nodes, strings, numbers, tuples, frozen dataclasses of them; nothing of the lint's
    # context, such as a binding or a point, which the next lint makes anew). What the visits of a top-level
    # statement append is that statement's part: the editor server keeps it with the statement's findings, so
    # only `finish` runs over the whole file on every edit.
    gathered: ClassVar[tuple[str, ...]] = ()
    # The analysis modules the rule reads only in files whose text holds one of the triggers, as (module, triggers)
    # pairs: the lint imports such a module before its traversal, which registers its recording analysis
    # (`PROJECT.record_with`), and the rule finds it in `sys.modules`, never importing it itself (an import during
    # the traversal would start a record that missed what came before). Elsewhere the module is neither imported nor
    # run, unless another rule or an earlier file of the process loaded it, and then it records as usual.
    reads: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    # What the rule finds raises at run time, so it is not reported where the code expects that error (under
    # `pytest.raises(...)` / `assertRaises(...)`, or in a `try` that catches it): a test of the error, not a bug.
    raises: ClassVar[bool] = False
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[Invalid | str]] = []

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def report(self, node: cst.CSTNode, message: str | None = None, fix: Fix | None = None) -> None:
        if self.raises and expects_error(self.ctx):
            return
        ancestors = self.ctx.ancestors
        statement = ancestors[1] if len(ancestors) > 1 else None  # ancestors[0] is the module
        self.ctx.reports.append(Report(self, node, message or self.message, fix, statement))

    def finish(self) -> None:
        """Called once after the traversal; decide what needed the whole file here."""

    @classmethod
    def load(cls) -> type[Rule]:
        """The class itself: a lint is given its rules as classes, or as `registry.RuleEntry`s that load theirs."""
        return cls

    # ---------------------------------------------------------------------------------------------- metadata

    @classmethod
    def valid_examples(cls) -> list[str]:
        return [textwrap.dedent(code).strip() + "\n" for code in cls.VALID]

    @classmethod
    def invalid_examples(cls) -> list[Invalid]:
        examples = []
        for example in cls.INVALID:
            if isinstance(example, str):
                example = Invalid(example)
            fixed = None if example.fixed is None else textwrap.dedent(example.fixed).strip() + "\n"
            examples.append(Invalid(textwrap.dedent(example.code).strip() + "\n", fixed, example.count))
        return examples

    @classmethod
    def documentation(cls) -> str:
        return textwrap.dedent(cls.docs).strip()

    @classmethod
    def url(cls) -> str | None:
        """The rule's page, docs/rules/SCxxx.md in the published repository (`shapecheck.rule_docs` writes it);
        None until there is one (see shapecheck/urls.py)."""
        return urls.rule_page(cls.code)
