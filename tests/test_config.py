"""`[tool.shapecheck]`: finding the file, every key, the command line over it, and the errors it can hold."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shapecheck.config import Config, ConfigError, Resolver, Selection, Settings, find_config, load
from tests.cli_helpers import BUGGY, lint, reported, write

FINDING = "model.py:2:5: SC301"


def pyproject(folder: Path, body: str) -> Path:
    return write(folder / "pyproject.toml", "[project]\nname = 'x'\n\n[tool.shapecheck]\n" + body)


# ------------------------------------------------------------------------------------------------ finding it


def test_the_nearest_pyproject_with_the_table_is_used(project: Path) -> None:
    pyproject(project, 'ignore = ["SC301"]\n')
    write(project / "pkg" / "pyproject.toml", "[project]\nname = 'inner'\n")  # no table: passed over
    write(project / "pkg" / "model.py", BUGGY)
    assert find_config(project / "pkg") == project / "pyproject.toml"
    assert lint("pkg").exit_code == 0


def test_a_nearer_table_wins(project: Path) -> None:
    pyproject(project, 'ignore = ["SC301"]\n')
    pyproject(project / "pkg", "select = ['SC3']\n")
    write(project / "pkg" / "model.py", BUGGY)
    assert lint("pkg").exit_code == 1


def test_the_search_starts_at_the_first_path_not_the_working_directory(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject(tmp_path / "proj", 'ignore = ["SC301"]\n')
    write(tmp_path / "proj" / "model.py", BUGGY)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert lint("../proj/model.py").exit_code == 0
    assert lint("../proj").exit_code == 0


def test_no_pyproject_means_defaults(project: Path) -> None:
    write(project / "model.py", BUGGY)
    assert reported(lint("--output-format", "concise")) == [FINDING]


def test_config_option_names_the_file(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "ci" / "strict.toml", '[tool.shapecheck]\nignore = ["SC3"]\n')
    assert lint("--config", "ci/strict.toml").exit_code == 0
    assert lint().exit_code == 1


# ------------------------------------------------------------------------------------------------- the keys


@pytest.mark.parametrize(("body", "found"), [
    ('select = ["SC1"]\n', False),
    ('select = ["SC3"]\n', True),
    ('ignore = ["SC301"]\n', False),
    ('select = ["SC1"]\nextend-select = ["SC301"]\n', True),
    ('ignore = ["SC3"]\nextend-select = ["SC301"]\n', True),
])
def test_selection_keys(project: Path, body: str, found: bool) -> None:
    pyproject(project, body)
    write(project / "model.py", BUGGY)
    assert lint().exit_code == (1 if found else 0)


@pytest.mark.parametrize(("body", "args", "found"), [
    ('select = ["SC1"]\n', ("--select", "SC3"), True),  # --select replaces the file's select
    ('select = ["SC3"]\n', ("--select", "SC1"), False),
    ('select = ["SC1"]\nextend-select = ["SC301"]\n', ("--select", "SC1"), False),  # ...and its extend-select
    ('select = ["SC1"]\n', ("--extend-select", "SC301"), True),  # --extend-select adds to the file's selection
    ('ignore = ["SC2"]\n', ("--ignore", "SC301"), False),  # --ignore adds to the file's ignores
    ('ignore = ["SC301"]\n', ("--ignore", "SC2"), False),
    ('ignore = ["SC3"]\n', ("--extend-select", "SC301"), True),
])
def test_the_command_line_overrides_the_file(project: Path, body: str, args: tuple[str, ...], found: bool) -> None:
    pyproject(project, body)
    write(project / "model.py", BUGGY)
    assert lint(*args).exit_code == (1 if found else 0)


# Both findings of TWO: SC101 at line 4 and SC301 at line 5. Each case's outcome is ruff 0.17's for the same layout
# of settings with F401 for SC101, F841 for SC301 and F4 for SC1, run side by side.
TWO = ("import torch\nimport torch.nn.functional as F\nx = torch.randn(2, 3, 4)\n"
       "z = x.transpose(1, 2).view(2, -1)\ny = F.softmax(x, dim=-1).log()\n")


@pytest.mark.parametrize(("body", "args", "codes"), [
    ('extend-select = ["SC101"]', ("--ignore", "SC101"), ["SC301"]),  # --ignore beats a configured extend-select
    ('extend-select = ["SC101"]', ("--ignore", "SC1"), ["SC301"]),  # ...even when less specific
    ('ignore = ["SC101"]', ("--select", "SC101"), ["SC101"]),  # --select X beats a configured ignore of X
    ('ignore = ["SC101"]', ("--extend-select", "SC101"), ["SC101", "SC301"]),
    ('ignore = ["SC101"]', ("--extend-select", "SC1"), ["SC101", "SC301"]),
    ('ignore = ["SC1"]', ("--extend-select", "SC101"), ["SC101", "SC301"]),
    ('select = ["SC101"]', ("--select", "SC301"), ["SC301"]),  # --select replaces the configured selection
    ('select = ["SC101"]', ("--extend-select", "SC301"), ["SC101", "SC301"]),
    ('select = ["SC101"]\nextend-select = ["SC301"]', ("--select", "SC101"), ["SC101"]),
    ('ignore = ["SC101"]', ("--ignore", "SC301"), []),
])
def test_the_command_line_layers_over_the_file_as_in_ruff(project: Path, body: str, args: tuple[str, ...],
                                                          codes: list[str]) -> None:
    pyproject(project, body + "\n")
    write(project / "model.py", TWO)
    assert sorted({line.split(": ")[1] for line in reported(lint("--output-format", "concise", *args))}) == codes


def two_projects(root: Path, sub_body: str) -> None:
    """A repository with a root pyproject and a sub-project with its own, the same buggy file in each."""
    pyproject(root, 'ignore = ["SC301"]\n')
    pyproject(root / "sub", sub_body)
    write(root / "top.py", TWO)
    write(root / "sub" / "s.py", TWO)


@pytest.mark.parametrize("order", [("top.py", "sub/s.py"), ("sub/s.py", "top.py"), ("sub", "."), (".",)])
def test_each_file_takes_its_nearest_pyproject_whatever_the_argument_order(project: Path, order) -> None:
    two_projects(project, 'ignore = ["SC101"]\n')  # no `extend`: the root's ignore does not apply in sub
    assert sorted(reported(lint("--output-format", "concise", *order))) == [
        "sub/s.py:5:5: SC301", "top.py:4:5: SC101"]


@pytest.mark.parametrize("order", [("top.py", "sub/s.py"), ("sub/s.py", "top.py")])
def test_extend_inherits_and_the_nearer_file_applies_after(project: Path, order) -> None:
    two_projects(project, 'extend = "../pyproject.toml"\nextend-select = ["SC301"]\nignore = ["SC101"]\n')
    assert sorted(reported(lint("--output-format", "concise", *order))) == [
        "sub/s.py:5:5: SC301", "top.py:4:5: SC101"]
    pyproject(project / "sub", 'extend = "../pyproject.toml"\n')
    assert reported(lint("--output-format", "concise", *order)) == ["sub/s.py:4:5: SC101", "top.py:4:5: SC101"]


@pytest.mark.parametrize("order", [("top.py", "sub/s.py", "sub/gen/g.py"), ("sub/gen/g.py", "sub/s.py", "top.py")])
def test_pre_commit_file_lists_use_each_files_excludes(project: Path, order) -> None:
    """pre-commit names staged files in any order, with --force-exclude: a sub-project's exclude holds for its
    files only, and an extended file's extend-exclude is relative to that file."""
    two_projects(project, 'extend-exclude = ["gen"]\n')
    write(project / "sub" / "gen" / "g.py", TWO)
    write(project / "gen" / "g.py", TWO)
    result = lint("--force-exclude", "--output-format", "concise", *order, "gen/g.py")
    assert sorted({line.split(":")[0] for line in reported(result)}) == ["gen/g.py", "sub/s.py", "top.py"]
    pyproject(project, 'ignore = ["SC301"]\nextend-exclude = ["/gen"]\n')
    pyproject(project / "sub", 'extend = "../pyproject.toml"\n')
    result = lint("--force-exclude", "--output-format", "concise", *order, "gen/g.py")
    assert sorted({line.split(":")[0] for line in reported(result)}) == ["sub/gen/g.py", "sub/s.py", "top.py"]


