"""The plain `lint PATH...` command line, read without click (`shapecheck.lint_options.plain_lint`), does exactly
what click does with it: the same parameters for every command line it takes, nothing for one it does not (click
then runs it: a bad one's error is click's), and the same output and exit code end to end."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck.cli import lint
from shapecheck.lint_options import DEFAULTS, PLAIN_OPTIONS, plain_lint

# The options left to click: runs whose checks are usage errors, or that are no plain lint.
LEFT_TO_CLICK = {"--config", "--stdin-filename", "-w", "--watch", "--add-noqa", "--show-files", "--show-settings"}

COMMAND_LINES = [
    [],
    ["bug.py"],
    ["bug.py", "clean.py"],
    ["-q", "bug.py"],
    ["bug.py", "--quiet", "--exit-zero"],
    ["-eq", "bug.py"],
    ["-qe", "-n", "bug.py"],
    ["--select", "ALL", "--isolated", "--output-format", "json", "bug.py"],
    ["--select=SC3,SC1", "--select", "SC201", "--ignore=SC102", "bug.py"],
    ["--select=", "bug.py"],
    ["--select", "--fix", "bug.py"],  # --fix is --select's value, as click takes it
    ["--fix", "--no-fix", "bug.py"],
    ["--no-fix", "--fix", "--unsafe-fixes", "--diff", "bug.py"],
    ["--output-format=concise", "--output-format", "full", "bug.py"],
    ["--output-format", "concise", "--statistics", "bug.py"],
    ["--fail-on", "error", "bug.py"],
    ["-j", "2", "bug.py"],
    ["-j2", "bug.py"],
    ["-qj1", "bug.py"],
    ["--jobs=3", "bug.py"],
    ["--jobs", " 4", "bug.py"],
    ["--file-time-limit", "0", "--file-memory-limit", "512", "bug.py"],
    ["--file-time-limit=1.5", "bug.py"],
    ["-o", "out.txt", "bug.py"],
    ["--output-file=out.txt", "bug.py"],
    ["--cache-dir", "cache", "bug.py"],
    ["--exclude", "x.py", "--extend-exclude=y.py", "--force-exclude", "--no-respect-gitignore", "bug.py"],
    ["--per-file-ignores", "bug.py:SC301", "--extend-per-file-ignores=*.py:SC1", "bug.py"],
    ["--fixable", "SC3", "--unfixable", "SC1", "--extend-fixable", "SC2", "--show-fixes", "bug.py"],
    ["--fix-only", "--exit-non-zero-on-fix", "bug.py"],
    ["--", "-q"],
    ["-q", "--", "bug.py", "--fix"],
    ["missing.py"],
    # what it leaves to click, good or bad
    ["-"],
    ["bug.py", "-"],
    ["--stdin-filename", "bug.py"],
    ["--config", "select = ['SC1']", "bug.py"],
    ["--watch", "bug.py"],
    ["--show-files", "bug.py"],
    ["-h"],
    ["bug.py", "--help"],
    ["--bogus", "bug.py"],
    ["-x", "bug.py"],
    ["-qx", "bug.py"],
    ["-e=1", "bug.py"],
    ["--fix=yes", "bug.py"],
    ["--select"],
    ["-j"],
    ["-j", "0", "bug.py"],
    ["-j", "two", "bug.py"],
    ["-j=2", "bug.py"],
    ["--output-format", "Concise", "bug.py"],
    ["--output-format=xml", "bug.py"],
    ["--fail-on", "info", "bug.py"],
    ["--file-time-limit", "soon", "bug.py"],
    ["--file-time-limit", "-1", "bug.py"],
    ["--file-memory-limit", "1.5", "bug.py"],
    ["-o", "folder", "bug.py"],
    ["--cache-dir", "bug.py", "bug.py"],
    ["-1"],
    ["--version"],
]


def test_the_plain_options_are_the_click_commands() -> None:
    """Each option of `lint`'s click declaration is in the plain table, for the same parameter and value, or left
    to click; and a parameter left out has the same value on both."""
    assert DEFAULTS == lint.make_context("lint", []).params
    declared = set()
    for parameter in lint.params:
        for options, flag_value in ((parameter.opts, True), (parameter.secondary_opts, False)):
            for option in options:
                if parameter.param_type_name == "argument":
                    continue
                declared.add(option)
                if option in LEFT_TO_CLICK:
                    assert option not in PLAIN_OPTIONS
                    continue
                assert option in PLAIN_OPTIONS, f"{option} is neither read plainly nor left to click"
                name, kind, value = PLAIN_OPTIONS[option]
                assert name == parameter.name, option
                assert (kind, parameter.is_flag, parameter.multiple) in ((0, True, False), (1, False, False),
                                                                         (2, False, True)), option
                if parameter.is_flag:
                    assert value is flag_value, option
    assert set(PLAIN_OPTIONS) <= declared


@pytest.mark.parametrize("args", COMMAND_LINES, ids=" ".join)
def test_the_same_parameters_as_click(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bug.py").write_text("x = 1\n")
    (tmp_path / "folder").mkdir()
    plain = plain_lint(["lint", *args], environ={})
    try:
        clicked = lint.make_context("lint", list(args)).params
    except BaseException:  # noqa: BLE001 - click's usage errors, and --help / --version ending the run
        clicked = None
    if plain is not None:
        assert plain == clicked
    elif clicked is not None:
        assert {"-", "--stdin-filename", "--config", "--watch", "--show-files"} & set(args), \
            f"{args} is a plain lint the plain reading left to click"


def test_not_read_plainly() -> None:
    assert plain_lint(["rules"], environ={}) is None
    assert plain_lint(["--version"], environ={}) is None
    assert plain_lint([], environ={}) is None
    for variable in ("SHAPECHECK_NO_CACHE", "SHAPECHECK_CACHE_DIR", "SHAPECHECK_OUTPUT_FORMAT",
                     "SHAPECHECK_OUTPUT_FILE", "_SHAPECHECK_COMPLETE"):
        assert plain_lint(["lint", "bug.py"], environ={variable: ""}) is None, variable
    assert plain_lint(["lint", "bug.py"], environ={"HOME": "/"}) is not None


BUGGY = "import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()\n"
CLEAN = "import torch\nx = torch.ones(3)\n"
END_TO_END = [
    ["bug.py"],
    ["-q", "clean.py"],
    ["--output-format", "json", "--select", "ALL", "--isolated", "bug.py", "clean.py"],
    ["--output-format=concise", "--statistics", "bug.py"],
    ["--fix", "--show-fixes", "bug.py"],
    ["--diff", "bug.py"],
    ["-e", "-o", "out.txt", "bug.py"],
    ["missing.py", "clean.py"],
    ["--select", "SC999999", "bug.py"],
    ["--per-file-ignores", "nocolon", "bug.py"],
    ["empty"],
    ["--jobs", "0", "bug.py"],
    ["--output-format", "xml", "bug.py"],
]
# Runs click's command whatever the command line: the `shapecheck` script's path before the plain reading.
CLICK = "import sys; from shapecheck.cli import main; main(prog_name='shapecheck')"
PLAIN = ("import sys; from shapecheck.__main__ import main\ntry:\n    main()\nfinally:\n"
         "    sys.stderr.write('click imported\\n' if 'click' in sys.modules else '')")


def _run(code: str, args: list[str], folder: Path) -> tuple[int, str, str, str]:
    result = subprocess.run([sys.executable, "-c", code, "lint", "--no-cache", *args], cwd=folder,
                            capture_output=True, text=True, timeout=300)
    written = (folder / "bug.py").read_text() + ((folder / "out.txt").read_text() if (folder / "out.txt").exists()
                                                else "")
    return result.returncode, result.stdout, result.stderr, written


@pytest.mark.parametrize("args", END_TO_END, ids=" ".join)
def test_the_same_run_as_click(args: list[str], tmp_path: Path) -> None:
    """Output, exit code and what is written, each side in the project made afresh (a fix changes the file)."""
    runs = []
    for side, code in (("click", CLICK), ("plain", PLAIN)):
        folder = tmp_path / "project"
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "empty").mkdir(parents=True)
        (folder / "pyproject.toml").write_text("[tool.shapecheck]\n")
        (folder / "bug.py").write_text(BUGGY)
        (folder / "clean.py").write_text(CLEAN)
        runs.append(_run(code, args, folder))
    clicked, plain = runs
    taken = plain_lint(["lint", "--no-cache", *args], environ={}) is not None
    assert plain[2].endswith("click imported\n") != taken
    assert (plain[0], plain[1], plain[2].removesuffix("click imported\n"), plain[3]) == clicked
    if args == ["bug.py"]:
        assert taken and clicked[0] == 1 and "SC301" in clicked[1]


def test_a_closed_pipe_and_a_full_disk(tmp_path: Path) -> None:
    """What click's standalone mode does with them: a closed pipe exits 1 quietly, another system error is a
    message and 2 (standard output on /dev/full)."""
    (tmp_path / "bug.py").write_text(BUGGY * 200)
    for code in (CLICK, PLAIN):
        full = subprocess.run(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)} lint --no-cache -e bug.py "
                              "> /dev/full", shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert (full.returncode, full.stderr.removesuffix("click imported\n")) == (
            2, "shapecheck: error: No space left on device\n"), code
        piped = subprocess.run(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)} lint --no-cache bug.py "
                               "| head -c 1", shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert piped.stderr.removesuffix("click imported\n") == "", code


def test_no_click_for_a_plain_lint(tmp_path: Path) -> None:
    (tmp_path / "bug.py").write_text(BUGGY)
    (tmp_path / "clean.py").write_text(CLEAN)
    assert _run(PLAIN, ["-q", "clean.py"], tmp_path)[:3] == (0, "", "")
