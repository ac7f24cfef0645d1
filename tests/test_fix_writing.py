"""`--fix`, `--unsafe-fixes` and `--diff`: what gets written, how, and what never is."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import libcst as cst
import pytest

from shapecheck.cache import CACHE_DIR_NAME
from shapecheck.engine import Fix, Rule
from shapecheck.writer import WriteError, encode, unified_diff, write_atomically
from tests.helpers import add_rule
from tests.cli_helpers import BUGGY, CLEAN, FIXED, lint, reported, write

FORMATTED = """\
# a comment that must survive
from shapecheck.cache import CACHE_DIR_NAME
import torch.nn.functional as F


def head(x):  # keep me
    y = F.softmax(x, dim=-1).log()   # and me
    return   y
"""
BROKEN = "import torch\ny = torch.softmax(x, 1).log()\nz = (\n"  # fixable, but does not parse


def snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Each file's bytes, modification time and inode: a file written in any way changes one of them. The result
    cache is shapecheck's own folder, not the user's files."""
    return {str(path.relative_to(folder)): (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_ino)
            for path in sorted(folder.rglob("*")) if path.is_file() and CACHE_DIR_NAME not in path.parts}


def test_fix_on_a_folder_changes_only_what_it_should(project: Path) -> None:
    write(project / "good.py", CLEAN)
    write(project / "buggy.py", FORMATTED)
    write(project / "broken.py", BROKEN)
    write(project / "notes.txt", BUGGY)
    write(project / "sub" / "also.py", BUGGY)
    before = snapshot(project)
    result = lint("--fix", "--output-format", "concise")
    after = snapshot(project)
    # Comments and formatting are kept; only the finding's expression changes.
    assert (project / "buggy.py").read_text() == FORMATTED.replace("F.softmax(x, dim=-1).log()",
                                                                   "F.log_softmax(x, dim=-1)")
    assert (project / "sub" / "also.py").read_text() == FIXED
    assert {name for name in before if before[name] != after[name]} == {"buggy.py", "sub/also.py"}
    assert set(after) == set(before)  # no temporary files left behind
    assert result.exit_code == 1  # the syntax error remains
    assert [(found.split(":")[0], found.split()[-1]) for found in reported(result)] == [("broken.py", "SC000")]
    assert "2 fixed" in result.stdout


def test_a_second_fix_changes_nothing(project: Path) -> None:
    write(project / "buggy.py", FORMATTED)
    assert lint("--fix").exit_code == 0
    before = snapshot(project)
    result = lint("--fix")
    assert result.exit_code == 0 and "fixed" not in result.stdout
    assert snapshot(project) == before


def test_nothing_is_written_without_fix(project: Path) -> None:
    write(project / "buggy.py", BUGGY)
    before = snapshot(project)
    for args in ((), ("--unsafe-fixes",), ("--statistics",), ("--output-format", "json")):
        assert lint(*args).exit_code == 1
    assert snapshot(project) == before


def test_a_file_with_a_syntax_error_is_never_touched(project: Path) -> None:
    write(project / "broken.py", BROKEN)
    before = snapshot(project)
    assert lint("--fix", "--unsafe-fixes").exit_code == 1
    assert snapshot(project) == before


def test_the_file_is_replaced_atomically_keeping_its_mode(project: Path) -> None:
    path = write(project / "tool.py", BUGGY)
    path.chmod(0o751)
    inode = path.stat().st_ino
    lint("--fix")
    assert path.read_text() == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.stat().st_ino != inode  # a new file renamed over the old one, not rewritten in place
    # no temporary file left beside it (the result cache's folder may keep what the run read of the project)
    assert [name for name in os.listdir(project) if name != CACHE_DIR_NAME] == ["tool.py"]


def test_a_link_stays_a_link(project: Path) -> None:
    target = write(project / "real" / "model.py", BUGGY)
    (project / "link.py").symlink_to(target)
    lint("--fix", "link.py")
    assert (project / "link.py").is_symlink()
    assert target.read_text() == FIXED


@pytest.mark.parametrize(("original", "fixed"), [
    (b"\xef\xbb\xbf" + BUGGY.encode(), b"\xef\xbb\xbf" + FIXED.encode()),  # the BOM is kept
    (BUGGY.replace("\n", "\r\n").encode(), FIXED.replace("\n", "\r\n").encode()),  # so are CRLF line ends
    (b"import torch\r\nlog_p = torch.log(torch.sigmoid(s))\r\n",  # ... also on a line the fix adds
     b"import torch\r\nimport torch.nn.functional as F\r\nlog_p = F.logsigmoid(s)\r\n"),
    (b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUGGY.encode(),  # and the encoding the cookie names
     b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + FIXED.encode()),
    (BUGGY.rstrip("\n").encode(), FIXED.rstrip("\n").encode()),  # and a missing final newline
])
def test_the_file_keeps_its_encoding_bom_and_line_ends(project: Path, original: bytes, fixed: bytes) -> None:
    path = project / "model.py"
    path.write_bytes(original)
    assert lint("--fix").exit_code == 0
    assert path.read_bytes() == fixed