def test_per_file_ignores_are_relative_to_their_own_file(project: Path) -> None:
    pyproject(project, 'per-file-ignores = { "sub/*" = ["SC1"] }\n')
    pyproject(project / "sub", 'extend = "../pyproject.toml"\n')
    write(project / "sub" / "s.py", TWO)
    assert [line.split(": ")[1] for line in reported(lint("--output-format", "concise", "sub"))] == ["SC301"]


@pytest.mark.parametrize(("sub_body", "reason"), [
    ('extend = "../missing.toml"\n', "missing.toml: cannot be read"),
    ('extend = "pyproject.toml"\n', "extends itself"),
    ("extend = 3\n", "extend: expected the path of a configuration file"),
    ('extend = "../other.toml"\n', "other.toml: has no [tool.shapecheck] table"),
])
def test_a_bad_extend_is_exit_2_naming_it(project: Path, sub_body: str, reason: str) -> None:
    two_projects(project, sub_body)
    write(project / "other.toml", "[tool.ruff]\n")
    result = lint("top.py", "sub/s.py")
    assert result.exit_code == 2 and reason in result.stderr


def test_extend_exclude_is_relative_to_the_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = tmp_path / "proj"
    pyproject(proj, 'extend-exclude = ["/generated", "src/legacy_*.py"]\n')
    write(proj / "generated" / "a.py", BUGGY)
    write(proj / "src" / "generated" / "b.py", BUGGY)  # `/generated` is anchored to the pyproject's folder
    write(proj / "src" / "legacy_1.py", BUGGY)
    write(proj / "src" / "model.py", BUGGY)
    monkeypatch.chdir(tmp_path)
    result = lint("--output-format", "concise", "proj")
    assert [line.split(":")[0] for line in reported(result)] == ["proj/src/generated/b.py", "proj/src/model.py"]
    monkeypatch.chdir(proj / "src")
    assert [line.split(":")[0] for line in reported(lint("--output-format", "concise"))] == [
        "generated/b.py", "model.py"]


