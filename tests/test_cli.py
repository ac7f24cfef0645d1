"""`shapecheck lint`, `rules` and `rule` through click's test runner, and a few runs of the real command.

Its helpers live in tests/cli_helpers.py and the `project` fixture in tests/conftest.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from shapecheck.cli import main
from tests.cli_helpers import BUGGY, CLEAN, FIXED, lint, reported, write

# ------------------------------------------------------------------------------------------------ exit codes


def test_a_finding_is_reported_with_path_row_column_code_and_exits_1(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("model.py")
    assert result.exit_code == 1
    assert reported(result) == ["model.py:2:5: SC301"]
    assert "y = F.softmax(x, dim=-1).log()" in result.stdout  # the full format shows the source line
    assert "^^^" in result.stdout


def test_a_clean_tree_exits_0(project: Path) -> None:
    write(project / "model.py", CLEAN)
    result = lint()
    assert result.exit_code == 0
    assert reported(result) == []


def test_default_path_is_the_working_directory(project: Path) -> None:
    write(project / "pkg" / "model.py", BUGGY)
    assert reported(lint("--output-format", "concise")) == [f"{os.path.join('pkg', 'model.py')}:2:5: SC301"]


def test_exit_zero(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("--exit-zero")
    assert result.exit_code == 0
    assert reported(result) == ["model.py:2:5: SC301"]


def test_missing_path_is_exit_2_and_the_other_paths_are_still_linted(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("nowhere.py", "model.py")
    assert result.exit_code == 2
    assert "shapecheck: error: nowhere.py: no such file or directory" in result.stderr
    assert reported(result) == ["model.py:2:5: SC301"]


def test_no_python_files_is_a_warning_not_a_failure(project: Path) -> None:
    write(project / "notes.txt", "import torch\n")
    result = lint()
    assert result.exit_code == 0
    assert "no Python files" in result.stderr


def test_unknown_option_is_usage_error(project: Path) -> None:
    assert lint("--no-such-option").exit_code == 2


# ------------------------------------------------------------------------------------------- rule selection


@pytest.mark.parametrize(("args", "found"), [
    ((), True),
    (("--select", "SC1"), False),
    (("--select", "SC1,SC301"), True),
    (("--select", "SC1", "--select", "SC3"), True),
    (("--select", "ALL"), True),
    (("--ignore", "SC301"), False),
    (("--ignore", "SC3"), False),
    (("--ignore", "SC3", "--extend-select", "SC301"), True),  # the more specific selector wins, as in ruff
    (("--select", "SC1", "--extend-select", "SC301"), True),
])
def test_select_ignore_extend_select(project: Path, args: tuple[str, ...], found: bool) -> None:
    write(project / "model.py", BUGGY)
    result = lint(*args, "model.py")
    assert result.exit_code == (1 if found else 0), result.output
    assert reported(result) == (["model.py:2:5: SC301"] if found else [])


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_selector_on_the_command_line_is_exit_2_naming_it(project: Path, option: str) -> None:
    write(project / "model.py", BUGGY)
    result = lint(option, "SC9Z", "model.py")
    assert result.exit_code == 2
    assert "SC9Z" in result.stderr and option in result.stderr
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------------------------- output formats


def test_json_is_pure_json_on_stdout(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("--output-format", "json")
    assert result.exit_code == 1
    records = json.loads(result.stdout)
    assert [(r["code"], r["filename"].endswith("model.py"), r["location"]["row"]) for r in records] == [
        ("SC301", True, 2)]
    assert records[0]["fix"]["applicability"] == "safe"


def test_sarif_is_pure_json_on_stdout(project: Path) -> None:
    write(project / "model.py", BUGGY)
    document = json.loads(lint("--output-format", "sarif").stdout)
    assert document["version"] == "2.1.0"
    assert [r["ruleId"] for r in document["runs"][0]["results"]] == ["SC301"]


def test_github_annotations(project: Path) -> None:
    write(project / "model.py", BUGGY)
    lines = lint("--output-format", "github").stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("::") and "SC301" in lines[0]


def test_concise_has_one_line_per_finding_and_quiet_drops_the_summary(project: Path) -> None:
    write(project / "a.py", BUGGY)
    write(project / "b.py", BUGGY)
    loud = lint("--output-format", "concise").stdout.splitlines()
    quiet = lint("--output-format", "concise", "--quiet").stdout.splitlines()
    assert [line.split(" ", 2)[:2] for line in quiet] == [["a.py:2:5:", "SC301"], ["b.py:2:5:", "SC301"]]
    assert loud[:2] == quiet and len(loud) > 2  # the summary follows


def test_statistics_replace_the_listing(project: Path) -> None:
    write(project / "a.py", BUGGY)
    write(project / "b.py", BUGGY)
    result = lint("--statistics")
    assert result.exit_code == 1
    assert result.stdout.split()[:2] == ["2", "SC301"]
    assert reported(result) == []


def test_output_is_the_same_serial_and_parallel(project: Path) -> None:
    for index in range(12):
        write(project / f"m{index:02}.py", BUGGY if index % 3 else CLEAN)
    serial = lint("--jobs", "1", "--output-format", "concise")
    parallel = lint("--jobs", "2", "--output-format", "concise")
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout
    assert len(reported(serial)) == 8


# ---------------------------------------------------------------------------------------------- suppression


@pytest.mark.parametrize(("source", "found"), [
    (BUGGY.replace(".log()\n", ".log()  # noqa\n"), False),
    (BUGGY.replace(".log()\n", ".log()  # noqa: SC301\n"), False),
    (BUGGY.replace(".log()\n", ".log()  # noqa: SC101, SC301\n"), False),
    (BUGGY.replace(".log()\n", ".log()  # noqa: SC101\n"), True),
    ("# shapecheck: noqa\n" + BUGGY, False),
    ("x = 1  # shapecheck: noqa\n" + BUGGY, True),  # only on a line of its own
])
def test_noqa(project: Path, source: str, found: bool) -> None:
    write(project / "model.py", source)
    assert lint("model.py").exit_code == (1 if found else 0)


# -------------------------------------------------------------------------------------------- standard input


def test_stdin_with_filename(project: Path) -> None:
    result = lint("-", "--stdin-filename", "pkg/model.py", "--output-format", "concise", stdin=BUGGY)
    assert result.exit_code == 1
    assert reported(result) == ["pkg/model.py:2:5: SC301"]


def test_stdin_without_filename_is_named_dash(project: Path) -> None:
    result = lint("-", "--output-format", "concise", stdin=BUGGY)
    assert reported(result) == ["-:2:5: SC301"]


def test_stdin_filename_alone_reads_stdin(project: Path) -> None:
    assert reported(lint("--stdin-filename", "m.py", "--output-format", "concise", stdin=BUGGY)) == ["m.py:2:5: SC301"]


def test_stdin_fix_prints_the_fixed_source_and_findings_go_to_stderr(project: Path) -> None:
    result = lint("-", "--fix", stdin=BUGGY)
    assert result.exit_code == 0
    assert result.stdout == FIXED
    assert "1 fixed" in result.stderr


def test_stdin_fix_of_clean_source_echoes_it(project: Path) -> None:
    result = lint("-", "--fix", stdin=CLEAN)
    assert (result.exit_code, result.stdout) == (0, CLEAN)


def test_stdin_diff(project: Path) -> None:
    result = lint("-", "--diff", "--stdin-filename", "m.py", stdin=BUGGY)
    assert result.exit_code == 1
    assert "-y = F.softmax(x, dim=-1).log()\n+y = F.log_softmax(x, dim=-1)\n" in result.stdout


def test_stdin_per_file_ignores_use_the_stdin_filename(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.shapecheck]\nper-file-ignores = { "tests/*" = ["SC301"] }\n')
    assert lint("-", "--stdin-filename", "tests/t.py", stdin=BUGGY).exit_code == 0
    assert lint("-", "--stdin-filename", "src/t.py", stdin=BUGGY).exit_code == 1


def test_stdin_force_exclude(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.shapecheck]\nextend-exclude = ["generated"]\n')
    result = lint("-", "--force-exclude", "--stdin-filename", "generated/m.py", stdin=BUGGY)
    assert (result.exit_code, reported(result)) == (0, [])
    assert lint("-", "--stdin-filename", "generated/m.py", stdin=BUGGY).exit_code == 1


@pytest.mark.parametrize("args", [("-", "model.py"), ("model.py", "--stdin-filename", "x.py")])
def test_stdin_misuse_is_a_usage_error(project: Path, args: tuple[str, ...]) -> None:
    write(project / "model.py", BUGGY)
    result = lint(*args, stdin=BUGGY)
    assert result.exit_code == 2
    assert "standard input" in result.stderr


# ------------------------------------------------------------------------------------------ rules and rule


def test_rules_lists_every_rule_with_default_and_fix() -> None:
    result = CliRunner().invoke(main, ["rules"])
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:]}
    assert rows["SC301"] == ["SC301", "log-of-softmax", "yes", "safe"]
    assert rows["SC000"][1] == "syntax-error" and rows["SC999"][1] == "internal-error"
    from shapecheck.engine.registry import all_rules
    assert {rule.code for rule in all_rules()} <= set(rows)


@pytest.mark.parametrize("code", ["SC301", "sc301"])
def test_rule_prints_its_docs(code: str) -> None:
    result = CliRunner().invoke(main, ["rule", code])
    assert result.exit_code == 0
    assert result.stdout.startswith("# log-of-softmax (SC301)")
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in result.stdout
    assert "primer" in result.stdout


def test_rule_for_an_engine_code() -> None:
    result = CliRunner().invoke(main, ["rule", "SC000"])
    assert result.exit_code == 0 and "syntax-error" in result.stdout


def test_unknown_rule_is_exit_2() -> None:
    result = CliRunner().invoke(main, ["rule", "SC7777"])
    assert result.exit_code == 2 and "SC7777" in result.stderr


# ----------------------------------------------------------------------------------------- the real command


def run_command(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shapecheck", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_python_m_shapecheck(tmp_path: Path) -> None:
    write(tmp_path / "model.py", BUGGY)
    write(tmp_path / "clean.py", CLEAN)
    result = run_command("lint", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("model.py:2:5: SC301 ")
    assert run_command("lint", "clean.py", cwd=tmp_path).returncode == 0
    assert run_command("--version", cwd=tmp_path).stdout.strip().endswith("0.1.0")


@pytest.mark.skipif(shutil.which("shapecheck") is None, reason="the console script is not installed")
def test_console_script_in_parallel(tmp_path: Path) -> None:
    for index in range(20):
        write(tmp_path / "pkg" / f"m{index:02}.py", BUGGY)
    result = subprocess.run(["shapecheck", "lint", "--jobs", "4", "--output-format", "concise", "pkg"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert [line.split(":")[0] for line in result.stdout.splitlines()[:20]] == [
        os.path.join("pkg", f"m{index:02}.py") for index in range(20)]
