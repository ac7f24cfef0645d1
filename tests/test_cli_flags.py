"""ruff's `check` flags as shapecheck takes them: --fail-on, --fix-only, --show-fixes, --exit-non-zero-on-fix,
--isolated, --exclude / --extend-exclude, --per-file-ignores / --extend-per-file-ignores (negated patterns too),
--config KEY=VALUE, --no-respect-gitignore, --fixable / --unfixable. Each expectation follows ruff 0.17's behaviour
for the same layout, checked side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import BUGGY, FIXED, lint, reported, write

# SC301 (an error, safe fix) at 2:5 and SC402 (a warning, safe fix) at 4:10.
BOTH = BUGGY + "import torch\nscaler = torch.cuda.amp.GradScaler()\n"
WARNING_ONLY = "import torch\nscaler = torch.cuda.amp.GradScaler()\n"


def codes(result) -> list[str]:
    return [line.split(": ", 1)[1] for line in reported(result)]


# ----------------------------------------------------------------------------------------------- --fail-on


def test_fail_on_error_prints_warnings_but_exits_0_for_them(project: Path) -> None:
    write(project / "w.py", WARNING_ONLY)
    result = lint("--output-format", "concise", "--fail-on", "error", "w.py")
    assert (result.exit_code, codes(result)) == (0, ["SC402"])
    assert lint("w.py").exit_code == 1  # the default threshold: any finding fails, as in ruff
    assert lint("--fail-on", "warning", "w.py").exit_code == 1


def test_fail_on_error_still_fails_on_an_error(project: Path) -> None:
    write(project / "m.py", BOTH)
    assert lint("--fail-on", "error", "m.py").exit_code == 1


def test_fail_on_from_the_configuration_and_the_command_line_over_it(project: Path) -> None:
    write(project / "w.py", WARNING_ONLY)
    write(project / "pyproject.toml", '[tool.shapecheck]\nfail-on = "error"\n')
    assert lint("w.py").exit_code == 0
    assert lint("--fail-on", "warning", "w.py").exit_code == 1


# ----------------------------------------------------------------------------------- fixing: the three flags


def test_fix_only_fixes_and_reports_nothing_left(project: Path) -> None:
    path = write(project / "m.py", BUGGY + "z = F.softmax(y)\n")  # SC302's fix is unsafe: left
    result = lint("--fix-only", "--output-format", "concise", "m.py")
    assert result.exit_code == 0 and reported(result) == []
    assert result.stdout == "Fixed 1 error (1 additional fix available with `--unsafe-fixes`).\n"
    assert path.read_text() == FIXED + "z = F.softmax(y)\n"


def test_fix_only_with_exit_non_zero_on_fix(project: Path) -> None:
    write(project / "m.py", BUGGY)
    assert lint("--fix-only", "--exit-non-zero-on-fix", "m.py").exit_code == 1
    assert lint("--fix-only", "--exit-non-zero-on-fix", "m.py").exit_code == 0  # nothing left to fix


def test_exit_non_zero_on_fix_fails_a_run_that_fixed_everything(project: Path) -> None:
    write(project / "m.py", BUGGY)
    result = lint("--fix", "--exit-non-zero-on-fix", "m.py")
    assert result.exit_code == 1 and "Found 1 error (1 fixed, 0 remaining)." in result.stdout
    write(project / "m.py", BUGGY)
    assert lint("--fix", "m.py").exit_code == 0


def test_show_fixes_lists_the_fixes_by_file_and_rule(project: Path) -> None:
    write(project / "a.py", BOTH)
    write(project / "b.py", BUGGY + "w = F.softmax(v, dim=0).log()\n")
    result = lint("--fix", "--show-fixes", ".")
    assert result.stdout == ("\nFixed 4 errors:\n- a.py:\n    1 × SC301 (log-of-softmax)\n"
                             "    1 × SC402 (deprecated-cuda-amp)\n- b.py:\n    2 × SC301 (log-of-softmax)\n\n"
                             "Found 4 errors (4 fixed, 0 remaining).\n")


def test_fix_from_the_configuration_and_no_fix_over_it(project: Path) -> None:
    path = write(project / "m.py", BUGGY)
    write(project / "pyproject.toml", "[tool.shapecheck]\nfix = true\n")
    assert lint("--no-fix", "m.py").exit_code == 1 and path.read_text() == BUGGY
    assert lint("m.py").exit_code == 0 and path.read_text() == FIXED


def test_unsafe_fixes_from_the_configuration(project: Path) -> None:
    path = write(project / "m.py", "import torch.nn.functional as F\nz = F.softmax(y)\n")
    write(project / "pyproject.toml", "[tool.shapecheck]\nunsafe-fixes = true\n")
    assert lint("--fix", "m.py").exit_code == 0 and "dim=-1" in path.read_text()


@pytest.mark.parametrize("args", [("--unfixable", "SC402"), ("--fixable", "SC3"), ("--fixable", "SC3,SC1"),
                                  ("--config", "unfixable = ['SC4']"),
                                  ("--fixable", "SC4", "--unfixable", "SC402", "--extend-fixable", "SC3")])
def test_unfixable_codes_are_neither_fixed_nor_offered(project: Path, args: tuple[str, ...]) -> None:
    path = write(project / "m.py", BOTH)
    result = lint("--output-format", "json", *args, "m.py")
    fixes = {record["code"]: record["fix"] is not None for record in json.loads(result.stdout)}
    assert fixes == {"SC301": True, "SC402": False}
    result = lint("--fix", "--output-format", "concise", *args, "m.py")
    assert codes(result) == ["SC402"] and "[*]" not in result.stdout
    assert "GradScaler()" in path.read_text() and "log_softmax" in path.read_text()


def test_unfixable_in_the_configuration(project: Path) -> None:
    write(project / "m.py", BOTH)
    write(project / "pyproject.toml", '[tool.shapecheck]\nunfixable = ["SC402"]\n')
    assert codes(lint("--fix", "--output-format", "concise", "m.py")) == ["SC402"]


# ------------------------------------------------------------------------------------------ which files


def test_isolated_reads_no_configuration(project: Path) -> None:
    write(project / "m.py", BUGGY)
    write(project / "pyproject.toml", '[tool.shapecheck]\nignore = ["SC3"]\n')
    assert lint("m.py").exit_code == 0
    assert lint("--isolated", "m.py").exit_code == 1
    assert lint("--isolated", "--config", "ignore = ['SC3']", "m.py").exit_code == 0  # overrides still apply
    result = lint("--isolated", "--config", "pyproject.toml", "m.py")
    assert result.exit_code == 2 and "--isolated" in result.output


def test_exclude_and_extend_exclude_on_the_command_line(project: Path) -> None:
    for name in ("a/m.py", "b/m.py", "build/m.py"):
        write(project / name, BUGGY)
    write(project / "pyproject.toml", '[tool.shapecheck]\nextend-exclude = ["a"]\n')
    assert sorted(reported(lint("--output-format", "concise"))) == ["b/m.py:2:5: SC301"]
    # --exclude replaces every configured exclude (the defaults too); --extend-exclude adds to them.
    assert sorted(reported(lint("--output-format", "concise", "--exclude", "b"))) == [
        "a/m.py:2:5: SC301", "build/m.py:2:5: SC301"]
    assert reported(lint("--output-format", "concise", "--extend-exclude", "b")) == []
    assert reported(lint("--output-format", "concise", "--exclude", "a,b", "--extend-exclude", "build")) == []


def test_no_force_exclude_undoes_force_exclude(project: Path) -> None:
    write(project / "build" / "m.py", BUGGY)
    assert reported(lint("--output-format", "concise", "--force-exclude", "build/m.py")) == []
    assert reported(lint("--output-format", "concise", "--force-exclude", "--no-force-exclude", "build/m.py")) == [
        "build/m.py:2:5: SC301"]


def test_per_file_ignores_on_the_command_line(project: Path) -> None:
    write(project / "tests" / "t.py", BOTH)
    write(project / "src" / "m.py", BOTH)
    write(project / "pyproject.toml", '[tool.shapecheck]\nper-file-ignores = { "src/*" = ["SC4"] }\n')
    assert sorted(reported(lint("--output-format", "concise"))) == [
        "src/m.py:2:5: SC301", "tests/t.py:2:5: SC301", "tests/t.py:4:10: SC402"]
    # --per-file-ignores replaces the configured ones; --extend-per-file-ignores adds to them.
    assert sorted(reported(lint("--output-format", "concise", "--per-file-ignores", "tests/*:SC3,SC4"))) == [
        "src/m.py:2:5: SC301", "src/m.py:4:10: SC402"]
    assert sorted(reported(lint("--output-format", "concise", "--extend-per-file-ignores", "tests/*:SC3"))) == [
        "src/m.py:2:5: SC301", "tests/t.py:4:10: SC402"]
    result = lint("--per-file-ignores", "tests/*")
    assert result.exit_code == 2 and "expected PATTERN:CODES" in result.stderr


@pytest.mark.parametrize("where", ["config", "cli"])
def test_a_negated_per_file_ignore_applies_to_the_files_it_does_not_match(project: Path, where: str) -> None:
    write(project / "pkg" / "m.py", BOTH)
    write(project / "other" / "m.py", BOTH)
    if where == "config":
        write(project / "pyproject.toml", '[tool.shapecheck]\nper-file-ignores = { "!pkg/*" = ["SC3"] }\n')
        args: tuple[str, ...] = ()
    else:
        args = ("--per-file-ignores", "!pkg/*:SC3")
    assert sorted(reported(lint("--output-format", "concise", *args))) == [
        "other/m.py:4:10: SC402", "pkg/m.py:2:5: SC301", "pkg/m.py:4:10: SC402"]


def test_no_respect_gitignore(project: Path) -> None:
    (project / ".git").mkdir()
    write(project / ".gitignore", "generated/\n")
    write(project / "generated" / "m.py", BUGGY)
    assert reported(lint("--output-format", "concise")) == []
    assert reported(lint("--output-format", "concise", "--no-respect-gitignore")) == ["generated/m.py:2:5: SC301"]
    write(project / "pyproject.toml", "[tool.shapecheck]\nrespect-gitignore = false\n")
    assert reported(lint("--output-format", "concise")) == ["generated/m.py:2:5: SC301"]
    assert reported(lint("--output-format", "concise", "--respect-gitignore")) == []


# ----------------------------------------------------------------------------------- --config KEY = VALUE


def test_inline_config_overrides_the_file_and_the_flags_override_it(project: Path) -> None:
    write(project / "m.py", BOTH)
    write(project / "pyproject.toml", '[tool.shapecheck]\nselect = ["SC4"]\n')
    concise = ("--output-format", "concise")
    assert codes(lint(*concise)) == ["SC402"]
    assert codes(lint(*concise, "--config", "select = ['SC3']")) == ["SC301"]
    assert codes(lint(*concise, "--config", "tool.shapecheck.select = ['SC3']")) == ["SC301"]
    # As in ruff: --select beats --config's select, --select beats --config's ignore.
    assert codes(lint(*concise, "--config", "select = ['SC3']", "--select", "SC4")) == ["SC402"]
    assert codes(lint(*concise, "--config", "ignore = ['SC402']", "--select", "SC402")) == ["SC402"]
    assert codes(lint(*concise, "--config", "select = ['SC3']", "--config", "extend-select = ['SC4']")) == [
        "SC301", "SC402"]


def test_inline_config_sets_the_output_format(project: Path) -> None:
    write(project / "m.py", BUGGY)
    assert json.loads(lint("--config", "output-format = 'json'", "m.py").stdout)[0]["code"] == "SC301"


def test_the_output_format_and_file_from_the_environment_as_ruff_s(project: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write(project / "m.py", BUGGY)
    write(project / "pyproject.toml", '[tool.shapecheck]\noutput-format = "grouped"\n')
    monkeypatch.setenv("SHAPECHECK_OUTPUT_FORMAT", "json")
    assert json.loads(lint("m.py").stdout)[0]["code"] == "SC301"  # over the configuration, as a flag
    assert reported(lint("--output-format", "concise", "m.py")) == ["m.py:2:5: SC301"]  # under the flag
    monkeypatch.setenv("SHAPECHECK_OUTPUT_FILE", str(project / "report.json"))
    assert lint("m.py").stdout == ""
    assert json.loads((project / "report.json").read_text())[0]["code"] == "SC301"


@pytest.mark.parametrize(("value", "message"), [
    ("select = 'SC1'", "--config: select: expected a list of rule codes"),
    ("nonsense = 1", "--config: unknown key 'nonsense'"),
    ("select = [", "is neither a configuration file nor a TOML `KEY = VALUE` pair"),
    ("extend = 'x.toml'", "--config: extend: name the file itself with --config PATH"),
    ("file-time-limit = inf", "--config: file-time-limit: expected a number of seconds"),
])
def test_a_bad_inline_config_is_exit_2_naming_it(project: Path, value: str, message: str) -> None:
    write(project / "m.py", BUGGY)
    result = lint("--config", value, "m.py")
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_two_configuration_files_are_refused(project: Path) -> None:
    write(project / "a.toml", "select = ['SC1']\n")
    write(project / "b.toml", "select = ['SC3']\n")
    write(project / "m.py", BUGGY)
    result = lint("--config", "a.toml", "--config", "b.toml", "m.py")
    assert result.exit_code == 2 and "name one configuration file" in result.stderr


# ---------------------------------------------------------------------------------- rule / rules as JSON


def test_rule_as_json_has_ruffs_keys() -> None:
    from click.testing import CliRunner
    from shapecheck.cli import main
    from shapecheck.rules.log_of_softmax import LogOfSoftmax

    record = json.loads(CliRunner().invoke(main, ["rule", "log-of-softmax", "--output-format", "json"]).stdout)
    assert list(record)[:9] == ["name", "code", "linter", "summary", "message_formats", "fix", "fix_availability",
                                "explanation", "preview"]
    assert (record["code"], record["name"], record["fix_applicability"], record["default"]) == (
        "SC301", "log-of-softmax", "safe", True)
    assert record["explanation"] == LogOfSoftmax.documentation()
    every = json.loads(CliRunner().invoke(main, ["rule", "--all", "--output-format", "json"]).stdout)
    listed = json.loads(CliRunner().invoke(main, ["rules", "--output-format", "json"]).stdout)
    assert every == listed and record in every
    assert {"SC000", "SC900", "SC999"} <= {each["code"] for each in every}
    engine = next(each for each in every if each["code"] == "SC000")
    assert (engine["fix"], engine["url"]) == ("Fix is not available.", None)