def test_exclude_replaces_the_defaults(project: Path) -> None:
    write(project / "build" / "model.py", BUGGY)
    write(project / "skipped" / "model.py", BUGGY)
    assert reported(lint("--output-format", "concise")) == ["skipped/model.py:2:5: SC301"]  # build/: a default
    pyproject(project, 'exclude = ["skipped"]\n')
    assert reported(lint("--output-format", "concise")) == ["build/model.py:2:5: SC301"]


def test_per_file_ignores(project: Path) -> None:
    pyproject(project, 'per-file-ignores = { "tests/*" = ["SC3"], "__init__.py" = ["SC301"], '
                       '"src/only.py" = ["ALL"] }\n')
    for name in ("tests/deep/t.py", "src/__init__.py", "src/only.py", "src/model.py", "other/tests/t.py"):
        write(project / name, BUGGY)
    result = lint("--output-format", "concise")
    # "tests/*" has a slash, so it is anchored at the pyproject's folder: other/tests/t.py is still linted.
    assert [line.split(":")[0] for line in reported(result)] == ["other/tests/t.py", "src/model.py"]


# ------------------------------------------------------------------------------------------------ the errors


@pytest.mark.parametrize(("body", "named"), [
    ('selcet = ["SC1"]\n', "'selcet'"),
    ('extend_select = ["SC1"]\n', "did you mean 'extend-select'"),
    ('select = ["SC9Z"]\n', "'SC9Z'"),
    ('ignore = ["XYZ"]\n', "'XYZ'"),
    ('extend-select = ["sc301"]\n', "'sc301'"),
    ('per-file-ignores = { "tests/*" = ["SC9Z"] }\n', "'SC9Z'"),
    ('select = "SC1"\n', "select"),
    ('per-file-ignores = ["tests/*"]\n', "per-file-ignores"),
    ('exclude = [1]\n', "exclude"),
])
def test_a_bad_setting_is_exit_2_naming_it_and_the_file(project: Path, body: str, named: str) -> None:
    pyproject(project, body)
    write(project / "model.py", BUGGY)
    result = lint()
    assert result.exit_code == 2
    assert named in result.stderr
    assert "pyproject.toml" in result.stderr
    assert reported(result) == [] and "Traceback" not in result.output


def test_invalid_toml_is_exit_2(project: Path) -> None:
    write(project / "pyproject.toml", "[tool.shapecheck\nselect = [\n")
    write(project / "model.py", BUGGY)
    result = lint()
    assert result.exit_code == 2 and "pyproject.toml" in result.stderr and "TOML" in result.stderr


@pytest.mark.parametrize(("text", "reason"), [(None, "cannot be read"), ("[tool.other]\n", "no [tool.shapecheck]")])
def test_a_bad_config_option_is_exit_2(project: Path, text: str | None, reason: str) -> None:
    if text is not None:
        write(project / "other.toml", text)
    write(project / "model.py", BUGGY)
    result = lint("--config", "other.toml")
    assert result.exit_code == 2
    assert "other.toml" in result.stderr and reason in result.stderr


