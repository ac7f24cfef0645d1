"""Jupyter notebooks: code cells linted as one module, findings placed by cell, fixes written into the cells only."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_notebook
from shapecheck.engine.registry import all_rules
from shapecheck.notebook import NotebookError, read_notebook
from tests.cli_helpers import lint, write

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NOTEBOOK_FIXTURES = sorted(FIXTURES.rglob("*.ipynb"))
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>SC\d{3}(?:\s*,\s*SC\d{3})*)")


def notebook(*cells: str, indent: int = 1) -> str:
    """A notebook of code cells (a cell starting with `md:` is markdown), laid out as Jupyter saves it."""
    entries = []
    for source in cells:
        kind = "markdown" if source.startswith("md:") else "code"
        entry = {"cell_type": kind, "metadata": {}, "source": source.removeprefix("md:").splitlines(keepends=True)}
        if kind == "code":
            entry |= {"execution_count": None, "outputs": []}
        entries.append(entry)
    document = {"cells": entries, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4,
                "nbformat_minor": 5}
    return json.dumps(document, indent=indent, sort_keys=True, ensure_ascii=False) + "\n"


BUGGY = notebook("md:# Title", "import torch.nn.functional as F\n%load_ext autoreload\n",
                 "!nvidia-smi\ny = F.softmax(x, dim=-1).log()\n")


def found(text: str, *codes: str, fix: str | None = None):
    rules = [rule for rule in all_rules() if not codes or rule.code in codes]
    return lint_notebook(text, "nb.ipynb", rules, fix)


def expectations(text: str) -> list[tuple[int, int, str]]:
    expected = []
    for number, cell in enumerate(json.loads(text)["cells"], start=1):
        for row, line in enumerate("".join(cell["source"]).splitlines(), start=1):
            match = EXPECT.search(line)
            if match and cell["cell_type"] == "code":
                expected += [(number, row, code.strip()) for code in match.group("codes").split(",")]
    return sorted(expected)


@pytest.mark.parametrize("path", NOTEBOOK_FIXTURES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_notebook_fixture_findings_match_expectations(path: Path) -> None:
    text = path.read_text()
    result = found(text)
    assert result.error is None and result.warning is None
    assert sorted((f.cell, f.location.row, f.code) for f in result.findings) == expectations(text)
    if path.parent.name == "clean":
        assert result.findings == []


def test_there_are_buggy_and_clean_notebook_fixtures() -> None:
    assert {path.parent.name for path in NOTEBOOK_FIXTURES} >= {"buggy", "clean"}


def test_a_finding_is_placed_by_cell_row_and_column() -> None:
    [finding] = found(BUGGY).findings
    assert (finding.cell, finding.location.row, finding.location.column) == (3, 2, 5)
    assert finding.position == "cell 3:2:5"
    assert finding.source_line == "y = F.softmax(x, dim=-1).log()"


def test_a_name_bound_in_one_cell_is_known_in_the_next() -> None:
    text = notebook("import torch\nmodel = torch.nn.Linear(2, 2)\n", "out = model(x)\n", "out.numpy()\n")
    assert [(f.cell, f.code) for f in found(text, "SC207").findings] == [(3, "SC207")]


@pytest.mark.parametrize("magic", ["%matplotlib inline", "!pip install torch", "files = !ls", "t = %timeit f()",
                                   "model?", "??model", "torch.nn.Linear??"])
def test_line_magics_are_skipped_and_keep_positions(magic: str) -> None:
    text = notebook(f"import torch.nn.functional as F\n{magic}\ny = F.softmax(x, dim=-1).log()\n")
    [finding] = found(text).findings
    assert (finding.cell, finding.location.row, finding.location.column) == (1, 3, 5)


def test_a_magic_inside_a_block_keeps_the_block_valid() -> None:
    text = notebook("import torch.nn.functional as F\nfor i in range(3):\n    !echo $i\n"
                    "y = F.softmax(x, dim=-1).log()\n")
    assert [(f.cell, f.location.row) for f in found(text).findings] == [(1, 4)]


def test_a_percent_continuing_an_expression_is_not_a_magic() -> None:
    text = notebook('import torch.nn.functional as F\nmsg = ("%d"\n       % 3)\n"""\n%s\n"""\n'
                    "y = F.softmax(x, dim=-1).log()\n")
    result = found(text)
    assert [(f.code, f.location.row) for f in result.findings] == [("SC301", 7)]


def test_a_cell_magic_of_another_language_is_skipped_and_python_ones_are_linted() -> None:
    text = notebook("import torch.nn.functional as F\n", "%%bash\ny = F.softmax(x, dim=-1).log()\n",
                    "%%time\ny = F.softmax(x, dim=-1).log()\n")
    assert [(f.cell, f.location.row) for f in found(text).findings] == [(3, 2)]


def test_noqa_works_per_line() -> None:
    text = notebook("import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()  # noqa: SC301\n",
                    "z = F.softmax(x, dim=-1).log()\n")
    assert [(f.cell, f.location.row) for f in found(text).findings] == [(2, 1)]


def test_not_json_is_one_syntax_error_naming_the_reason() -> None:
    [finding] = found("{not json").findings
    assert finding.code == "SC000" and "isn't valid JSON" in finding.message
    assert finding.location.row == finding.location.column == 1


@pytest.mark.parametrize("text", ["[]", '{"cells": 3}', '{"cells": [{"cell_type": "code", "source": 7}]}'])
def test_json_that_is_not_a_notebook_is_refused(text: str) -> None:
    with pytest.raises(NotebookError):
        read_notebook(text)


def test_the_file_position_is_where_the_code_is_in_the_json() -> None:
    for text in (BUGGY, notebook("x = 1\n", "import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()\n",
                                 indent=3)):
        [finding] = found(text).findings
        line = text.splitlines()[finding.file_location.row - 1]
        assert line[finding.file_location.column - 1:].startswith("F.softmax(x, dim=-1).log()")
        assert finding.file_end_location.column - finding.file_location.column == len("F.softmax(x, dim=-1).log()")


def test_file_position_counts_escapes_in_a_one_string_source() -> None:
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": 'import torch.nn.functional as F\ns = "\\t\u00e9"\ny = F.softmax(x, dim=-1).log()\n'}
    text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    [finding] = found(text).findings
    position = finding.file_location
    assert text.splitlines()[position.row - 1][position.column - 1:].startswith("F.softmax(x, dim=-1).log()")


def _sources(text: str) -> list[str]:
    return ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in json.loads(text)["cells"]]


@pytest.mark.parametrize("indent", [1, 2, 4])
def test_fix_rewrites_only_the_changed_cell_sources(indent: int) -> None:
    text = notebook("md:# Title", "import torch.nn.functional as F\n%load_ext autoreload\n",
                    "!nvidia-smi\ny = F.softmax(x, dim=-1).log()", indent=indent)
    document = json.loads(text)
    document["cells"][2]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["é\n"]}]
    text = json.dumps(document, indent=indent, ensure_ascii=False)  # no final newline, keys in their own order
    result = found(text, fix="safe")
    assert result.fixed == 1
    new = result.new_source
    assert _sources(new) == ["# Title", "import torch.nn.functional as F\n%load_ext autoreload\n",
                             "!nvidia-smi\ny = F.log_softmax(x, dim=-1)"]
    assert new.replace("F.log_softmax(x, dim=-1)", "F.softmax(x, dim=-1).log()") == text


def test_fix_keeps_a_one_string_source_a_string() -> None:
    cell = {"cell_type": "code", "execution_count": 1, "metadata": {"tags": []}, "outputs": [],
            "source": "import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()\n"}
    text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    new = found(text, fix="safe").new_source
    assert new == text.replace("F.softmax(x, dim=-1).log()", "F.log_softmax(x, dim=-1)")


def test_fixes_that_cannot_be_put_back_are_not_applied() -> None:
    nb = read_notebook(BUGGY)
    assert nb.with_source(nb.source) == BUGGY
    assert nb.with_source(nb.source.replace("# shapecheck: end of cell\n", "")) is None
    assert nb.with_source(nb.source.replace("pass  # shapecheck: magic", "x = 1  #")) is None


def test_cli_lints_notebooks_in_folders_but_not_stubs(project: Path) -> None:
    write(project / "nbs" / "a.ipynb", BUGGY)
    write(project / "nbs" / "b.pyi", "import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()\n")
    result = lint("--output-format", "concise", ".")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("nbs/a.ipynb:cell 3:2:5: SC301 [*] ")
    assert "b.pyi" not in result.stdout


def test_cli_fix_and_diff(project: Path) -> None:
    path = write(project / "a.ipynb", BUGGY)
    diff = lint("--diff", "a.ipynb")
    assert diff.exit_code == 1
    assert diff.stdout == ("--- a.ipynb:cell 3\n+++ a.ipynb:cell 3\n@@ -1,2 +1,2 @@\n !nvidia-smi\n"
                           "-y = F.softmax(x, dim=-1).log()\n+y = F.log_softmax(x, dim=-1)\n")
    assert path.read_text() == BUGGY
    fixed = lint("--fix", "a.ipynb")
    assert fixed.exit_code == 0, fixed.output
    assert path.read_text() == BUGGY.replace("F.softmax(x, dim=-1).log()", "F.log_softmax(x, dim=-1)")
    assert lint("a.ipynb").exit_code == 0


def test_cli_invalid_notebook_is_a_finding_like_a_syntax_error(project: Path) -> None:
    write(project / "broken.ipynb", '{"cells": [')
    result = lint("--output-format", "concise", "broken.ipynb")
    assert result.exit_code == 1  # as ruff: a finding, not a failure to run
    assert result.stdout.startswith("broken.ipynb:1:1: SC000 Expected a Jupyter notebook")


def test_cli_machine_formats_place_notebook_findings(project: Path) -> None:
    write(project / "a.ipynb", BUGGY)
    [record] = json.loads(lint("--output-format", "json", "a.ipynb").stdout)
    assert (record["cell"], record["location"], record["noqa_row"]) == (3, {"column": 5, "row": 2}, 2)
    line = BUGGY.splitlines().index('    "y = F.softmax(x, dim=-1).log()\\n"') + 1
    github = lint("--output-format", "github", "a.ipynb").stdout
    assert f"file=a.ipynb,line={line},col=10," in github and "::a.ipynb:cell 3:2:5: SC301" in github
    sarif = json.loads(lint("--output-format", "sarif", "a.ipynb").stdout)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (line, 10)


def test_stdin_notebook(project: Path) -> None:
    result = lint("--output-format", "concise", "--stdin-filename", "a.ipynb", "-", stdin=BUGGY)
    assert result.stdout.startswith("a.ipynb:cell 3:2:5: SC301")


def test_a_cell_that_does_not_parse_fails_alone_as_in_jupyter() -> None:
    text = notebook("import torch.nn.functional as F\n", "criterion = # TODO: define the loss\n",
                    "y = F.softmax(x, dim=-1).log()\n", "result = await fetch()\n", "for x in xs:\n    pass\n")
    result = found(text)
    assert [(f.cell, f.location.row, f.code) for f in result.findings] == [(2, 1, "SC000"), (3, 1, "SC301")]
    fixed = found(text, fix="safe").new_source
    assert fixed == text.replace("F.softmax(x, dim=-1).log()", "F.log_softmax(x, dim=-1)")


def test_a_bracket_closed_in_the_next_cell_breaks_both_cells() -> None:
    text = notebook("import torch.nn.functional as F\n", "y = F.softmax(x,\n", "dim=-1).log()\n",
                    "z = F.softmax(x, dim=-1).log()\n")
    assert [(f.cell, f.code) for f in found(text).findings] == [(2, "SC000"), (3, "SC000"), (4, "SC301")]


def test_a_notebook_large_with_outputs_is_linted(project: Path) -> None:
    document = json.loads(BUGGY)
    document["cells"][1]["outputs"] = [{"output_type": "display_data", "metadata": {},
                                        "data": {"image/png": "A" * (6 * 2**20)}}]
    write(project / "plots.ipynb", json.dumps(document, indent=1))
    result = lint("--output-format", "concise", "plots.ipynb")
    assert result.exit_code == 1 and result.stdout.startswith("plots.ipynb:cell 3:2:5: SC301")


def test_a_cells_key_given_twice_takes_the_last_as_json_does() -> None:
    text = BUGGY.replace('{\n "cells": [', '{\n "cells": [],\n "cells": [', 1)
    [finding] = found(text).findings
    assert (finding.cell, finding.location.row) == (3, 2)
    assert found(text, fix="safe").new_source == text.replace("F.softmax(x, dim=-1).log()", "F.log_softmax(x, dim=-1)")
