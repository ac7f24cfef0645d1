"""The engine's shared analysis, seen through a probe rule that records what the context says at chosen nodes."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import ClassVar

import libcst as cst
import pytest

from shapecheck.engine import Fix, Rule, flow, registry, walker
from shapecheck.engine.context import Context
from shapecheck.engine.linter import MAX_FIX_ROUNDS, applicable, lint_text
from shapecheck.engine.bindings import traverse
from shapecheck.engine.walker import walk


class Probe(Rule):
    """Records the context at every call of `probe(expr)`."""

    code = "SC990"
    name = "probe"
    message = "probe"
    seen: ClassVar[list[dict]] = []

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is cst.Name and node.func.value == "probe":
            expr = node.args[0].value if node.args else None
            binding = self.ctx.binding(expr) if expr is not None else None
            value, _ = self.ctx.value_of(expr) if expr is not None else (None, None)
            self.seen.append({
                "qualname": self.ctx.qualname(expr) if expr is not None else None,
                "binding": binding,
                "value": self.ctx.code(value) if value is not None else None,
                "framework": self.ctx.framework_of(expr) if expr is not None else None,
                "grad_disabled": self.ctx.grad_disabled,
                "grad_enabled": self.ctx.grad_enabled_explicitly,
                "loops": len(self.ctx.loops),
                "function": self.ctx.function.name.value if self.ctx.function else None,
                "class": self.ctx.class_def.name.value if self.ctx.class_def else None,
            })


def run_probe(source: str) -> list[dict]:
    Probe.seen = []
    module = cst.parse_module(textwrap.dedent(source))
    ctx = Context(module, "probe.py")
    traverse(ctx, [Probe(ctx)])
    return Probe.seen


@pytest.mark.parametrize(("source", "expected"), [
    ("import torch as th\nprobe(th.cat)", "torch.cat"),
    ("from torch import nn\nprobe(nn.functional.softmax)", "torch.nn.functional.softmax"),
    ("import torch.nn.functional as F\nprobe(F.softmax)", "torch.nn.functional.softmax"),
    ("from torch.nn.functional import softmax\nprobe(softmax)", "torch.nn.functional.softmax"),
    ("import torch.nn.functional\nprobe(torch.nn.functional.softmax)", "torch.nn.functional.softmax"),
    ("import numpy as np\nprobe(np.concatenate)", "numpy.concatenate"),
    ("import torch\ntorch = object()\nprobe(torch.cat)", None),  # rebinding kills the import
    ("probe(undefined.cat)", None),
    ("import torch\ndef f(torch):\n    probe(torch.cat)", None),  # a parameter shadows the module
    ("def f():\n    import torch.nn.functional as F\n    probe(F.relu)", "torch.nn.functional.relu"),
])
def test_import_aliases_resolve_to_dotted_names(source: str, expected: str | None) -> None:
    assert run_probe(source)[0]["qualname"] == expected


@pytest.mark.parametrize(("source", "expected"), [
    ("opt_g, opt_d = Adam(G.parameters()), Adam(D.parameters())\nprobe(opt_d)", "Adam(D.parameters())"),
    ("[a, b] = [f(1), f(2)]\nprobe(a)", "f(1)"),
    ("a, b = 1, 2\na, b = b, a\nprobe(a)", "2"),  # a swap reads the old values
    ("class T:\n    def __init__(self):\n        self.g, self.d = Adam(G), Adam(D)\n"
     "    def m(self):\n        probe(self.d)", "Adam(D)"),
    ("a, b = make()\nprobe(b)", "b"),              # not a literal tuple: what `make()` returns is not known here
    ("a, *b = f(1), f(2), f(3)\nprobe(a)", "a"),     # a starred target
    ("a, b = *xs, f(2)\nprobe(a)", "a"),            # a starred value
    ("a, b = f(1), f(2), f(3)\nprobe(a)", "a"),     # lengths differ: it raises
])
def test_an_unpacking_of_a_literal_tuple_binds_each_name_to_its_element(source: str, expected: str) -> None:
    assert run_probe(source)[0]["value"] == expected


def test_latest_binding_wins_and_reassignment_kills() -> None:
    seen = run_probe("""
        import torch
        def f(x):
            y = x.transpose(1, 2)
            probe(y)
            y = y.contiguous()
            probe(y)
            y += 1
            probe(y)
    """)
    assert [s["value"] for s in seen] == ["x.transpose(1, 2)", "y.contiguous()", "y"]
    assert [s["binding"].kind for s in seen] == ["assign", "assign", "aug"]


def test_unpacking_records_position_and_star() -> None:
    seen = run_probe("""
        def f(x):
            B, *rest, C = x.shape
            probe(B)
            probe(rest)
            probe(C)
    """)
    assert [(s["binding"].kind, s["binding"].index, s["binding"].starred) for s in seen] == [
        ("unpack", 0, False), ("unpack", 1, True), ("unpack", 2, False)]
    assert seen[0]["binding"].value is seen[2]["binding"].value


def test_self_attributes_bind_within_their_class() -> None:
    seen = run_probe("""
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                self.act = nn.LogSoftmax(dim=-1)
            def forward(self, x):
                probe(self.act)
        class Other:
            def forward(self, x):
                probe(self.act)
    """)
    assert seen[0]["value"] == "nn.LogSoftmax(dim=-1)"
    assert seen[1]["binding"] is None


def test_class_body_names_are_not_visible_in_methods() -> None:
    seen = run_probe("""
        x = 1
        class A:
            x = 2
            def f(self):
                probe(x)
    """)
    assert seen[0]["value"] == "1"


def test_comprehension_targets_are_bound_before_the_element() -> None:
    seen = run_probe("[probe(t) for t in ts]")
    assert seen[0]["binding"].kind == "comp"
    assert seen[0]["value"] == "t"  # a comprehension target has no single value to follow


_SHIM = """import contextlib
import torch
def no_grad_ctx():
    if float(torch.__version__[0:3]) >= 0.4:
        return torch.no_grad()
    return contextlib.suppress()
