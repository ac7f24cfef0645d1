"""The output formats, statistics and summary, on findings built by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck import __version__, urls
from shapecheck.engine import Rule
from shapecheck.findings import INTERNAL_ERROR, SYNTAX_ERROR, Edit, Finding, FixInfo, Location
from shapecheck.reporters import FORMATS, render, statistics, summary
from shapecheck.rules.log_of_softmax import LogOfSoftmax

SOFTMAX_LINE = "log_probs = F.softmax(logits, dim=-1).log()"
SAFE_FIX = FixInfo("safe", "Use `log_softmax`",
                   (Edit("F.log_softmax(logits, dim=-1)", Location(3, 13), Location(3, 44)),))
UNSAFE_FIX = FixInfo("unsafe", "Use `.reshape`", (Edit("reshape", Location(5, 20), Location(5, 24)),))


class StubRule(Rule):
    """A stand-in second rule (fixable only unsafely), so SARIF's rule table has more than one entry."""

    code = "SC101"
    name = "view-after-transpose"
    message = "`.view()` after `.transpose()` fails on a non-contiguous tensor"
    docs = """
        ## What it does
        Finds `.view()` on a transposed tensor.
    """
    fixable = "unsafe"


RULES = (StubRule, LogOfSoftmax)


def finding(code: str = "SC301", *, filename: str = "fixtures/buggy/x.py", row: int = 3, column: int = 13,
            end: tuple[int, int] | None = None, fix: FixInfo | None = None, message: str | None = None,
            source_line: str = SOFTMAX_LINE) -> Finding:
    rule = {rule.code: rule for rule in RULES}.get(code)
    name = rule.name if rule else {SYNTAX_ERROR: "syntax-error", INTERNAL_ERROR: "internal-error"}[code]
    end_row, end_column = end or (row, column + 31)
    return Finding(code, name, message or (rule.message if rule else "SyntaxError: invalid syntax"), filename,
                   Location(row, column), Location(end_row, end_column), fix, source_line)


def softmax(**changes) -> Finding:
    return finding(**({"fix": SAFE_FIX} | changes))


def view(**changes) -> Finding:
    defaults = dict(row=5, column=9, end=(5, 28), fix=UNSAFE_FIX, source_line="y = x.transpose(0, 1).view(-1)")
    return finding("SC101", **(defaults | changes))


# ------------------------------------------------------------------------------------------------ full, concise


def test_full_draws_ruffs_snippet():
    assert render("full", [softmax()], RULES) == (
        "fixtures/buggy/x.py:3:13: SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`\n"
        "  |\n"
        "3 | log_probs = F.softmax(logits, dim=-1).log()\n"
        "  |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ SC301\n"
        "  |\n"
        "  = help: Use `log_softmax`\n"
    )


def test_full_separates_findings_by_a_blank_line_and_widens_the_gutter():
    text = render("full", [softmax(), finding(row=120, message="m")], RULES)
    first, second = text.split("\n\n", 1)
    assert first.endswith("  = help: Use `log_softmax`")
    assert second.splitlines()[1:4] == ["    |", f"120 | {SOFTMAX_LINE}", "    |             " + "^" * 31 + " SC301"]


def test_full_underlines_to_the_end_of_the_line_when_the_span_goes_on():
    text = render("full", [finding(column=5, end=(4, 5), source_line="x = torch.cat(")], RULES)
    assert "  |     ^^^^^^^^^^ SC301\n" in text


def test_full_gives_an_empty_span_one_caret():
    text = render("full", [finding(SYNTAX_ERROR, column=15, end=(3, 15), source_line="from os import")], RULES)
    assert "3 | from os import\n  |               ^ SC000\n" in text


def test_full_expands_tabs_to_tab_stops_and_keeps_the_caret_under_the_code():
    # "\tif\tx:" -> "    if  x:" : the second tab only fills up to the next stop at 8.
    text = render("full", [finding(column=5, end=(3, 6), source_line="\tif\tx:")], RULES)
    assert "3 |     if  x:\n  |         ^ SC301\n" in text


