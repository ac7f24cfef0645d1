"""Notebook cells are linted as IPython runs them: every cell IPython accepts lints without SC000, positions map
back to the cell's own lines, and fixes put the IPython syntax back. IPython's own transformer is the oracle."""

from __future__ import annotations

import ast
import json
import warnings

import pytest

from shapecheck.engine.linter import lint_notebook
from shapecheck.engine.registry import all_rules
from shapecheck.ipython_syntax import python_of_cell
from tests.test_notebook import notebook

TransformerManager = pytest.importorskip("IPython.core.inputtransformer2").TransformerManager

BUG = "y = F.softmax(x, dim=-1).log()"  # SC301 at column 5, fixed to F.log_softmax(x, dim=-1)
IMPORT = "import torch\nimport torch.nn.functional as F\n"

# Cells as course notebooks write them: each is valid IPython, and none is valid Python.
IPYTHON_CELLS = {
    "wildcard help": "torch.*Tensor?\n",
    "wildcard help assigned": "abcdefgh = torch.*Tensor?\n",
    "help on an attribute": "torch.nn.Linear.forward??\n",
    "help on an index": "models[0]?\n",
    "help on a magic": "%timeit?\n",
    "help on a cell magic": "%%time?\nx = 1\n",
    "help before": "??torch.cat\n",
    "help inside a block": "if True:\n    torch.cat?\n",
    "help over several lines": "f(a,\n  b).c?\n",
    "bare help": "?\n",
    "shell continued": "!pip install torch \\\n    torchvision \\\n    --quiet\nimport torch\n",
    "magic continued": "%pip install \\\n  torch\n",
    "shell capture": "!!ls\n",
    "system assignment continued": "files = !ls \\\n  -l\nprint(files)\n",
    "magic assignment": "result = %timeit -o sum(range(10))\n",
    "magic in a loop": "for i in range(3):\n    !echo {i}\n",
    "autocall": "/print 1 2\n",
    "autoquote": ",print a b\n",
    "autoquote whole": ";print a b\n",
    "indented cell": "    x = 1\n    if x:\n        y = 2\n",
    "indented cell with blank lines": "\n    x = 1\n\n    y = x\n",
    "indented cell magic": "  %%time\n  x = 1\n",
    "indented magic": "    %matplotlib inline\n    import torch\n",
    "ipython prompts": "In [1]: x = 1\n   ...: y = x\n",
    "doctest prompts": ">>> x = 1\n>>> if x:\n...     y = 2\n",
    "leading blank lines then a cell magic": "\n\n%%capture\nx = 1\n",
    "python cell magic": "%%time\nfor i in range(3):\n    pass\n",
    "top-level await": "await asyncio.sleep(0)\n",
}

# Cells IPython refuses too: they stay SC000.
NOT_IPYTHON = {
    "help with a space after": "x? \n",
    "help on a call": "print(x)?\n",
    "help with a comment after": "x?  # what is x\n",
    "help on a dict": "d = {'a': 1}?\n",
    "chained magic assignment": "a = b = %foo\n",
    "badly indented cell": "    x = 1\n  y = 2\n",
    "placeholder": "criterion = # TODO\n",
}