with no_grad_ctx():
    probe(x)
"""


@pytest.mark.parametrize(("source", "disabled", "enabled"), [
    ("import torch\nwith torch.no_grad():\n    probe(x)", True, False),
    ("import torch\nwith torch.inference_mode():\n    probe(x)", True, False),
    ("import torch\nwith torch.inference_mode(False):\n    probe(x)", False, True),
    ("import torch\nwith torch.set_grad_enabled(False):\n    probe(x)", True, False),
    ("import torch\nwith torch.set_grad_enabled(training):\n    probe(x)", False, False),
    ("import torch\nwith torch.no_grad():\n    with torch.enable_grad():\n        probe(x)", False, True),
    ("import torch\nwith torch.no_grad(), open(f) as g:\n    probe(x)", True, False),
    ("import torch\nwith torch.no_grad():\n    with open(f):\n        probe(x)", True, False),
    ("import torch\n@torch.no_grad()\ndef step():\n    probe(x)", True, False),
    ("import torch\n@torch.inference_mode\ndef step():\n    probe(x)", True, False),
    ("import torch\nwith torch.no_grad():\n    def later():\n        probe(x)", False, False),
    ("import contextlib\nwith contextlib.nullcontext():\n    probe(x)", False, False),
    ("from torch import no_grad\nwith no_grad():\n    probe(x)", True, False),
    # switched off for the process by a statement of the module, never back on: its top level, not its functions
    ("import torch\ntorch.set_grad_enabled(False)\nprobe(x)", True, False),
    ("import torch\ntorch.set_grad_enabled(False)\ndef f():\n    probe(x)", False, False),
    ("import torch\ntorch.set_grad_enabled(False)\nprobe(x)\ntorch.set_grad_enabled(True)", False, False),
    ("import torch\ntorch.set_grad_enabled(args.train)\nprobe(x)", False, False),
    ("import torch\nif frozen:\n    torch.set_grad_enabled(False)\nprobe(x)", False, False),
    # a version shim of the file: no_grad where the running torch has it, else a manager that does nothing
    (_SHIM, True, False),
    # ... but not one an argument chooses, one that may enable grad, or a method of the same name
    (_SHIM.replace("def no_grad_ctx():", "def no_grad_ctx(train=False):"), False, False),
    (_SHIM.replace("contextlib.suppress()", "torch.enable_grad()"), False, False),
    (_SHIM.replace("def no_grad_ctx():", "class C:\n  def no_grad_ctx(self):"), False, False),
])
def test_grad_mode(source: str, disabled: bool, enabled: bool) -> None:
    seen = run_probe(source)[0]
    assert (seen["grad_disabled"], seen["grad_enabled"]) == (disabled, enabled)


def test_loops_functions_and_classes_enclose() -> None:
    seen = run_probe("""
        for epoch in range(3):
            while True:
                probe(x)
        class M:
            def f(self):
                for b in data:
                    probe(b)
                    def inner():
                        probe(b)
    """)
    assert [(s["loops"], s["function"], s["class"]) for s in seen] == [
        (2, None, None), (1, "f", "M"), (0, "inner", "M")]
    assert seen[1]["binding"].kind == "for" and seen[1]["value"] == "b"


def test_a_loops_else_runs_after_the_loop_not_in_it() -> None:
    seen = run_probe("""
        for epoch in range(3):
            for x in loader:
                probe(x)
            else:
                probe(epoch)
            while busy:
                pass
            else:
                if done:
                    probe(epoch)
                else:
                    probe(x)
    """)
    assert [s["loops"] for s in seen] == [2, 1, 1, 1]


def test_framework_of_follows_chains_and_names() -> None:
    seen = run_probe("""
        import numpy as np
        import torch
        a = np.random.randn(3, 4)
        b = torch.randn(3)
        probe(a.T.reshape(-1))
        probe(b.view(-1))
        probe(unknown.view(-1))
    """)
    assert [s["framework"] for s in seen] == ["numpy", "torch", None]


def test_call_sites_record_grad_mode_and_loop() -> None:
    source = textwrap.dedent("""
        import torch
        def update(p):
            pass
        for p in params:
            with torch.no_grad():
                update(p)
        self.update(q)
    """)
    module = cst.parse_module(source)
    ctx = Context(module, "x.py")
    traverse(ctx, [])
    sites = ctx.calls_to("update")
    assert [(s.grad_disabled, s.loop is not None) for s in sites] == [(True, True), (False, False)]
    assert [f.name.value for f in ctx.functions["update"]] == ["update"]


def test_calls_of_a_redefined_function_are_those_it_is_bound_at() -> None:
    # A notebook redefines `validate`: each module-level call runs the definition above it; a call inside a
    # function runs whichever is bound when the function runs, so it counts for both.
    source = textwrap.dedent("""
        def validate(model):
            pass
        validate(a)
        def later():
            validate(c)
        def validate(model):
            pass
        validate(b)
        obj.validate(d)
    """)
    module = cst.parse_module(source)
    ctx = Context(module, "x.py")
    traverse(ctx, [])
    first, second = ctx.functions["validate"]
    assert [ctx.code(s.node) for s in ctx.calls_of(first)] == ["validate(a)", "validate(c)", "obj.validate(d)"]
    assert [ctx.code(s.node) for s in ctx.calls_of(second)] == ["validate(c)", "validate(b)", "obj.validate(d)"]


def test_spelling_uses_the_files_imports() -> None:
    module = cst.parse_module("import torch\nimport torch.nn.functional as F\n")
    ctx = Context(module, "x.py")
    traverse(ctx, [])
    assert ctx.spelling("torch.nn.functional.log_softmax") == "F.log_softmax"
    assert ctx.spelling("torch.log_softmax") == "torch.log_softmax"
    assert ctx.spelling("numpy.log") is None


def test_walker_sees_every_node_libcst_sees_except_tokens() -> None:
    source = textwrap.dedent("""
        import torch, os as o
        from torch.nn import functional as F
        @decorator(arg)
        async def f(a, /, b: int = 1, *args, c, **kw) -> list[int]:
            global g
            x = [y async for y in z if y] + {k: v for k, v in d.items()}
            async with a as (b, c):
                yield from (lambda q=1: q)(x)
            try:
                del x[1:2, ...]
            except* ValueError as e:
                raise e from None
            match x:
                case [1, *rest] | {"k": _}:
                    print(f"{x!r:>{width}}", *args, **kw)
            return x if x else not x
    """)
    module = cst.parse_module(source)
    tokens = (cst.BaseParenthesizableWhitespace, cst.SimpleWhitespace, cst.Newline, cst.EmptyLine,
              cst.TrailingWhitespace, cst.Comment, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket,
              cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Comma, cst.Semicolon,
              cst.Colon, cst.Dot, cst.AssignEqual, cst.ImportStar, cst.Asynchronous, cst.BitOr,
              cst.BaseBinaryOp, cst.BaseUnaryOp, cst.BaseCompOp, cst.BaseBooleanOp, cst.BaseAugOp)

    class Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            self.seen: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, tokens):
                return False
            self.seen.append(node)
            return True

    collector = Collect()
    module.visit(collector)
    assert {id(n) for n in walk(module)} == {id(n) for n in collector.seen}
    uncached = [id(n) for n in walk(module)]
    with walker.caching():  # remembered children: the same nodes in the same order, the first walk and again
        assert [id(n) for n in walk(module)] == uncached
        assert [id(n) for n in walk(module)] == uncached
    # the statements alone: the same statements in the same order, whatever expression or line they sit next to
    statements = (cst.If, cst.While, cst.For, cst.With, cst.Try, cst.TryStar, cst.Match, cst.FunctionDef,
                  cst.ClassDef, cst.SimpleStatementLine)
    assert [n for n in walker.walk_statements(module) if isinstance(n, statements)] == \
        [n for n in walk(module) if isinstance(n, statements)]
    with walker.caching():  # a walk is remembered by its pruning too: the statements' walk is not the whole one
        assert [n for n in walk(module)] == [n for n in walk(module)]
        assert [n for n in walker.walk_statements(module) if isinstance(n, statements)] == \
            [n for n in walk(module) if isinstance(n, statements)]
        assert len(list(walker.walk_statements(module))) < len(list(walk(module)))


def test_a_walk_is_made_once_while_a_file_is_analysed(monkeypatch) -> None:
    module = cst.parse_module("def f(x):\n    return [y * 2 for y in x]\n")
    walks: list[cst.CSTNode] = []
    walked = walker._walked
    monkeypatch.setattr(walker, "_walked", lambda node, *pruning: walks.append(node) or walked(node, *pruning))
    with walker.caching():
        first, again = list(walk(module)), list(walk(module))
    after = list(walk(module))  # the analysis over: walked afresh
    assert first == again == after
    assert walks == [module, module]


def test_a_walk_takes_a_subtree_walked_before_whole() -> None:
    module = cst.parse_module("class C:\n    def f(self, x):\n        return [y * 2 for y in x] + g(lambda z: z)\n")
    function = module.body[0].body.body[0]
    whole, pruned = [id(n) for n in walk(module)], [id(n) for n in walker.walk_statements(module)]

    class Asked(dict):
        """The children cache, noting the nodes whose children are looked up."""

        asked: set[int] = set()

        def get(self, key, default=None):
            self.asked.add(key)
            return super().get(key, default)

    with walker.caching():
        below = {id(n) for n in walk(function)} - {id(function)}
        walker._caching.cache = Asked(walker._caching.cache)
        # the same nodes in the same order, and none below the function looked at again
        assert [id(n) for n in walk(module)] == whole
        assert not Asked.asked & below
        # another pruning is walked on its own: the function's whole walk is not its statements
        assert [id(n) for n in walker.walk_statements(module)] == pruned


def test_long_operator_chains_lint_without_crashing() -> None:
    source = "import torch\nx = F.softmax(y).log()\ny = " + " + ".join(["a"] * 1000) + "\n"
    result = lint_text(source, "chain.py", [Probe])
    assert result.error is None and result.findings == []


def test_files_without_torch_or_triggers_are_not_analysed() -> None:
    class NeedsView(Probe):
        triggers = (".view(",)

    assert applicable([NeedsView], "import numpy as np\nx.view(-1)\n") == []
    assert applicable([NeedsView], "import torch\nx.reshape(-1)\n") == []
    assert applicable([NeedsView], "import os, torch\nx.view(-1)\n") == [NeedsView]
    assert applicable([NeedsView], "if True:\n    from torch import nn\n    x.view(-1)\n") == [NeedsView]


def test_a_rule_triggered_through_imports_reads_the_first_party_modules_the_file_imports(tmp_path: Path) -> None:
    class NeedsView(Probe):
        triggers = (".view(",)

    class NeedsViewAnywhere(NeedsView):
        triggered_through_imports = True

    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("from .net import Net\n")
    (tmp_path / "models" / "net.py").write_text("import torch\ndef flat(x):\n    return x.t().view(-1)\n")
    train = str(tmp_path / "train.py")
    text = "import torch\nfrom models import Net\ny = Net()(torch.randn(2, 3))\n"
    assert applicable([NeedsView, NeedsViewAnywhere], text, train) == [NeedsViewAnywhere]
    assert applicable([NeedsViewAnywhere], "import torch\nimport numpy\n", train) == []


@pytest.mark.parametrize(("source", "row", "column", "message"), [
    ("import torch\nx = 1 +* 2\ny.view(-1)\n", 2, 8, "invalid syntax"),
    ("import torch\nif x:\npass\ny.view(-1)\n", 3, 1, "expected an indented block"),
    ("import torch\ny.view(-1)\nx = " + "(" * 300 + "1" + ")" * 300 + "\n", 3, 205, "too many nested parentheses"),
])
def test_syntax_errors_are_one_finding_at_cpythons_position(source: str, row: int, column: int, message: str) -> None:
    class NeedsView(Probe):
        triggers = (".view(",)

    result = lint_text(source, "broken.py", [NeedsView])
    assert [(f.code, f.location.row, f.location.column) for f in result.findings] == [("SC000", row, column)]
    assert message in result.findings[0].message


class ReachProbe(Rule):
    """Records `ctx.reach` of the binding each `probe(name)` call sees."""

    code = "SC991"
    name = "reach-probe"
    message = "probe"
    seen: ClassVar[list[str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is cst.Name and node.func.value == "probe":
            binding = self.ctx.binding(node.args[0].value)
            self.seen.append(self.ctx.reach(binding) if binding is not None else "unbound")


def test_reach_tells_which_bindings_certainly_hold() -> None:
    ReachProbe.seen = []
    module = cst.parse_module(textwrap.dedent("""
        x = a.transpose(0, 1)
        probe(x)
        if flag:
            y = a.permute(1, 0)
        else:
            probe(y)
        probe(y)
        for item in items:
            z = item
        probe(z)
    """))
    ctx = Context(module, "x.py")
    traverse(ctx, [ReachProbe(ctx)])
    # the `if` body's binding is not what the `else` reads: no binding of `y` reaches it
    assert ReachProbe.seen == ["always", "unbound", "maybe", "maybe"]


def test_reach_follows_try_else_and_short_circuits() -> None:
    ReachProbe.seen = []
    module = cst.parse_module(textwrap.dedent("""
        def f():
            try:
                w = load()
            except OSError:
                v = fallback()
            else:
                probe(v)
                probe(w)
            (u := first()) and probe(u)
            flag or (t := second())
            probe(t)
    """))
    ctx = Context(module, "x.py")
    traverse(ctx, [ReachProbe(ctx)])
    # the handler's binding never reaches the `else` (so none of `v` does); the `try` body's may (it is not read as
    # certain); the left of `and` always runs, the right of `or` may not
    assert ReachProbe.seen == ["unbound", "maybe", "always", "maybe"]


def test_a_read_in_an_else_branch_follows_no_binding_of_the_if_branch() -> None:
    seen = run_probe("""
        import torch
        def accumulate(total, scores):
            if total is None:
                total = torch.zeros_like(scores)
            if scores.dim() == 3:
                total = scores.sum(dim=1)
                probe(total)
            else:
                probe(total)
            probe(total)
    """)
    # in the `if` body its own binding; in the `else`, the parameter or the `zeros_like` (they disagree: unknown);
    # after both branches, either branch's
    assert [s["value"] for s in seen] == ["scores.sum(dim=1)", "total", "total"]
    assert [s["binding"].kind for s in seen] == ["assign", "assign", "assign"]
    assert seen[1]["binding"].value is not seen[0]["binding"].value


def test_branches_that_bind_the_same_code_are_followed() -> None:
    seen = run_probe("""
        import torch
        if torch.cuda.is_available():
            criterion = torch.nn.CrossEntropyLoss()
        else:
            criterion = torch.nn.CrossEntropyLoss()
        probe(criterion)
    """)
    assert seen[0]["value"] == "torch.nn.CrossEntropyLoss()"


def test_a_name_rebound_later_in_a_loop_is_not_followed_to_its_value_before_the_loop() -> None:
    seen = run_probe("""
        import torch
        def unroll(x, steps):
            h = torch.zeros(4, 8)
            for _ in range(steps):
                probe(h)
                h = torch.tanh(h @ x)
            probe(h)
            for frame in frames:
                frame = frame.flatten(1)
                probe(frame)
    """)
    # from the second pass on the loop body's `h` is read; after the loop either; a `for` target rebound in its own
    # body before the read is that value on every pass
    assert [s["value"] for s in seen] == ["h", "h", "frame.flatten(1)"]


class ReachingProbe(ReachProbe):
    """Records the values of `ctx.reaching` at each `probe(name)` call."""

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is cst.Name and node.func.value == "probe":
            found = self.ctx.reaching(node.args[0].value)
            self.seen.append(None if found is None else [self.ctx.code(binding.value) for binding in found])


def test_reaching_gives_every_binding_that_may_be_read() -> None:
    ReachingProbe.seen = []
    module = cst.parse_module(textwrap.dedent("""
        sampler = None
        if distributed:
            sampler = DistributedSampler(data)
        probe(sampler)
        if shuffle:
            order = permutation(n)
        else:
            order = arange(n)
            probe(order)
        for step in range(n):
            probe(state)
            state = update(state)
    """))
    ctx = Context(module, "x.py")
    traverse(ctx, [ReachingProbe(ctx)])
    assert ReachingProbe.seen == [["DistributedSampler(data)", "None"], ["arange(n)"], None]


class UnconditionalProbe(ReachProbe):
    """Records `flow.unconditional` of the binding each `probe(name)` call sees."""

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is cst.Name and node.func.value == "probe":
            self.seen.append(flow.unconditional(self.ctx.binding(node.args[0].value).path))


def test_unconditional_tells_bindings_that_hold_wherever_read() -> None:
    """What a rule's `finish()` asks, reading from no node: only a binding under no branch, loop or `try` holds."""
    UnconditionalProbe.seen = []
    module = cst.parse_module(textwrap.dedent("""
        device = "cpu"
        probe(device)
        if available:
            device = "mps"
        def f():
            for batch in batches:
                last = batch
            first = batches[0]
            probe(first)
            probe(last)
        probe(device)
    """))
    ctx = Context(module, "x.py")
    traverse(ctx, [UnconditionalProbe(ctx)])
    assert UnconditionalProbe.seen == [True, True, False, False]


