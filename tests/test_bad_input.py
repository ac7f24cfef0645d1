"""Bad input gives a finding or a message naming the file and the reason, never a traceback, and the other files are
still linted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest

from shapecheck.engine import Rule
from shapecheck.engine import registry
from shapecheck.findings import FileResult
from shapecheck.runner import MAX_FILE_SIZE, Task, run
from tests.helpers import add_rule
from tests.cli_helpers import BUGGY, lint, reported, write

OTHER = "other.py:2:5: SC301"


@pytest.fixture
def other(project: Path) -> Path:
    """A buggy file next to the bad one: its finding shows the run went on."""
    return write(project / "other.py", BUGGY)


def assert_no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ----------------------------------------------------------------------------------------------- the source


def test_syntax_error_is_sc000_at_its_position(project: Path, other: Path) -> None:
    # The engine skips a file no rule can fire on without parsing it: this one imports torch and calls softmax.
    write(project / "broken.py", "import torch\ny = torch.softmax(x, 1) +* 2\n")
    result = lint("--output-format", "concise")
    assert result.exit_code == 1
    found = reported(result)
    assert found[0].startswith("broken.py:2:") and found[0].endswith(": SC000")
    assert found[1:] == [OTHER]
    assert "SyntaxError" in result.stdout


def test_integer_literals_in_any_base_are_read_as_numbers(project: Path) -> None:
    # yolov5's EXIF tag `exif[0x0112]`: the rules read literal indexes, sizes and offsets by their value
    write(project / "hex.py", """import torch
x = torch.randn(0x10, 8)
row = x[0x0f]
first = x[0b1:, 1_0 - 0o2]
weights = torch.Tensor(0x4)
for i in range(0x1, 0x3):
    weights[i + 0x1] = 0