# ------------------------------------------------------------------------------------------------ the object


def test_load_reads_every_key(tmp_path: Path) -> None:
    path = pyproject(tmp_path, 'select = ["SC1"]\nignore = ["SC102"]\nextend-select = ["SC3"]\nexclude = ["a"]\n'
                               'extend-exclude = ["b"]\nper-file-ignores = { "t/*" = ["SC1"] }\n')
    config = load(path)
    assert (config.path, config.root) == (path, tmp_path)
    assert config.selections == (Selection(("SC1",), ("SC102",), ("SC3",)),)
    assert config.layers[0].settings == Settings(select=("SC1",), ignore=("SC102",), extend_select=("SC3",),
                                                 exclude=("a",), extend_exclude=("b",),
                                                 per_file_ignores=(("t/*", ("SC1",)),))


def test_the_command_line_rejects_unknown_codes(project: Path) -> None:
    result = lint("--ignore", "NOPE")
    assert result.exit_code == 2 and "--ignore: unknown rule selector 'NOPE'" in result.stderr


# ------------------------------------------------------------------------------------- standalone files


@pytest.mark.parametrize(("files", "winner"), [
    ({"pyproject.toml": "[tool.shapecheck]\nignore = ['SC3']\n", "shapecheck.toml": "ignore = ['SC1']\n"},
     "shapecheck.toml"),
    ({"shapecheck.toml": "ignore = ['SC1']\n", ".shapecheck.toml": "ignore = ['SC3']\n"}, ".shapecheck.toml"),
    ({"pyproject.toml": "[tool.shapecheck]\nignore = ['SC1']\n", ".shapecheck.toml": "ignore = ['SC3']\n"},
     ".shapecheck.toml"),
    ({"pyproject.toml": "[project]\nname = 'x'\n", "shapecheck.toml": ""}, "shapecheck.toml"),  # even empty
])
def test_standalone_files_win_over_pyproject_as_in_ruff(project: Path, files: dict[str, str], winner: str) -> None:
    for name, text in files.items():
        write(project / name, text)
    write(project / "model.py", BUGGY)
    assert find_config(project) == project / winner
    ignores_sc3 = "SC3" in files[winner]
    assert lint("model.py").exit_code == (0 if ignores_sc3 else 1)


def test_a_nearer_standalone_file_wins_over_a_farther_pyproject(project: Path) -> None:
    pyproject(project, "ignore = ['SC3']\n")
    write(project / "pkg" / ".shapecheck.toml", "extend-select = ['SC301']\n")
    write(project / "pkg" / "model.py", BUGGY)
    assert lint("pkg").exit_code == 1
    write(project / "pkg" / ".shapecheck.toml", 'extend = "../pyproject.toml"\n')
    assert lint("pkg").exit_code == 0


def test_config_option_reads_a_standalone_file_at_its_top_level(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "ci.toml", "ignore = ['SC3']\n")
    assert lint("--config", "ci.toml").exit_code == 0


# ------------------------------------------------------------------------------------------- validation

# Per key: values of every wrong kind. Each must be one message naming the file and the key, and nothing linted.
WRONG = {
    "extend": [3, True, [], {}, ""],
    "select": ["SC1", 1, [1], {"a": 1}, ["SC9Z"], True],
    "ignore": ["SC1", 1.5, [["SC1"]]],
    "extend-select": ["SC1", [1.0]],
    "fixable": ["SC1", 7],
    "unfixable": ["SC1", False],
    "extend-fixable": ["SC3", [{}]],
    "exclude": ["build", 1, [1]],
    "extend-exclude": ["build", {"a": "b"}],
    "per-file-ignores": [["tests/*"], "x", {"tests/*": "SC1"}, {"tests/*": [1]}, {"t": {"deep": ["SC1"]}}],
    "extend-per-file-ignores": [[], {"tests/*": ["NOPE"]}],
    "respect-gitignore": ["yes", 1, []],
    "fix": ["true", 0],
    "unsafe-fixes": [1, "no"],
    "show-fixes": [[True]],
    "fail-on": ["fatal", 1, ["error"]],
    "output-format": ["text", 1],
    "file-time-limit": [-1, "60", True, float("inf"), float("nan"), float("-inf"), 1e400, 10**30, [60]],
    "file-memory-limit": [-1, 1.5, "4096", True, float("inf"), 10**30],
}
CASES = [pytest.param(key, value, id=f"{key}={value!r}") for key, values in WRONG.items() for value in values]


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_value(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, str):
        return '"' + value + '"'
    return repr(value)


