"""`%load_ext shapecheck` in a real IPython shell: cells linted before they run, definitions checked at run time."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator

import pytest

from shapecheck import ipython_extension

InteractiveShell = pytest.importorskip("IPython.core.interactiveshell").InteractiveShell

BUG = "y = F.softmax(x, dim=-1).log()"


@pytest.fixture
def shell() -> Iterator:
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext shapecheck")
    yield shell
    shell.run_cell("%unload_ext shapecheck")
    shell.reset(new_session=False)


@pytest.fixture(scope="module", autouse=True)
def fresh_instance() -> Iterator[None]:
    # The shell puts its own `__main__` in sys.modules, one without `__spec__`: a process started later by
    # multiprocessing's spawn (the editor server's worker, in another test) would fail on it.
    main = sys.modules["__main__"]
    yield
    InteractiveShell.clear_instance()
    sys.modules["__main__"] = main


def run(shell, cell: str, capsys: pytest.CaptureFixture[str], store_history: bool = True) -> tuple[bool, str]:
    """Run a cell as Jupyter does; whether it succeeded, and what it printed on stderr."""
    capsys.readouterr()
    result = shell.run_cell(cell, store_history=store_history)
    return result.success, capsys.readouterr().err


def test_a_cell_is_linted_before_it_runs_and_runs_anyway(shell, capsys: pytest.CaptureFixture[str]) -> None:
    run(shell, "import torch\nimport torch.nn.functional as F\nx = torch.randn(2, 3)", capsys)
    success, err = run(shell, f"z = 1\n{BUG}", capsys)
    assert success and shell.user_ns["y"].shape == (2, 3)  # the cell ran
    assert "shapecheck: 1 finding in this cell (it runs anyway)" in err
    assert "cell:2:5: SC301" in err  # the cell's own row and column
    assert f"2 | {BUG}" in err and "^^^^" in err  # with the cell's own line


def test_earlier_cells_are_the_context_and_are_not_reported_again(shell, capsys) -> None:
    _, err = run(shell, f"import torch.nn.functional as F\nimport torch\nx = torch.ones(2)\n{BUG}", capsys)
    assert "SC301" in err
    _, err = run(shell, BUG, capsys)  # F is only known from the first cell
    assert err.count("SC301") == 2 and ":1:5: SC301" in err  # this cell's finding, once (and its caret line)
    _, err = run(shell, "w = 2", capsys)
    assert err == ""


def test_ipython_syntax_is_no_finding(shell, capsys) -> None:
    run(shell, "import torch", capsys)
    success, err = run(shell, "!echo hi \\\n  there\ntorch.*Tensor?\n    ", capsys)
    assert success and err == ""
    success, err = run(shell, "    a = torch.ones(2)\n    b = a.view(2)\n", capsys)  # an indented cell
    assert success and err == ""


def test_a_syntax_error_is_left_to_ipython(shell, capsys) -> None:
    success, err = run(shell, "import torch\nx = = 1", capsys)
    assert not success and "SC000" not in err


def test_cells_not_kept_in_history_are_linted_too(shell, capsys) -> None:
    _, err = run(shell, f"import torch\nimport torch.nn.functional as F\nx = torch.ones(2)\n{BUG}", capsys,
                 store_history=False)
    assert "cell:4:5: SC301" in err


def test_a_linter_failure_never_blocks_the_cell(shell, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(ipython_extension, "lint_notebook", broken)
    success, err = run(shell, "import torch\nv = 3", capsys)
    assert success and shell.user_ns["v"] == 3
    assert "could not lint this cell: RuntimeError: boom" in err


ANNOTATED = '''
import torch
from torch import Tensor, nn
from jaxtyping import Float

def matmul(a: Float[Tensor, "b d"], b: Float[Tensor, "d e"]) -> Float[Tensor, "b e"]:
    return a @ b

def plain(a, b):
    return a @ b

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)

    def forward(self, x: Float[Tensor, "batch 3"]) -> Float[Tensor, "batch 4"]:
        return self.fc(x)
'''


def test_functions_and_classes_defined_in_cells_are_checked(shell, capsys) -> None:
    assert run(shell, ANNOTATED, capsys)[0]
    assert run(shell, "ok = matmul(torch.ones(2, 3), torch.ones(3, 5)).shape", capsys)[0]
    result = shell.run_cell("matmul(torch.ones(2, 3), torch.ones(4, 5))")
    assert type(result.error_in_exec).__name__ == "ShapeError"
    assert "argument 'b'" in str(result.error_in_exec)
    result = shell.run_cell("Net()(torch.ones(2, 5))")
    assert type(result.error_in_exec).__name__ == "ShapeError"
    assert shell.user_ns["plain"].__code__.co_name == "plain"  # nothing to check: left unwrapped
    assert not hasattr(shell.user_ns["plain"], "__wrapped__")


def test_checks_survive_a_reset(shell, capsys) -> None:
    shell.run_cell("%reset -f")
    assert run(shell, ANNOTATED, capsys)[0]
    result = shell.run_cell("matmul(torch.ones(2, 3), torch.ones(4, 5))")
    assert type(result.error_in_exec).__name__ == "ShapeError"


def test_unloading_takes_both_away(shell, capsys) -> None:
    shell.run_cell("%unload_ext shapecheck")
    _, err = run(shell, f"import torch\nimport torch.nn.functional as F\nx = torch.ones(2)\n{BUG}", capsys)
    assert err == ""
    assert run(shell, ANNOTATED, capsys)[0]
    result = shell.run_cell("matmul(torch.ones(2, 3), torch.ones(4, 5))")
    assert type(result.error_in_exec).__name__ == "RuntimeError"  # torch's own error: no check any more
    shell.run_cell("%load_ext shapecheck")  # for the fixture's unload


def test_without_the_runtime_cells_are_still_linted(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jaxtyping" else real(name, *a))
    shell = InteractiveShell.instance()
    capsys.readouterr()
    shell.run_cell("%load_ext shapecheck")
    try:
        assert "run-time checks are off: jaxtyping not installed" in capsys.readouterr().err
        _, err = run(shell, f"import torch\nimport torch.nn.functional as F\nx = torch.ones(2)\n{BUG}", capsys)
        assert "SC301" in err
        assert run(shell, "def g(a: int) -> int:\n    return a", capsys)[0]
        assert not hasattr(shell.user_ns["g"], "__wrapped__")
    finally:
        shell.run_cell("%unload_ext shapecheck")
        shell.reset(new_session=False)