def ipython_accepts(cell: str) -> bool:
    transformed = TransformerManager().transform_cell(cell)
    if transformed.startswith("get_ipython().run_cell_magic"):
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(transformed, "<cell>", "exec", ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return False
    return True


def sc000(text: str) -> list[tuple[int, int, int]]:
    return [(f.cell, f.location.row, f.location.column)
            for f in lint_notebook(text, "nb.ipynb", all_rules()).findings if f.code == "SC000"]


@pytest.mark.parametrize("cell", IPYTHON_CELLS.values(), ids=IPYTHON_CELLS.keys())
def test_a_cell_ipython_accepts_is_no_syntax_error(cell: str) -> None:
    assert ipython_accepts(cell)
    assert sc000(notebook(IMPORT, cell)) == []


@pytest.mark.parametrize("cell", NOT_IPYTHON.values(), ids=NOT_IPYTHON.keys())
def test_a_cell_ipython_refuses_is_a_syntax_error(cell: str) -> None:
    assert not ipython_accepts(cell)
    assert [number for number, _, _ in sc000(notebook(IMPORT, cell))] == [2]


def test_the_column_of_an_error_in_an_indented_cell_is_the_cells_own() -> None:
    # IPython dedents the cell by 4; CPython then says 2:9 on the dedented text, which is 2:13 in the cell.
    assert sc000(notebook(IMPORT, "    x = 1\n    abcdefgh = torch.*Tensor\n")) == [(2, 2, 22)]


@pytest.mark.parametrize("cell, row, column", [
    (f"    {BUG}\n", 1, 9),  # dedented by IPython: the column is still the cell's
    (f"In [3]: {BUG}\n", 1, 13),  # a prompt stripped
    (f">>> {BUG}\n", 1, 9),
    (f"!pip install x \\\n   y\n{BUG}\n", 3, 5),  # after a continued command
    (f"torch.*Tensor?\n{BUG}\n", 2, 5),
    (f"if True:\n    torch.cat?\n    {BUG}\n", 3, 9),
])
def test_findings_keep_the_cells_rows_and_columns(cell: str, row: int, column: int) -> None:
    [finding] = lint_notebook(notebook(IMPORT, cell), "nb.ipynb", all_rules()).findings
    assert (finding.code, finding.cell, finding.location.row, finding.location.column) == ("SC301", 2, row, column)
    assert finding.source_line == cell.splitlines()[row - 1]  # the cell's own line, as shown to the user


def test_the_file_position_in_an_indented_cell_points_at_the_code() -> None:
    text = notebook(IMPORT, f"    {BUG}\n")
    [finding] = lint_notebook(text, "nb.ipynb", all_rules()).findings
    line = text.splitlines()[finding.file_location.row - 1]
    assert line[finding.file_location.column - 1:].startswith("F.softmax")


def test_fixing_an_indented_cell_keeps_its_indentation() -> None:
    cell = f"    x = torch.ones(3)\n    {BUG}\n    !ls \\\n      -l\n    z = torch.*Tensor?\n"
    result = lint_notebook(notebook(IMPORT, cell), "nb.ipynb", all_rules(), fix="safe")
    assert result.fixed == 1 and result.new_source is not None
    fixed_cell = "".join(json.loads(result.new_source)["cells"][1]["source"])
    assert fixed_cell == cell.replace("F.softmax(x, dim=-1).log()", "F.log_softmax(x, dim=-1)")


def test_a_prompt_cell_is_reported_but_not_rewritten() -> None:
    result = lint_notebook(notebook(IMPORT, f">>> {BUG}\n"), "nb.ipynb", all_rules(), fix="safe")
    assert result.new_source is None and [f.code for f in result.findings] == ["SC301"]
    assert "could not be put back" in result.warning


def test_a_notebook_whose_kernel_is_not_python_is_skipped() -> None:
    text = json.loads(notebook(IMPORT + BUG + "\n", "x = = 1\n"))
    assert len(lint_notebook(json.dumps(text), "nb.ipynb", all_rules()).findings) == 2
    for metadata in ({"language_info": {"name": "R"}}, {"kernelspec": {"language": "julia", "name": "julia-1.9"}},
                     {"language_info": {"name": "R"}, "kernelspec": {"language": "python"}}):
        text["metadata"] = metadata
        assert lint_notebook(json.dumps(text), "nb.ipynb", all_rules()).findings == []
    text["metadata"] = {"language_info": {"name": "python"}, "kernelspec": {"language": "R"}}
    assert len(lint_notebook(json.dumps(text), "nb.ipynb", all_rules()).findings) == 2


def test_an_empty_first_cell_before_others() -> None:
    assert [f.code for f in lint_notebook(notebook("", IMPORT + BUG + "\n"), "nb.ipynb", all_rules()).findings] \
        == ["SC301"]


@pytest.mark.parametrize("cell", [*IPYTHON_CELLS.values(), *NOT_IPYTHON.values()])
def test_every_row_of_the_cell_is_kept(cell: str) -> None:
    code = python_of_cell(cell)
    assert len(code.lines) == len(cell.splitlines(keepends=True))
    assert code.restore(code.text, cell) == cell
