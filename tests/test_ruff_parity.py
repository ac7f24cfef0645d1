"""Where users notice ruff's behaviour: noqa validation, --statistics as JSON, --output-file, --show-files,
--show-settings, --add-noqa, `rule NAME` / `--all`, a missing path, and each rule's severity in every format.
Each expectation was checked against ruff 0.17 run side by side on the same kind of input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from shapecheck.cli import main
from shapecheck.engine.registry import all_rules
from tests.cli_helpers import BUGGY, CLEAN, FIXED, lint, reported, write
from tests.test_notebook import BUGGY as BUGGY_NOTEBOOK

INVALID = "expected a comma-separated list of codes"
AMP = "import torch\nscaler = torch.cuda.amp.GradScaler()\n"  # SC402, a warning


@pytest.mark.parametrize("comment", ["# noqa: sc301", "# noqa: log-of-softmax", "# noqa:", "# NoQA: sc301",
                                     "# noqa-SC301", "# noqa;"])
def test_an_invalid_noqa_warns_and_silences_nothing(project: Path, comment: str) -> None:
    write(project / "model.py", BUGGY.replace(".log()\n", f".log()  {comment}\n"))
    result = lint("--output-format", "concise", "model.py")
    assert reported(result) == ["model.py:2:5: SC301"]
    assert f"Invalid `# noqa` directive on model.py:2: {INVALID}" in result.stderr


@pytest.mark.parametrize("comment", ["# NOQA: SC301", "# noqa:SC301,SC101", "# noqa: SC301 the model needs it",
                                     "# noqa SC101"])  # the last: no colon, so a bare noqa (ruff reads it so)
def test_valid_noqa_spellings_silence(project: Path, comment: str) -> None:
    write(project / "model.py", BUGGY.replace(".log()\n", f".log()  {comment}\n"))
    result = lint("model.py")
    assert result.exit_code == 0 and "Invalid" not in result.stderr


def test_an_invalid_noqa_in_a_notebook_is_placed_by_cell(project: Path) -> None:
    write(project / "nb.ipynb", BUGGY_NOTEBOOK.replace(".log()\\n", ".log()  # noqa: sc301\\n"))
    result = lint("nb.ipynb")
    assert result.exit_code == 1 and f"directive on nb.ipynb:cell 3:2: {INVALID}" in result.stderr


def test_a_silenced_finding_is_not_fixed(project: Path) -> None:
    path = write(project / "model.py", BUGGY.replace(".log()\n", ".log()  # noqa: SC301\n"))
    before = path.read_text()
    assert lint("--fix", "model.py").exit_code == 0
    assert path.read_text() == before


def test_statistics_as_json(project: Path) -> None:
    write(project / "a.py", BUGGY)
    write(project / "b.py", BUGGY + "z = F.softmax(y).log()\n")
    result = lint("--statistics", "--output-format", "json", ".")
    assert json.loads(result.stdout) == [
        {"code": "SC301", "name": "log-of-softmax", "count": 3, "fixable": True, "fixable_count": 3},
        {"code": "SC302", "name": "softmax-without-dim", "count": 1, "fixable": False, "fixable_count": 0},
    ]
    assert result.exit_code == 1


def test_json_filenames_are_absolute(project: Path) -> None:
    write(project / "pkg" / "model.py", BUGGY)
    [record] = json.loads(lint("--output-format", "json", "pkg").stdout)
    assert record["filename"] == os.path.join(str(project), "pkg", "model.py")
    [record] = json.loads(lint("--output-format", "json", "-", stdin=BUGGY).stdout)
    assert record["filename"] == "-"


@pytest.mark.parametrize("output_format", ["full", "json"])
def test_output_file_takes_what_stdout_would_get(project: Path, output_format: str) -> None:
    write(project / "model.py", BUGGY)
    expected = lint("--output-format", output_format, "model.py").stdout
    result = lint("--output-format", output_format, "-o", "report.txt", "model.py")
    assert result.exit_code == 1 and result.stdout == ""
    assert (project / "report.txt").read_text() == expected


def test_output_file_that_cannot_be_written_is_exit_2(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("--output-file", "no/such/folder/report.txt", "model.py")
    assert result.exit_code == 2 and "report.txt: cannot be written" in result.stderr


def test_a_missing_path_does_not_say_all_checks_passed(project: Path) -> None:
    write(project / "clean.py", CLEAN)
    result = lint("missing.py", "clean.py")
    assert result.exit_code == 2
    assert "All checks passed!" not in result.output and "missing.py: no such file" in result.stderr


def test_show_files_lists_absolute_paths_sorted_and_lints_nothing(project: Path) -> None:
    write(project / "b.py", BUGGY)
    write(project / "a" / "nb.ipynb", BUGGY_NOTEBOOK)
    write(project / "a" / "stub.pyi", BUGGY)
    result = lint("--show-files", ".")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [str(project / "a" / "nb.ipynb"), str(project / "b.py")]


def test_show_settings_names_the_file_and_its_rules(project: Path) -> None:
    write(project / "sub" / "pyproject.toml", '[tool.shapecheck]\nselect = ["SC3"]\nignore = ["SC302"]\n')
    write(project / "sub" / "model.py", BUGGY)
    result = lint("--show-settings", "--extend-select", "SC101", "sub/model.py")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"Resolved settings for: {project / 'sub' / 'model.py'}"
    assert lines[1] == f"Settings path: {project / 'sub' / 'pyproject.toml'}"
    assert lines[-1] == "rules = [SC101, SC301, SC303, SC304]"


def test_add_noqa_silences_every_finding_and_keeps_existing_codes(project: Path) -> None:
    source = (BUGGY + "z = F.softmax(y).log()  # noqa: SC101\n"
              + 'w = F.softmax(x, dim=-1).log(); s = """\nline\n"""\n'  # a comment can't end that first line
              + "v = F.softmax(x, dim=-1).log()  # noqa\n")
    path = write(project / "model.py", source)
    result = lint("--add-noqa", "model.py")
    assert result.exit_code == 0 and "Added 2 noqa directives." in result.stderr
    assert path.read_text() == source.replace(
        "log()\n", "log()  # noqa: SC301\n", 1).replace("# noqa: SC101", "# noqa: SC101, SC301, SC302")
    assert reported(lint("--output-format", "concise", "model.py")) == ["model.py:4:5: SC301"]


def test_add_noqa_in_a_notebook_touches_only_the_cell(project: Path) -> None:
    path = write(project / "nb.ipynb", BUGGY_NOTEBOOK)
    assert lint("--add-noqa", "nb.ipynb").exit_code == 0
    assert path.read_text() == BUGGY_NOTEBOOK.replace(".log()\\n", ".log()  # noqa: SC301\\n")
    assert lint("nb.ipynb").exit_code == 0


def test_rule_by_name_by_code_and_all() -> None:
    by_name = CliRunner().invoke(main, ["rule", "view-after-transpose"])
    assert by_name.exit_code == 0 and by_name.stdout.startswith("# view-after-transpose (SC101)\n")
    assert CliRunner().invoke(main, ["rule", "sc101"]).stdout == by_name.stdout
    every = CliRunner().invoke(main, ["rule", "--all"]).stdout
    assert by_name.stdout in every and "# syntax-error (SC000)" in every
    assert all(f"# {rule.name} ({rule.code})" in every for rule in all_rules())
    assert CliRunner().invoke(main, ["rule"]).exit_code == 2
    unknown = CliRunner().invoke(main, ["rule", "no-such-rule"])
    assert unknown.exit_code == 2 and "unknown rule 'no-such-rule'" in unknown.stderr


def test_every_rule_has_a_severity_and_both_levels_are_used() -> None:
    # A rule that says nothing is an error (the class default); the bundled rules each state theirs.
    assert {rule.severity for rule in all_rules()} == {"error", "warning"}
    assert all(rule.severity in ("error", "warning") for rule in all_rules())


def test_severity_in_json_sarif_and_github(project: Path) -> None:
    write(project / "amp.py", AMP)
    write(project / "model.py", BUGGY)
    records = json.loads(lint("--output-format", "json", ".").stdout)
    assert [(r["code"], r["severity"]) for r in records] == [("SC402", "warning"), ("SC301", "error")]
    sarif = json.loads(lint("--output-format", "sarif", ".").stdout)["runs"][0]
    assert [(r["ruleId"], r["level"]) for r in sarif["results"]] == [("SC402", "warning"), ("SC301", "error")]
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in sarif["tool"]["driver"]["rules"]}
    assert levels["SC402"] == "warning" and levels["SC301"] == "error"
    github = lint("--output-format", "github", ".")
    assert [line.split(" ", 1)[0] for line in github.stdout.splitlines()] == ["::warning", "::error"]
    assert github.exit_code == 1  # a warning still fails the run, as any finding does in ruff


def test_fix_still_works_with_output_file(project: Path) -> None:
    path = write(project / "model.py", BUGGY)
    assert lint("--fix", "-o", "out.txt", "model.py").exit_code == 0
    assert path.read_text() == FIXED
    assert "1 fixed" in (project / "out.txt").read_text()