def test_fix_in_parallel(project: Path) -> None:
    for index in range(16):
        write(project / f"m{index:02}.py", BUGGY)
    result = lint("--fix", "--jobs", "2")
    assert result.exit_code == 0 and "16 fixed" in result.stdout
    assert all(path.read_text() == FIXED for path in project.glob("*.py"))


def test_a_write_failure_is_exit_2_and_reports_the_unfixed_file(project: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    def refuse(path: str, data: bytes) -> None:
        raise WriteError("Read-only file system")

    monkeypatch.setattr("shapecheck.runner.write_atomically", refuse)
    write(project / "model.py", BUGGY)
    result = lint("--fix", "--output-format", "concise", "--jobs", "1")
    assert result.exit_code == 2
    assert "shapecheck: error: model.py: cannot write its fixes: Read-only file system" in result.stderr
    assert reported(result) == ["model.py:2:5: SC301"]
    assert "fixed" not in result.stdout
    assert (project / "model.py").read_text() == BUGGY


# ------------------------------------------------------------------------------------------------------ --diff


def test_diff_prints_a_unified_diff_and_writes_nothing(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "good.py", CLEAN)
    before = snapshot(project)
    for args in (("--diff",), ("--diff", "--fix")):
        result = lint(*args)
        assert result.exit_code == 1
        assert result.stdout == ("--- model.py\n+++ model.py\n@@ -1,2 +1,2 @@\n import torch.nn.functional as F\n"
                                 "-y = F.softmax(x, dim=-1).log()\n+y = F.log_softmax(x, dim=-1)\n")
        assert "Would fix 1 error" in result.stderr
    assert snapshot(project) == before


def test_diff_with_nothing_to_fix_exits_0(project: Path) -> None:
    write(project / "good.py", CLEAN)
    result = lint("--diff")
    assert (result.exit_code, result.stdout) == (0, "")


def test_unified_diff_marks_a_missing_final_newline() -> None:
    assert unified_diff("a\nb", "a\nc", "m.py").endswith("-b\n\\ No newline at end of file\n+c\n"
                                                         "\\ No newline at end of file\n")


# ------------------------------------------------------------------------------------------------ unsafe fixes


class UnsafeRename(Rule):
    code = "SC992"
    name = "unsafe-rename"
    message = "`old_name` is deprecated"
    fixable = "unsafe"
    triggers = ("old_name",)
    docs = ""

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "old_name":
            self.report(node, fix=Fix("Rename to `new_name`", ((node, cst.Name("new_name")),), "unsafe"))


UNSAFE = "import torch\nold_name(1)\n"


@pytest.fixture
def unsafe_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    add_rule(monkeypatch, UnsafeRename)


def test_fix_leaves_unsafe_fixes_alone(project: Path, unsafe_rule: None) -> None:
    path = write(project / "model.py", UNSAFE)
    result = lint("--fix")
    assert result.exit_code == 1 and path.read_text() == UNSAFE
    assert "--unsafe-fixes" in result.stdout  # the summary says a hidden fix is there


def test_unsafe_fixes_without_fix_only_show_them(project: Path, unsafe_rule: None) -> None:
    path = write(project / "model.py", UNSAFE)
    shown = lint("--unsafe-fixes", "--output-format", "concise")
    assert shown.exit_code == 1 and path.read_text() == UNSAFE
    assert "SC992 [*]" in shown.stdout  # now counted as fixable
    assert "SC992 [*]" not in lint("--output-format", "concise").stdout


def test_fix_with_unsafe_fixes_applies_them(project: Path, unsafe_rule: None) -> None:
    path = write(project / "model.py", UNSAFE + BUGGY)
    result = lint("--fix", "--unsafe-fixes")
    assert result.exit_code == 0
    assert path.read_text() == "import torch\nnew_name(1)\n" + FIXED
    assert "2 fixed" in result.stdout


def test_json_carries_each_fix_with_its_edits_and_applicability(project: Path, unsafe_rule: None) -> None:
    write(project / "model.py", UNSAFE + BUGGY)
    records = json.loads(lint("--output-format", "json").stdout)
    fixes = {record["code"]: record["fix"] for record in records}
    assert fixes["SC992"]["applicability"] == "unsafe"
    assert fixes["SC301"]["applicability"] == "safe"
    assert [edit["content"] for edit in fixes["SC301"]["edits"]] == ["F.log_softmax(x, dim=-1)"]


# ---------------------------------------------------------------------------------------------- the writer


def test_write_atomically_cleans_up_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "model.py", BUGGY)

    def fail(source: str, target: str) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(WriteError, match="Read-only file system"):
        write_atomically(str(path), FIXED.encode())
    assert os.listdir(tmp_path) == ["model.py"] and path.read_text() == BUGGY


def test_text_the_encoding_cannot_hold_is_not_written() -> None:
    with pytest.raises(WriteError, match="cannot be encoded as iso-8859-1"):
        encode("name = '\u20ac'\n", b"# -*- coding: latin-1 -*-\n")