class Bump(Rule):
    """A fix that always leaves one more thing to fix: `v0` -> `v1` -> ... without end."""

    code = "SC992"
    name = "bump"
    message = "bump"

    def visit_Name(self, node: cst.Name) -> None:
        if node.value.startswith("v") and node.value[1:].isdigit():
            self.report(node, node.value, Fix("bump", ((node, cst.Name(f"v{int(node.value[1:]) + 1}")),)))


def test_findings_describe_the_source_after_the_last_fix_round() -> None:
    result = lint_text("import torch\nv0\n", "bump.py", [Bump], fix="safe")
    assert result.fixed == MAX_FIX_ROUNDS
    assert result.new_source == f"import torch\nv{MAX_FIX_ROUNDS}\n"
    assert [f.message for f in result.findings] == [f"v{MAX_FIX_ROUNDS}"]


def test_a_lint_leaves_no_cycles_for_the_collector() -> None:
    # Rules, the context and its analyses refer to one another; once the findings are out the context lets go, so
    # reference counting frees the file's tree and the analysis at once (the editor server lints every keystroke).
    import gc

    source = "import torch\nimport torch.nn as nn\n" + "\n".join(
        f"def f{i}(x):\n    y = x.transpose(0, 1)\n    return y.view(-1) @ torch.randn(3, 4)\n" for i in range(50))
    rules = registry.resolve(None)
    lint_text(source, "m.py", rules)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        lint_text(source, "m.py", rules)
        gc.collect()
        left = [o for o in gc.garbage if type(o).__module__.startswith(("libcst", "shapecheck"))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []


def test_module_facts_are_the_union_of_each_statements_part_and_walks_are_made_once() -> None:
    module = cst.parse_module("a.append(1)\ndef f():\n    b.append(2)\nc = 3\n")
    ctx = Context(module, "model.py")

    def receivers(statement: cst.CSTNode) -> frozenset[str]:
        return frozenset(node.func.value.value for node in walk(statement)
                         if type(node) is cst.Call and type(node.func) is cst.Attribute)

    assert ctx.module_fact("receivers", receivers) == {"a", "b"}
    function = module.body[1]
    assert list(ctx.walk(function)) == list(walk(function))
    kept = ctx._walked[id(function)][1]
    assert list(ctx.walk(function)) == list(walk(function)) and ctx._walked[id(function)][1] is kept


def test_a_point_within_a_function_left_reads_its_locals_there() -> None:
    module = cst.parse_module(textwrap.dedent("""
        total = 0
        class Attn:
            def backward(self, g, p):
                total = (g * p).sum(-1, keepdim=True)
                return g - total
        Attn().backward(a, b)
    """))
    ctx = Context(module, "x.py")
    seen: list[object] = []

    class AtCall(Rule):
        code, name, message = "SC990", "probe", "probe"

        def visit_Call(self, node: cst.Call) -> None:
            if ctx.code(node) != "Attn().backward(a, b)":
                return
            method = module.body[1].body.body[0]
            returned = method.body.body[1].body[0].value
            point = ctx.point_within(returned)
            with ctx.at(point):
                seen.append(ctx.code(ctx.binding(returned.right).value))
            seen.append(ctx.point_within(node))

    traverse(ctx, [AtCall(ctx)])
    assert seen == ["(g * p).sum(-1, keepdim=True)", None]


def test_the_point_after_a_call_sites_function_is_the_point_within_it() -> None:
    """`point_after(site.function)` finds by a lookup what `point_within(site.node)` finds by the nodes of the
    functions left: the end of the innermost one, a nested function's own and not its parent's; None for a function
    the traversal is still in."""
    module = cst.parse_module(textwrap.dedent("""
        def outer(x):
            def inner(y):
                return torch.relu(y)
            return inner(x).sum()
        class Net:
            def forward(self, x):
                return self.fc(x)
        outer(Net().forward(1))
    """))
    ctx = Context(module, "x.py")
    pending: list[tuple[object, object]] = []

    class AtCall(Rule):
        code, name, message = "SC990", "probe", "probe"

        def visit_Call(self, node: cst.Call) -> None:
            if ctx.function is not None:
                pending.append((ctx.point_after(ctx.function), ctx.point_within(node)))

        def finish(self) -> None:
            sites = [site for sites in ctx.calls.values() for site in sites if site.function is not None]
            assert len(sites) == 4
            for site in sites:
                assert ctx.point_after(site.function) == ctx.point_within(site.node) is not None

    assert not traverse(ctx, [AtCall(ctx)]).crashes
    assert pending and all(after is None and within is None for after, within in pending)


LINT_SC216 = """
import sys
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import rule_index
text = open(sys.argv[1], encoding="utf-8").read()
result = lint_text(text, sys.argv[1], [rule_index()["SC216"]])
print([finding.location.row for finding in result.findings], "shapecheck.loops.training_loop" in sys.modules)
"""


@pytest.mark.parametrize(("last", "expected"), [
    ("    h.sum().backward()\n", "[6] True"),  # the record is loaded and traversed, though only SC216 asked for it
    ("    return h.sum()\n", "[] False"),  # no `backward` in the text: no pass to record, and no record
])
def test_sc216_loads_the_training_loop_record_only_for_a_text_that_can_hold_a_backward_pass(
        tmp_path: Path, last: str, expected: str) -> None:
    source = tmp_path / "train.py"
    source.write_text("import torch\n\n\ndef train_step(model, x):\n    h = torch.sigmoid(model(x))\n    h.mul_(2.0)\n"
                      + last)
    run = subprocess.run([sys.executable, "-c", LINT_SC216, str(source)], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == expected


def test_a_submodule_imported_by_name_is_read_for_triggers(tmp_path: Path) -> None:
    """`from proj import models`, then `models.Net()`: the submodule `proj/models.py` is one of the modules the
    file imports, as `from . import models` is; a name that is no submodule finds no file."""
    class NeedsViewAnywhere(Probe):
        triggers = (".view(",)
        triggered_through_imports = True

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "__init__.py").write_text("")
    (tmp_path / "proj" / "models.py").write_text("import torch\ndef flat(x):\n    return x.t().view(-1)\n")
    (tmp_path / "proj" / "utils.py").write_text("import torch\nSEED = 0\n")
    train = str(tmp_path / "proj" / "train.py")
    assert applicable([NeedsViewAnywhere], "import torch\nfrom proj import models\n", train) == [NeedsViewAnywhere]
    assert applicable([NeedsViewAnywhere], "import torch\nfrom . import utils, models as m\n", train) \
        == [NeedsViewAnywhere]
    assert applicable([NeedsViewAnywhere], "import torch\nfrom proj import (\n    utils,\n)\n", train) == []
    assert applicable([NeedsViewAnywhere], "import torch\nfrom proj.utils import SEED\n", train) == []


def test_runs_whenever_tells_a_node_every_pass_of_a_loop_reaches() -> None:
    """A call in a loop body runs on the loop's last pass when only statements that run whole (`with` blocks) and
    expressions evaluating all their parts lie between: the short last batch's question (`shapes.last_batch`)."""
    module = cst.parse_module(textwrap.dedent("""
        for x in loader:
            with torch.no_grad():
                a = f(model(x))
            b = model(x) if x is not None else None
            c = ok and model(x)
            for y in x:
                d = model(y)
            try:
                e = model(x)
            except RuntimeError:
                pass
            g = [model(z) for z in x]
            h = torch.stack([model(x), model(x)])
    """))
    loop = module.body[0]
    calls = [node for node in walk(loop) if type(node) is cst.Call and module.code_for_node(node.func) == "model"]
    paths = [flow.path_to(loop.body, call) for call in calls]
    assert all(path is not None and path[0] is loop.body and path[-1] is call for path, call in zip(paths, calls))
    assert [flow.runs_whenever(path) for path in paths] == [True, False, False, False, False, False, True, True]
    assert flow.path_to(loop.body, module.body[0].iter) is None  # the loader is no part of the body


def test_aliased_names_are_the_names_plain_assignments_in_a_body_bind_to() -> None:
    module = cst.parse_module(textwrap.dedent("""
        def train(loader):
            for x, y in loader:
                losses = model(x)
                loss = losses
                loss, aux = pair
                loss = other = spare
                def report():
                    loss = kept
            loss = later
        for batch in loader:
            loss = total
    """))
    ctx = Context(module, "x.py")
    traverse(ctx, [])
    function, module_loop = module.body
    loop = function.body.body[0]
    # not an unpacking, a chained assignment, a nested function's own name, nor one outside the body
    assert ctx.aliased_names({"loss"}, loop, function) == {"losses"}
    assert ctx.aliased_names({"loss"}, function, function) == {"losses", "later"}
    assert ctx.aliased_names({"loss", "x"}, module_loop, None) == {"total"}


def test_sc208_reads_a_backward_pass_at_the_end_of_its_function_without_indexing_every_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SC208 follows a backward pass's loss back through assignments at the end of the pass's function, found by
    a lookup (`point_after(event.function)`): `point_within` indexes the nodes of every function of the file, on
    each lint where SC208 asks (each keystroke in the editor). MAML's meta-batch (each task's loss kept for the meta-loss's backward pass,
    in a function) is still not reported."""
    from rules.graph_kept_alive import GraphKeptAlive

    def indexed(self: Context, node: cst.CSTNode) -> None:
        raise AssertionError("point_within indexes every function's nodes")

    monkeypatch.setattr(Context, "point_within", indexed)
    maml = next(example for example in GraphKeptAlive.VALID if "meta_loss" in example)
    assert lint_text(textwrap.dedent(maml), "maml.py", [GraphKeptAlive]).findings == []