del exif[0x0112]
""")
    result = lint("--select", "ALL", "--output-format", "concise")
    assert_no_traceback(result)
    assert not [line for line in reported(result) if "SC999" in line]


def test_undecodable_bytes(project: Path, other: Path) -> None:
    (project / "latin.py").write_bytes(b"import torch\nname = 'caf\xe9'\n")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    assert "shapecheck: error: latin.py: is not valid utf-8" in result.stderr
    assert reported(result) == [OTHER]
    assert_no_traceback(result)


def test_an_encoding_cookie_is_honoured(project: Path) -> None:
    (project / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + BUGGY.encode() + b"name = 'caf\xe9'\n")
    assert reported(lint("--output-format", "concise")) == ["latin.py:3:5: SC301"]


def test_nul_bytes(project: Path, other: Path) -> None:
    (project / "binary.py").write_bytes(b"import torch\n\x00\x01\x02")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    assert "shapecheck: error: binary.py: contains NUL bytes" in result.stderr
    assert reported(result) == [OTHER]


def test_a_bom(project: Path) -> None:
    (project / "bom.py").write_bytes(b"\xef\xbb\xbf" + BUGGY.encode())
    result = lint("--output-format", "concise")
    assert (result.exit_code, reported(result)) == (1, ["bom.py:2:5: SC301"])


def test_crlf_line_ends(project: Path) -> None:
    (project / "crlf.py").write_bytes(BUGGY.replace("\n", "\r\n").encode())
    result = lint()
    assert (result.exit_code, reported(result)) == (1, ["crlf.py:2:5: SC301"])
    assert "\r" not in result.stdout


@pytest.mark.parametrize("content", [b"", b"\n\n", b"   ", b"# only a comment"])
def test_an_empty_file(project: Path, content: bytes) -> None:
    (project / "empty.py").write_bytes(content)
    result = lint()
    assert (result.exit_code, reported(result)) == (0, [])
    assert result.stderr == ""


def test_a_file_over_the_size_limit_is_skipped_with_a_warning(project: Path, other: Path) -> None:
    with open(project / "huge.py", "wb") as file:
        file.write(b"import torch\n" + b"x = torch.ones(3)\n" * (10 * 2**20 // 18))  # 10 MiB
    assert os.path.getsize(project / "huge.py") > MAX_FILE_SIZE
    result = lint("--output-format", "concise")
    assert result.exit_code == 1  # a warning, not an error: the findings decide
    assert "shapecheck: warning: huge.py: skipped: 10.0 MiB is over the 5 MiB limit" in result.stderr
    assert reported(result) == [OTHER]


def test_a_large_file_under_the_limit_is_linted(project: Path) -> None:
    write(project / "big.py", BUGGY + '"""' + "lorem ipsum\n" * (3 * 2**20 // 12) + '"""\n')  # 3 MiB
    assert reported(lint("--output-format", "concise")) == ["big.py:2:5: SC301"]


def nested(depth: int) -> str:
    return BUGGY + "x = " + "(" * depth + "1" + ")" * depth + "\n"


def test_expressions_nested_a_thousand_deep(project: Path) -> None:
    # CPython itself refuses more than 200 nested brackets; so do we, at once, instead of letting libcst's parser
    # spend minutes and gigabytes on it.
    write(project / "deep.py", nested(1000))
    result = lint("--output-format", "concise")
    assert result.exit_code == 1
    assert reported(result) == ["deep.py:3:205: SC000"]
    assert "too many nested parentheses" in result.output


def test_deep_nesting_without_brackets_is_not_parsed(project: Path, other: Path) -> None:
    # `not not ... x` nests without brackets: libcst's parser would take gigabytes for it.
    write(project / "deep.py", BUGGY + "y = " + "not " * 3000 + "x\n")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    assert ("shapecheck: error: deep.py: too complex to analyse: an expression nested 3,000 deep on line 3"
            in result.stderr)
    assert reported(result) == [OTHER]


# ------------------------------------------------------------------------------------------------ the paths


def test_a_folder_named_x_py(project: Path) -> None:
    write(project / "x.py" / "inner.py", BUGGY)
    for args in ((), ("x.py",)):
        assert reported(lint("--output-format", "concise", *args)) == ["x.py/inner.py:2:5: SC301"]


def test_a_named_fifo_is_an_error(project: Path, other: Path) -> None:
    os.mkfifo(project / "pipe.py")
    result = lint("--output-format", "concise", "pipe.py", "other.py")
    assert result.exit_code == 2
    assert "shapecheck: error: pipe.py: is not a regular file or a folder" in result.stderr
    assert reported(result) == [OTHER]


def test_a_fifo_met_while_walking_is_skipped(project: Path, other: Path) -> None:
    os.mkfifo(project / "pipe.py")  # reading it would block forever
    assert reported(lint("--output-format", "concise")) == [OTHER]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, which root bypasses")
def test_a_file_without_read_permission(project: Path, other: Path) -> None:
    locked = write(project / "locked.py", BUGGY)
    locked.chmod(0)
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    assert "shapecheck: error: locked.py: cannot be read: Permission denied" in result.stderr
    assert reported(result) == [OTHER]


def test_a_read_error(project: Path, other: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a file without read permission gives, for runs as root (which may read anything)."""
    write(project / "locked.py", BUGGY)

    def refuse(path, *args, **kwargs):
        if os.path.basename(path) == "locked.py":
            raise PermissionError(13, "Permission denied", path)
        return open(path, *args, **kwargs)

    monkeypatch.setattr("shapecheck.runner.open", refuse, raising=False)
    result = lint("--output-format", "concise", "--jobs", "1")
    assert result.exit_code == 2
    assert "shapecheck: error: locked.py: cannot be read: Permission denied" in result.stderr
    assert reported(result) == [OTHER]


# ------------------------------------------------------------------------------------------- internal errors


class Crashing(Rule):
    """Raises on a call to `explode()`; at module level so worker processes can unpickle it."""

    code = "SC990"
    name = "crashing-rule"
    message = "never reported"
    docs = ""

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "explode":
            raise ZeroDivisionError("boom")


class Dying(Rule):
    """Ends its process on a call to `die()`: a worker killed mid-file."""

    code = "SC991"
    name = "dying-rule"
    message = "never reported"
    docs = ""

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "die":
            os._exit(3)


@pytest.fixture
def crashing_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    add_rule(monkeypatch, Crashing)


def test_a_crashing_rule_is_sc999_and_exit_2(project: Path, other: Path, crashing_rule: None) -> None:
    write(project / "crash.py", BUGGY + "explode()\n")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    # The crash names the rule and the file; the other rules still report on that file, and the other file is linted.
    assert reported(result) == ["crash.py:1:1: SC999", "crash.py:2:5: SC301", OTHER]
    crash_line = result.stdout.splitlines()[0]
    assert "SC990" in crash_line and "crashing-rule" in crash_line and "ZeroDivisionError" in crash_line
    assert_no_traceback(result)