def test_full_counts_wide_characters_as_two_cells():
    text = render("full", [finding(column=10, end=(3, 11), source_line='s = "表"; x')], RULES)
    assert '3 | s = "表"; x\n  |           ^ SC301\n' in text


def test_full_widths_agree_with_unicodedata():
    import unicodedata

    from shapecheck.reporters.full import _width

    def width(char: str) -> int:
        return 0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1

    # Past the first combining mark (U+0300) and the first wide character (U+1100), and some CJK and fullwidth ones.
    for code in [*range(0x1200), *range(0x3000, 0x3010), *range(0xFF00, 0xFF10)]:
        assert _width(chr(code)) == width(chr(code)), hex(code)


def test_full_shows_control_characters_visibly():
    text = render("full", [finding(column=8, end=(3, 9), source_line='s = "\x1b\x7f"; x')], RULES)
    assert '3 | s = "\u241b\u2421"; x\n  |        ^ SC301\n' in text


def test_full_omits_the_snippet_without_a_source_line():
    assert render("full", [finding(INTERNAL_ERROR, row=1, column=1, end=(1, 1), message="rule crashed",
                                   source_line="")], RULES) == "fixtures/buggy/x.py:1:1: SC999 rule crashed\n"


def test_concise_marks_only_fixes_that_would_apply():
    assert render("concise", [softmax(), view(), finding(row=7, message="no fix")], RULES) == (
        "fixtures/buggy/x.py:3:13: SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`\n"
        "fixtures/buggy/x.py:5:9: SC101 `.view()` after `.transpose()` fails on a non-contiguous tensor\n"
        "fixtures/buggy/x.py:7:13: SC301 no fix"
    )
    assert "SC101 [*] `.view()`" in render("concise", [view()], RULES, unsafe_fixes=True)


def test_concise_keeps_one_finding_per_line():
    text = render("concise", [finding(INTERNAL_ERROR, message="rule crashed: boom\nTraceback\r\nend")], RULES)
    assert text == "fixtures/buggy/x.py:3:13: SC999 rule crashed: boom Traceback end"


@pytest.mark.parametrize("output_format", ["full", "concise", "github"])
def test_text_formats_print_nothing_for_no_findings(output_format):
    assert render(output_format, [], RULES) == ""


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="unknown output format 'text'"):
        render("text", [], RULES)
    assert FORMATS == ("full", "concise", "grouped", "json", "json-lines", "junit", "sarif", "github", "gitlab", "pylint")


# --------------------------------------------------------------------------------------------------------- json


def test_json_has_ruffs_keys_in_ruffs_order():
    text = render("json", [softmax(), finding(SYNTAX_ERROR, end=(3, 13))], RULES)
    records = json.loads(text)
    assert list(records[0]) == ["cell", "code", "end_location", "filename", "fix", "location", "message", "name",
                                "noqa_row", "severity", "url"]
    assert records[0] == {
        "cell": None,
        "code": "SC301",
        "end_location": {"column": 44, "row": 3},
        "filename": os.path.abspath("fixtures/buggy/x.py"),  # absolute, as ruff writes it
        "fix": {
            "applicability": "safe",
            "edits": [{"content": "F.log_softmax(logits, dim=-1)", "end_location": {"column": 44, "row": 3},
                       "location": {"column": 13, "row": 3}}],
            "message": "Use `log_softmax`",
        },
        "location": {"column": 13, "row": 3},
        "message": LogOfSoftmax.message,
        "name": "log-of-softmax",
        "noqa_row": 3,
        "severity": "error",
        "url": LogOfSoftmax.url(),
    }
    assert text.startswith('[\n  {\n    "cell": null,')  # indent=2, like ruff


def test_json_engine_codes_have_no_url_and_no_noqa_row():
    record, = json.loads(render("json", [finding(SYNTAX_ERROR, end=(3, 13))], RULES))
    assert (record["fix"], record["noqa_row"], record["url"]) == (None, None, None)


def test_json_round_trips_special_characters():
    message = 'bad "shape" 100% \\ wrong\nsecond line'
    record, = json.loads(render("json", [finding(message=message, filename="dir with space/ä.py")], RULES))
    assert (record["message"], record["filename"]) == (message, os.path.abspath("dir with space/ä.py"))


