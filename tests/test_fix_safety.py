"""Fixes never change what the code does beyond the fix, and never leave code the running Python can't parse."""

from __future__ import annotations

import ast

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

RULES = resolve(["ALL"])


def fixed(source: str) -> str:
    result = lint_text(source, "m.py", RULES, fix="unsafe")
    return source if result.new_source is None else result.new_source


@pytest.mark.parametrize("call", [
    "torch.log(torch.sigmoid(*args))",
    "torch.log(torch.sigmoid(**kwargs))",
    "torch.log(torch.sigmoid(x, out=y))",
    "torch.sigmoid(x, out=y).log()",
    "torch.log(torch.sigmoid(x), out=z)",
    "torch.log(torch.softmax(x, 1), out=z)",
])
def test_sc301_reports_but_does_not_drop_arguments(call: str) -> None:
    source = f"import torch\ny = {call}\n"
    assert [f.code for f in lint_text(source, "m.py", RULES).findings] == ["SC301"]
    assert fixed(source) == source


@pytest.mark.parametrize("call", ["torch.sigmoid(input=x).log()", "torch.log(torch.sigmoid(input=x))",
                                  "torch.log(input=torch.sigmoid(x))"])
def test_sc301_reads_keyword_forms(call: str) -> None:
    assert fixed(f"import torch\ny = {call}\n") == "import torch\nimport torch.nn.functional as F\ny = F.logsigmoid(x)\n"


@pytest.mark.parametrize("call", ["torch.log(torch.sigmoid())", "torch.softmax().log()", "torch.log()",
                                  "torch.log(*a)", "torch.log(**k)", "x.sigmoid().log(*a)"])
def test_sc301_survives_calls_without_arguments(call: str) -> None:
    codes = {f.code for f in lint_text(f"import torch\ny = {call}\n", "m.py", RULES).findings}
    assert "SC999" not in codes


def test_an_added_import_lands_before_its_first_use() -> None:
    source = '"""Doc."""\nfrom __future__ import annotations\nimport torch\ny = torch.log(torch.sigmoid(x))\nimport os\n'
    assert fixed(source) == ('"""Doc."""\nfrom __future__ import annotations\nimport torch\n'
                             "import torch.nn.functional as F\ny = F.logsigmoid(x)\nimport os\n")


def test_a_fix_must_parse_with_the_running_python() -> None:
    # `torch.amp.GradScaler("cuda")` inside a double-quoted f-string parses only from Python 3.12.
    source = 'import torch\ns = f"{torch.cuda.amp.GradScaler()}"\n'
    ast.parse(fixed(source))
