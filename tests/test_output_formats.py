"""The formats CI systems read (junit, gitlab, json-lines, grouped, pylint), each in ruff 0.17's layout (checked
side by side with `ruff check --output-format ...` on the same kind of findings), and a file name that is not
UTF-8 in every format, read back by strict UTF-8 decoders, JSON and XML parsers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from shapecheck.findings import SYNTAX_ERROR, Location
from shapecheck.reporters import FORMATS, render
from shapecheck.reporters.paths import shown
from tests.cli_helpers import BUGGY, lint, write
from tests.test_reporters import RULES, finding, softmax, view


@pytest.fixture
def repository(tmp_path, monkeypatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI_PROJECT_DIR", raising=False)
    return tmp_path


# ------------------------------------------------------------------------------------------------ grouped


def test_grouped_puts_findings_under_their_file_with_aligned_positions():
    findings = [softmax(), view(row=12, column=9, end=(12, 20)), finding(filename="other.py", row=1, column=1)]
    assert render("grouped", findings, RULES) == (
        "fixtures/buggy/x.py:\n"
        "   3:13 SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`\n"
        "  12:9  SC101 `.view()` after `.transpose()` fails on a non-contiguous tensor\n"
        "\n"
        "other.py:\n"
        "  1:1 SC301 log of softmax is numerically unstable: use `log_softmax(..., dim=...)`\n"
    )
    assert render("grouped", [], RULES) == ""


def test_grouped_ends_with_the_summary_on_the_command_line(project: Path) -> None:
    write(project / "model.py", BUGGY)
    result = lint("--output-format", "grouped", "model.py")
    assert result.stdout == ("model.py:\n  2:5 SC301 [*] log of softmax is numerically unstable: use "
                             "`log_softmax(..., dim=...)`\n\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n")
    assert result.exit_code == 1


# ------------------------------------------------------------------------------------------------- pylint


def test_pylint_is_path_row_code_message():
    assert render("pylint", [softmax(), finding(SYNTAX_ERROR, row=7, message="SyntaxError: bad\nthing")], RULES) == (
        "fixtures/buggy/x.py:3: [SC301] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`\n"
        "fixtures/buggy/x.py:7: [SC000] SyntaxError: bad thing")


def test_pylint_places_a_notebook_finding_in_the_ipynb_file():
    cell = finding(row=2, column=5)
    cell = cell._replace(filename="nb.ipynb", cell=3, file_location=Location(40, 9), file_end_location=Location(40, 20))
    assert render("pylint", [cell], RULES).startswith("nb.ipynb:40: [SC301] ")


# ------------------------------------------------------------------------------------------------- json-lines


def test_json_lines_are_the_json_records_one_per_line():
    findings = [softmax(), view()]
    lines = render("json-lines", findings, RULES).split("\n")
    assert [json.loads(line) for line in lines] == json.loads(render("json", findings, RULES))
    assert lines[0].startswith('{"cell":null,"code":"SC301","end_location":{"column":44,"row":3},')
    assert render("json-lines", [], RULES) == ""


# ------------------------------------------------------------------------------------------------------ junit


def test_junit_is_ruffs_report():
    text = render("junit", [softmax(), finding(filename="b.py", row=9, column=2, message='a <b> & "c"')], RULES)
    path = os.path.abspath("fixtures/buggy/x.py")
    assert text.splitlines()[:9] == [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="shapecheck" tests="2" skipped="0" failures="2" errors="0">',
        f'    <testsuite name="{path}" tests="1" skipped="0" errors="0" failures="1" package="org.shapecheck">',
        f'        <testcase name="org.shapecheck.SC301" classname="{path[:-3]}" line="3" column="13">',
        "            <properties>",
        '                <property name="severity" value="error"/>',
        "            </properties>",
        '            <failure message="log of softmax is numerically unstable: use `log_softmax(..., dim=...)`">'
        "line 3, col 13, log of softmax is numerically unstable: use `log_softmax(..., dim=...)`</failure>",
        "        </testcase>",
    ]
    root = ElementTree.fromstring(text.encode("utf-8"))
    failures = [case.find("failure") for suite in root for case in suite]
    assert failures[1].get("message") == 'a <b> & "c"' and failures[1].text == 'line 9, col 2, a <b> & "c"'


def test_junit_without_findings_is_one_passing_case():
    root = ElementTree.fromstring(render("junit", [], RULES))
    assert root.get("failures") == "0" and root.get("tests") == "1"
    [suite] = root
    [case] = suite
    assert (case.get("name"), case.find("failure")) == ("No errors found", None)


def test_junit_escapes_what_xml_cannot_carry():
    text = render("junit", [finding(message="escape \x1b[31m and nul \x00\nnext")], RULES)
    case = ElementTree.fromstring(text)[0][0]
    assert case.find("failure").get("message") == "escape \\x1b[31m and nul \\x00\nnext"


# ----------------------------------------------------------------------------------------------------- gitlab


def test_gitlab_is_code_quality_json_in_ruffs_key_order(repository):
    (repository / "src").mkdir()
    issue, = json.loads(render("gitlab", [softmax(filename="src/m.py")], RULES))
    assert list(issue) == ["check_name", "description", "severity", "fingerprint", "location"]
    assert issue["check_name"] == "SC301"
    assert issue["description"].startswith("SC301: log of softmax")
    assert issue["severity"] == "major"
    assert issue["location"] == {"path": "src/m.py",
                                 "positions": {"begin": {"line": 3, "column": 13}, "end": {"line": 3, "column": 44}}}


def test_gitlab_paths_are_relative_to_the_ci_project_dir(repository, monkeypatch):
    monkeypatch.setenv("CI_PROJECT_DIR", str(repository.parent))
    issue, = json.loads(render("gitlab", [softmax(filename="m.py")], RULES))
    assert issue["location"]["path"] == f"{repository.name}/m.py"


def test_gitlab_warnings_are_minor_and_fingerprints_are_unique_and_stable(repository):
    twins = [softmax(), softmax(row=9), softmax(row=12)._replace(severity="warning")]
    issues = json.loads(render("gitlab", twins, RULES))
    fingerprints = [issue["fingerprint"] for issue in issues]
    assert len(set(fingerprints)) == 3 and all(len(f) == 16 for f in fingerprints)
    assert [issue["severity"] for issue in issues] == ["major", "major", "minor"]
    # Lines moving (an edit above) keep every finding's fingerprint.
    moved = json.loads(render("gitlab", [softmax(row=5), softmax(row=11)], RULES))
    assert [issue["fingerprint"] for issue in moved] == fingerprints[:2]


# ---------------------------------------------------------------------------------- a file name that is not UTF-8


def test_shown_writes_undecodable_bytes_as_escapes():
    name = os.fsdecode(b"dir/caf\xe9.py")
    assert shown(name) == "dir/caf\\xe9.py"
    assert shown("caf\u00e9.py") == "caf\u00e9.py"  # UTF-8 names are left alone
    assert shown("x\ud800.py") == "x\\xed\\xa0\\x80.py"  # a lone surrogate not from a byte
    shown(name).encode("utf-8")  # strict


def _strictly_valid(output_format: str, data: bytes) -> str:
    text = data.decode("utf-8")  # strict: raises on any byte that is not UTF-8
    if output_format in ("json", "sarif", "gitlab"):
        json.loads(text)
    elif output_format == "json-lines":
        for line in text.splitlines():
            json.loads(line)
    elif output_format == "junit":
        ElementTree.fromstring(data)
    return text


@pytest.mark.skipif(sys.platform != "linux", reason="file names are bytes on Linux only")
@pytest.mark.parametrize("output_format", FORMATS)
def test_a_file_name_that_is_not_utf8_gives_valid_output_in_every_format(project: Path, output_format: str) -> None:
    (project / ".git").mkdir()
    os.mkdir(os.fsencode(project / "pkg"))
    with open(os.fsencode(project / "pkg") + b"/caf\xe9.py", "w") as file:
        file.write(BUGGY)
    # The real command, so the real standard output encodes what the reporter wrote.
    environment = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    completed = subprocess.run([sys.executable, "-m", "shapecheck", "lint", "--output-format", output_format, "pkg"],
                               capture_output=True, env=environment, timeout=120)
    assert completed.returncode == 1, completed.stderr
    text = _strictly_valid(output_format, completed.stdout)
    if output_format == "sarif":
        assert "pkg/caf%E9.py" in text  # percent-encoded bytes, as a URI carries them
    elif output_format in ("json", "json-lines", "gitlab"):
        assert "caf\\\\xe9.py" in text  # JSON's escape of the backslash in `caf\xe9.py`
    else:
        assert "caf\\xe9.py" in text