def test_json_of_nothing_is_an_empty_array():
    assert render("json", [], RULES) == "[]"


# -------------------------------------------------------------------------------------------------------- sarif


@pytest.fixture
def repository(tmp_path, monkeypatch) -> Path:
    """A checkout to run in: a folder with `.git`, made the current directory."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def sarif(findings, rules=RULES) -> dict:
    return json.loads(render("sarif", findings, rules))


def test_sarif_log_has_schema_version_and_one_run(repository):
    log = sarif([])
    assert (log["$schema"], log["version"]) == ("https://json.schemastore.org/sarif-2.1.0.json", "2.1.0")
    run, = log["runs"]
    assert run["results"] == []
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("shapecheck", __version__)
    assert driver.get("informationUri") == urls.REPOSITORY  # None until one is published: tests/test_urls.py


def test_sarif_lists_each_enabled_rule_once_with_its_docs(repository):
    rules = sarif([], RULES + (LogOfSoftmax,))["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["SC101", "SC301"]
    entry = rules[1]
    assert entry["name"] == "log-of-softmax"
    assert entry["shortDescription"] == {"text": LogOfSoftmax.message}
    assert entry["fullDescription"] == {"text": LogOfSoftmax.documentation()}
    assert entry["help"] == {"text": LogOfSoftmax.documentation(), "markdown": LogOfSoftmax.documentation()}
    assert entry.get("helpUri") == LogOfSoftmax.url()  # None until a repository is published: test_urls.py
    assert entry["defaultConfiguration"] == {"level": "error"}
    assert entry["properties"]["tags"] == ["pytorch", "fixable"]


def test_sarif_results_point_at_their_rule(repository):
    findings = [view(), softmax(), finding(SYNTAX_ERROR, filename="b.py", end=(3, 13)),
                finding(INTERNAL_ERROR, filename="c.py", message="rule crashed")]
    run = sarif(findings)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert ids == ["SC101", "SC301", SYNTAX_ERROR, INTERNAL_ERROR]  # engine codes added after the enabled rules
    assert len(set(ids)) == len(ids)
    for result, source in zip(run["results"], findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == source.code
        assert result["level"] == "error"
        assert result["message"] == {"text": source.message}
        location, = result["locations"]
        assert location["physicalLocation"]["region"] == {
            "startLine": source.location.row, "startColumn": source.location.column,
            "endLine": source.end_location.row, "endColumn": source.end_location.column,
        }
    assert rules[2]["shortDescription"]["text"] and "helpUri" not in rules[2]


def test_sarif_uris_are_relative_to_the_repository_root_with_forward_slashes(repository, monkeypatch):
    (repository / "pkg").mkdir()
    monkeypatch.chdir(repository / "pkg")  # run from a subfolder: GitHub still resolves against the root
    findings = [softmax(filename="models/net.py"), softmax(filename=str(repository / "pkg" / "a b#1%.py"))]
    results = sarif(findings)["runs"][0]["results"]
    artifacts = [result["locations"][0]["physicalLocation"]["artifactLocation"] for result in results]
    assert artifacts == [{"uri": "pkg/models/net.py", "uriBaseId": "%SRCROOT%"},
                         {"uri": "pkg/a%20b%231%25.py", "uriBaseId": "%SRCROOT%"}]


def test_sarif_uri_outside_the_repository_is_an_absolute_file_uri(repository, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "x.py"
    result, = sarif([softmax(filename=str(outside))])["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": outside.as_uri()}


def test_sarif_without_a_repository_is_relative_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if any((folder / ".git").exists() for folder in tmp_path.parents):
        pytest.skip("the temporary folder lies inside a git checkout")
    result, = sarif([softmax(filename="./src/../m.py")])["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "m.py"


# ------------------------------------------------------------------------------------------------------- github


def test_github_annotation_is_ruffs(repository):
    assert render("github", [softmax()], RULES) == (
        "::error title=shapecheck (SC301),file=fixtures/buggy/x.py,line=3,col=13,endLine=3,endColumn=44::"
        "fixtures/buggy/x.py:3:13: SC301 log of softmax is numerically unstable: use `log_softmax(..., dim=...)`"
    )


def test_github_multi_line_annotation_names_lines_only(repository):
    line = render("github", [softmax(end=(5, 2))], RULES)
    assert ",line=3,endLine=5::" in line and "col=" not in line and "endColumn=" not in line


def test_github_escapes_data_and_properties(repository):
    annotation = render("github", [finding(filename="a,b:c%.py", message="100% wrong\r\nnext, line: x")], RULES)
    properties, data = annotation.split("::", 2)[1:]
    assert properties == "error title=shapecheck (SC301),file=a%2Cb%3Ac%25.py,line=3,col=13,endLine=3,endColumn=44"
    assert data == "a,b:c%25.py:3:13: SC301 100%25 wrong%0D%0Anext, line: x"
    assert "\n" not in annotation


def test_github_one_line_per_finding(repository):
    assert len(render("github", [softmax(), view()], RULES).split("\n")) == 2


# --------------------------------------------------------------------------------------------------- statistics


def test_statistics_most_frequent_first_then_by_code():
    findings = [view(), softmax(), softmax(), finding(SYNTAX_ERROR), finding(INTERNAL_ERROR), softmax(fix=None)]
    assert statistics(findings) == (
        "3\tSC301\t[-] log-of-softmax\n"
        "1\tSC000\t[ ] syntax-error\n"
        "1\tSC101\t[ ] view-after-transpose\n"
        "1\tSC999\t[ ] internal-error"
    )


def test_statistics_count_unsafe_fixes_only_when_enabled():
    assert statistics([view()], unsafe_fixes=True) == "1\tSC101\t[*] view-after-transpose"


def test_statistics_right_align_counts_and_omit_markers_when_nothing_is_fixable():
    findings = [finding(SYNTAX_ERROR)] * 10 + [view(fix=None)]
    assert statistics(findings) == "10\tSC000\tsyntax-error\n 1\tSC101\tview-after-transpose"
    assert statistics([]) == ""


# ------------------------------------------------------------------------------------------------------ summary


@pytest.mark.parametrize(("findings", "fixed", "unsafe_shown", "expected"), [
    ([], 0, False, "All checks passed!"),
    ([finding()], 0, False, "Found 1 error."),
    ([finding(), finding()], 0, False, "Found 2 errors."),
    ([], 1, False, "Found 1 error (1 fixed, 0 remaining)."),
    ([finding()], 2, False, "Found 3 errors (2 fixed, 1 remaining)."),
    ([softmax(), softmax()], 0, False, "Found 2 errors.\n[*] 2 fixable with the `--fix` option."),
    ([softmax(), view()], 0, False,
     "Found 2 errors.\n[*] 1 fixable with the `--fix` option "
     "(1 hidden fix can be enabled with the `--unsafe-fixes` option)."),
    ([view(), view()], 0, False,
     "Found 2 errors.\nNo fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option)."),
    ([softmax(), view()], 0, True, "Found 2 errors.\n[*] 2 fixable with the `--fix` option."),
])
def test_summary_words_it_like_ruff(findings, fixed, unsafe_shown, expected):
    assert summary(findings, fixed, unsafe_shown) == expected


# ------------------------------------------------------------------------------------------------ dependencies


def test_full_shows_a_line_of_narrow_characters_without_unicodedata():
    # Loading it costs a one-file lint 1.6 million instructions; a line of ASCII has nothing wide or combining.
    code = ("import sys\n"
            "from shapecheck.findings import Finding, Location\n"
            "from shapecheck.reporters import render\n"
            "text = render('full', [Finding('SC301', 'log-of-softmax', 'm', 'x.py', Location(1, 9), Location(1, 12),"
            " source_line='x = y\\tz(w)  # é')], ())\n"
            "assert '  |           ^^^ SC301' in text, text\n"
            "assert 'unicodedata' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_reporters_import_neither_libcst_nor_torch():
    code = ("import sys, shapecheck.reporters\n"
            "assert not {'libcst', 'torch'} & set(sys.modules), sorted({'libcst', 'torch'} & set(sys.modules))")
    subprocess.run([sys.executable, "-c", code], check=True)