def test_sc999_with_exit_zero_is_still_exit_2(project: Path, crashing_rule: None) -> None:
    write(project / "crash.py", BUGGY + "explode()\n")
    assert lint("--exit-zero").exit_code == 2


def tasks(project: Path, bad: str, rules: tuple[type[Rule], ...]) -> list[Task]:
    paths = []
    for index in range(8):
        paths.append(write(project / f"m{index}.py", BUGGY + (f"{bad}()\n" if index == 3 else "")))
    return [Task(str(path), rules) for path in paths]


def test_a_crashing_rule_in_a_worker_process(project: Path) -> None:
    rules = (*registry.resolve(None), Crashing)
    outcomes = run(tasks(project, "explode", rules), jobs=2)
    codes = [sorted(finding.code for finding in outcome.result.findings) for outcome in outcomes]
    assert codes == [["SC301"]] * 3 + [["SC301", "SC999"]] + [["SC301"]] * 4


def test_a_worker_process_that_dies(project: Path) -> None:
    outcomes = run(tasks(project, "die", (*registry.resolve(None), Dying)), jobs=2)
    assert [outcome.result.filename for outcome in outcomes] == [str(project / f"m{i}.py") for i in range(8)]
    assert "worker process" in outcomes[3].result.error
    assert all(outcome.result.error or outcome.result.findings for outcome in outcomes)


@pytest.mark.parametrize(("raised", "reason"), [
    (RuntimeError("engine bug"), "internal error: RuntimeError: engine bug; please report it"),
    (RecursionError(), "is nested too deeply to lint"),
])
def test_an_engine_exception_names_the_file(project: Path, other: Path, monkeypatch: pytest.MonkeyPatch,
                                            raised: Exception, reason: str) -> None:
    from shapecheck import runner

    real = runner.lint_text

    def lint_text(text: str, filename: str, *args, **kwargs) -> FileResult:
        if filename == "bad.py":
            raise raised
        return real(text, filename, *args, **kwargs)

    monkeypatch.setattr(runner, "lint_text", lint_text)
    write(project / "bad.py", BUGGY)
    result = lint("--output-format", "concise", "--jobs", "1")
    assert result.exit_code == 2
    assert f"shapecheck: error: bad.py: {reason}" in result.stderr
    assert reported(result) == [OTHER]
    assert_no_traceback(result)


@pytest.mark.parametrize("source", [
    "import torch\n\ndef broken(:\n    pass\n",  # imports torch, but no rule trigger: never parsed by libcst
    "import os\n\ndef broken(:\n    pass\n",  # no torch at all
])
def test_a_syntax_error_is_reported_without_a_rule_trigger(project: Path, other: Path, source: str) -> None:
    write(project / "broken.py", source)
    result = lint("--output-format", "concise")
    assert result.exit_code == 1
    assert reported(result) == ["broken.py:3:12: SC000", OTHER]
    assert "All checks passed" not in result.output


def test_syntax_newer_than_the_running_python_is_an_error_without_a_newer_target(project: Path) -> None:
    # CPython < 3.12 rejects a `type` statement; libcst reads it, but the compiler has the last word unless the
    # project targets a newer Python (tests/test_compile_verdict.py).
    write(project / "new.py", "import os\ntype Alias = list[int]\n")
    assert lint("--output-format", "concise").exit_code == (0 if sys.version_info >= (3, 12) else 1)


def test_the_compilers_warnings_about_the_linted_code_are_not_printed(tmp_path: Path) -> None:
    """`1and`, a "\\d" in a plain string and `x is 1` make CPython's compiler warn at every parse of the file; they
    are the user's code, not the linter's output (ruff and pyflakes print none of them), and the lint goes on."""
    source = tmp_path / "train.py"
    source.write_text('import torch\nx = 1if True else 2\npattern = "\\d+"\nif x is 1:\n    y = torch.zeros(3)\n')
    (tmp_path / "helpers.py").write_text('from train import x\nok = x>0and x<2\n')
    completed = subprocess.run([sys.executable, "-m", "shapecheck", "lint", "--no-cache", "--isolated", "."],
                               cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "Warning" not in completed.stderr, completed.stderr
