"""What surrounds the code being visited, for the training-loop rules: where a finding would be noise (tests,
LightningModules) and the statements around a node. The training-loop analysis itself is
`shapecheck.loops.training_loop`, read through `training_loop(ctx)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import dotted_name, last_name

LIGHTNING_HOOKS = frozenset({"validation_step", "test_step", "predict_step"})


def statements_around(ctx: Context) -> tuple[Sequence[cst.BaseStatement], Sequence[cst.BaseStatement]] | None:
    """The statements before and after the simple statement line around the node being visited, in the block
    that holds it (an indented block or the module); None when there is no such line."""
    ancestors = ctx.ancestors
    for index in range(len(ancestors) - 1, 0, -1):
        if type(ancestors[index]) is cst.SimpleStatementLine:
            statement, block = ancestors[index], ancestors[index - 1]
            break
    else:
        return None
    if type(block) is not cst.IndentedBlock and type(block) is not cst.Module:
        return None
    body = block.body
    at = body.index(statement)
    return body[:at], body[at + 1:]


def in_test(ctx: Context) -> bool:
    """The code being visited is in a pytest/unittest `test_*` function, or in a function nested in one. A name is
    not enough: pytest collects `test_*` functions only from test files, unittest runs `TestCase` methods, and a
    `test_loop(dataloader, model, loss_fn)` in `train.py` is the tutorials' evaluation helper. Outside those, a
    `test_*` function is a test when it says so: an `assert` or `pytest` in its body."""
    ancestors = ctx.ancestors
    test_file = None
    for i, node in enumerate(ancestors):
        if type(node) is not cst.FunctionDef or not node.name.value.startswith("test_"):
            continue
        if test_file is None:
            test_file = is_test_file(ctx)
        if test_file or i >= 2 and type(ancestors[i - 2]) is cst.ClassDef and _is_test_case(ancestors[i - 2]):
            return True
        if any(type(n) is cst.Assert or type(n) is cst.Name and n.value == "pytest" for n in ctx.walk(node.body)):
            return True
    return False


def _is_test_case(class_def: cst.ClassDef) -> bool:
    return any(last_name(base.value).endswith("TestCase") for base in class_def.bases)


def is_test_file(ctx: Context) -> bool:
    """The file belongs to a test suite: a `tests/`, `test/` or `testing/` folder (test helpers such as
    `testing/model_test_case.py` have no test-like name of their own), `conftest.py`, or pytest's file names where
    the module holds what a test runner collects. A name alone is not enough: video projects' `tools/test_net.py`
    is the evaluation script (`def test(cfg)`, `multi_view_test(loader, model, cfg)`), which no runner collects."""
    *folders, name = ctx.filename.replace("\\", "/").split("/")
    if name == "conftest.py" or any(folder in ("tests", "test", "testing") for folder in folders):
        return True
    return (name.startswith("test_") or name.endswith(("_test.py", "_tests.py"))) and _collected(ctx.module)


def _collected(module: cst.Module) -> bool:
    """The module defines a `test_*` function, a `TestCase` or a class with `test_*` methods, or imports pytest or
    unittest."""
    for statement in module.body:
        if type(statement) is cst.FunctionDef and statement.name.value.startswith("test_") \
                or type(statement) is cst.ClassDef and (_is_test_case(statement) or any(
                    type(method) is cst.FunctionDef and method.name.value.startswith("test_")
                    for method in statement.body.body)):
            return True
        if type(statement) is cst.SimpleStatementLine and any(
                (type(small) is cst.Import and any((dotted_name(alias.name) or "").split(".")[0] in _RUNNERS
                                                   for alias in small.names))
                or (type(small) is cst.ImportFrom and small.module is not None
                    and (dotted_name(small.module) or "").split(".")[0] in _RUNNERS)
                for small in statement.body):
            return True
    return False


_RUNNERS = frozenset({"pytest", "unittest"})


def lightning_module(ctx: Context) -> bool:
    """The code being visited is in a LightningModule, whose trainer runs the loop (and grad mode) itself."""
    class_def = ctx.class_def
    return class_def is not None and lightning_class(class_def)


def lightning_class(class_def: cst.ClassDef) -> bool:
    """A class written as a LightningModule (`pl.LightningModule`, `L.LightningModule`, `LightningModule`)."""
    return any((dotted_name(base.value) or "").endswith("LightningModule") for base in class_def.bases)
