"""Annotated code that the project's own tools leave alone: black, isort (profile black), flake8 with jaxtyping's
conventions (F722 off; a space before a single-name shape so that F821 stays useful) and mypy."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.record.annotate import annotate_source
from shapecheck.record.store import FunctionRecord

black = pytest.importorskip("black")
isort = pytest.importorskip("isort")
pyflakes_api = pytest.importorskip("pyflakes.api")


def tensor(*shape: int, dtype: str = "float32") -> dict:
    return {"t": "tensor", "shape": list(shape), "dtype": dtype, "device": "cpu"}


def calls(params: dict, returns) -> list[dict]:
    """Two calls at batch sizes 2 and 3: `params` and `returns` map a batch size to descriptions."""
    return [{"run": b, "args": {name: make(b) for name, make in params.items()},
             **({"return": returns(b)} if returns is not None else {})} for b in (2, 3)]


SOURCE = '''
"""A model."""

import math

import torch
import torch.nn.functional as F
from torch import nn


def exists(val):
    return val is not None


def score(q, k):
    return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d

    def forward(self, queries_with_a_long_name, keys_with_a_long_name, values, mask=None):
        return F.softmax(score(queries_with_a_long_name, keys_with_a_long_name), dim=-1) @ values

    async def pool(self, x, *, keepdim=False):
        return x.mean(dim=1, keepdim=keepdim), x.amax(dim=1, keepdim=keepdim), x.amin(dim=1)

    def ids(self, tokens):
        return tokens.argmax(-1)
'''


def records() -> list[FunctionRecord]:
    qkv = {name: (lambda b: tensor(b, 7, 16)) for name in ("queries_with_a_long_name", "keys_with_a_long_name",
                                                          "values")}
    return [
        FunctionRecord("m", "exists", "/m.py", 1, "h", ["val"], calls({"val": lambda b: tensor(b)},
                                                                      lambda b: {"t": "bool"})),
        FunctionRecord("m", "score", "/m.py", 1, "h", ["q", "k"], calls(
            {"q": lambda b: tensor(b, 7, 16), "k": lambda b: tensor(b, 7, 16)}, lambda b: tensor(b, 7, 7))),
        FunctionRecord("m", "Attention.forward", "/m.py", 1, "h", ["self", "queries_with_a_long_name",
                                                                   "keys_with_a_long_name", "values", "mask"],
                       calls({**qkv, "mask": lambda b: {"t": "none"}}, lambda b: tensor(b, 7, 16))),
        FunctionRecord("m", "Attention.pool", "/m.py", 1, "h", ["self", "x", "keepdim"], calls(
            {"x": lambda b: tensor(b, 7, 16), "keepdim": lambda b: {"t": "bool"}},
            lambda b: {"t": "tuple", "items": [tensor(b, 16), tensor(b, 16), tensor(b, 16)]})),
        FunctionRecord("m", "Attention.ids", "/m.py", 1, "h", ["self", "tokens"], calls(
            {"tokens": lambda b: tensor(b, 7, 16)}, lambda b: tensor(b, dtype="int64"))),
    ]


@pytest.fixture(scope="module")
def annotated() -> str:
    source = black.format_str(SOURCE, mode=black.Mode())
    assert isort.code(source, profile="black") == source
    result = annotate_source(source, records())
    assert result.error is None and len(result.functions) == 4, result.functions
    return result.new


def test_black_and_isort_leave_the_annotated_file_alone(annotated: str):
    assert black.format_str(annotated, mode=black.Mode()) == annotated
    assert isort.code(annotated, profile="black") == annotated
    assert "        mask=None,\n    ) -> Float[Tensor, \"B 7 16\"]:\n" in annotated  # wrapped as black wraps it
    assert "from jaxtyping import Float, Int\nfrom torch import Tensor, nn\n" in annotated


def test_flake8_reports_only_jaxtyping_s_f722(annotated: str):
    class Collect:
        def __init__(self):
            self.messages = []

        def flake(self, message):
            self.messages.append(type(message).__name__)

        unexpectedError = syntaxError = flake

    before, after = Collect(), Collect()
    pyflakes_api.check(black.format_str(SOURCE, mode=black.Mode()), "m.py", before)
    pyflakes_api.check(annotated, "m.py", after)
    # Only F722, which jaxtyping's docs turn off, is new.
    assert set(after.messages) - set(before.messages) == {"ForwardAnnotationSyntaxError"}
    assert 'Int[Tensor, " B"]' in annotated  # a bare `"B"` would be F821, an undefined name


def test_black_s_layouts_for_long_signatures():
    cases = {
        "def f(x):\n    return x * 2\n": ["x"],
        "def f(x, *args, **kwargs):\n    return x * 2\n": ["x"],
        "def f(x, *args, **kwargs):\n    return f\"{x}\" * 2\n": ["x"],
        "class A:\n    def f(self):\n        return self.x * 2\n": [],
    }
    long = "a_size_with_a_name_long_enough_to_need_a_line_of_its_own"
    for source, params in cases.items():
        qualname = "A.f" if source.startswith("class") else "f"
        names = ["self"] * (qualname == "A.f") + params
        record = FunctionRecord("m", qualname, "/m.py", 1, "h", names, [
            {"args": {name: tensor(b, 64, 64) for name in params},
             "return": {"t": "tuple", "items": [tensor(b, 64, 64)] * 3}} for b in (2, 3)])
        new = annotate_source(source, [record]).new
        new = new.replace('"B 64 64"', f'"B 64 {long}"') if not params else new
        assert black.format_str(new, mode=black.Mode()) == new, new


def test_mypy_accepts_the_annotated_file_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    mypy_api = pytest.importorskip("mypy.api")
    # A stub of torch's Tensor: mypy reading all of torch would take a minute.
    (tmp_path / "stubs" / "torch").mkdir(parents=True)
    (tmp_path / "stubs" / "torch" / "__init__.pyi").write_text("class Tensor:\n    def __mul__(self, o: Tensor) -> Tensor: ...\n")
    monkeypatch.setenv("MYPYPATH", str(tmp_path / "stubs"))
    source = textwrap.dedent('''
        from typing import Optional

        import torch


        def f(x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
            return x if mask is None else x * mask


        def g(x, bias=None):
            return f(x, bias)
    ''')
    record_f = FunctionRecord("m", "f", "/m.py", 1, "h", ["x", "mask"], calls(
        {"x": lambda b: tensor(b, 4), "mask": lambda b: tensor(b, 4) if b == 3 else {"t": "none"}},
        lambda b: tensor(b, 4)))
    record_g = FunctionRecord("m", "g", "/m.py", 1, "h", ["x", "bias"], calls(
        {"x": lambda b: tensor(b, 4), "bias": lambda b: tensor(b, 4)}, lambda b: tensor(b, 4)))
    new = annotate_source(source, [record_f, record_g]).new
    assert 'bias: Optional[Float[Tensor, "B 4"]] = None' in new
    for name, text in (("before.py", source), ("after.py", new)):
        (tmp_path / name).write_text(text)
    before = mypy_api.run([str(tmp_path / "before.py"), "--no-incremental", "--ignore-missing-imports"])
    after = mypy_api.run([str(tmp_path / "after.py"), "--no-incremental", "--ignore-missing-imports"])
    assert before[2] == 0 and after[2] == 0, after[0]


@pytest.mark.parametrize("source", [
    '"""Doc."""\n\n\ndef f(x):\n    return x * 2\n',
    "def f(x):\n    return x * 2\n",
    '"""Doc."""\n\nX = 1\n\n\ndef f(x):\n    return x * 2\n',
    '"""Doc."""\n\nfrom __future__ import annotations\n\nimport os\n\n\ndef f(x, y=None):\n    return x * 2\n',
    '"""Doc."""\n\nfrom __future__ import annotations\n\nfrom .utils import g\n\n\ndef f(x):\n    return x * 2\n',
    "# A comment.\nimport torch\nfrom torch import nn\n\nX = 1\n\n\ndef f(x, y=None):\n    return x * 2\n",
])
def test_new_imports_go_where_isort_and_black_put_them(source: str):
    record = FunctionRecord("m", "f", "/m.py", 1, "h", ["x", "y"], calls(
        {"x": lambda b: tensor(b, 4), "y": lambda b: tensor(b, 4)}, lambda b: tensor(b, 4)))
    new = annotate_source(source, [record]).new
    assert new != source
    assert black.format_str(new, mode=black.Mode()) == new, new
    assert isort.code(new, profile="black") == new, new