@pytest.mark.parametrize(("key", "value"), CASES)
def test_every_key_given_a_wrong_value_is_one_clear_error(project: Path, key: str, value) -> None:
    path = pyproject(project, f"{key} = {toml_value(value)}\n")
    write(project / "model.py", BUGGY)
    result = lint("model.py")
    assert result.exit_code == 2 and "Traceback" not in result.output and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"shapecheck: error: {path}: {key}")


def test_every_bad_value_is_reported_at_once(project: Path) -> None:
    path = pyproject(project, 'select = "SC1"\nfail-on = "fatal"\nbogus = 1\nfile-time-limit = inf\n'
                              'per-file-ignores = { "a/*" = "SC1", "b/*" = ["NOPE"], "c/*" = ["SC1"] }\n')
    write(project / "model.py", BUGGY)
    lines = lint("model.py").stderr.splitlines()
    assert [line.split(": ")[3] for line in lines] == [
        "select", "fail-on", "unknown key 'bogus'; known keys", "file-time-limit", "per-file-ignores['a/*']",
        "per-file-ignores['b/*']"]
    assert all(line.startswith(f"shapecheck: error: {path}: ") for line in lines)


def test_a_bad_value_of_an_extended_file_names_that_file(project: Path) -> None:
    base = write(project / "base.toml", "select = 'SC1'\n")
    pyproject(project, 'extend = "base.toml"\nignore = 3\n')
    write(project / "model.py", BUGGY)
    stderr = lint("model.py").stderr
    assert f"{project / 'pyproject.toml'}: ignore: expected" in stderr and f"{base}: select: expected" in stderr


# ----------------------------------------------------------------------------------------------- extend


def test_an_extend_cycle_through_a_parent_folder_is_named(project: Path) -> None:
    pyproject(project, 'extend = "sub/b.toml"\n')
    write(project / "sub" / "b.toml", 'extend = "../pyproject.toml"\n')
    write(project / "model.py", BUGGY)
    result = lint("model.py")
    assert result.exit_code == 2 and "extends itself" in result.stderr and "Traceback" not in result.output


def test_a_very_long_extend_chain_is_refused_in_time(project: Path) -> None:
    for index in range(2000):
        write(project / "chain" / f"{index}.toml", f'extend = "{index + 1}.toml"\n')
    write(project / "chain" / "2000.toml", "")
    pyproject(project, 'extend = "chain/0.toml"\n')
    write(project / "model.py", BUGGY)
    result = lint("model.py")
    assert result.exit_code == 2 and "more than 64 files deep" in result.stderr
    assert len(result.stderr) < 2000 and "Traceback" not in result.output


def test_an_extend_chain_within_the_limit_is_followed(project: Path) -> None:
    for index in range(30):
        write(project / "chain" / f"{index}.toml", f'extend = "{index + 1}.toml"\n')
    write(project / "chain" / "30.toml", "ignore = ['SC3']\n")
    pyproject(project, 'extend = "chain/0.toml"\n')
    write(project / "model.py", BUGGY)
    assert lint("model.py").exit_code == 0


@pytest.mark.parametrize(("make", "reason"), [
    ("nul", "expected the path of a configuration file"),
    ("folder", "is not a regular file"),
    ("fifo", "is not a regular file"),
    ("unreadable", "cannot be read"),
    ("loop", "cannot be read"),
])
def test_extend_to_what_is_not_a_readable_file(project: Path, make: str, reason: str) -> None:
    target = project / "target.toml"
    if make == "folder":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    elif make == "unreadable":
        write(target, "ignore = ['SC3']\n").chmod(0)
        if os.access(target, os.R_OK):
            pytest.skip("running as a user who reads every file")
    elif make == "loop":
        os.symlink("loop2.toml", project / "loop1.toml")
        os.symlink("loop1.toml", project / "loop2.toml")
        target = project / "loop1.toml"
    value = 'extend = "a\\u0000b"' if make == "nul" else f'extend = "{target.name}"'
    pyproject(project, value + "\n")
    write(project / "model.py", BUGGY)
    result = lint("model.py")
    assert result.exit_code == 2 and reason in result.stderr and "Traceback" not in result.output
