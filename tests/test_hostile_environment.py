"""Odd paths, configuration and streams never give a traceback, a hang or a damaged file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck import writer
from tests.cli_helpers import BUGGY, FIXED, lint, reported, write

OTHER = "other.py:2:5: SC301"


@pytest.fixture
def other(project: Path) -> Path:
    return write(project / "other.py", BUGGY)


def shapecheck(*args: str, cwd: Path, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shapecheck", "lint", *args], cwd=cwd, capture_output=True,
                          timeout=timeout, **kwargs)


def test_a_symbolic_link_that_loops(project: Path, other: Path) -> None:
    os.symlink("x.py", project / "x.py")
    result = lint("--output-format", "concise")
    assert result.exit_code == 2
    assert "shapecheck: error: x.py: cannot be read: Too many levels of symbolic links" in result.stderr
    assert reported(result) == [OTHER]


@pytest.mark.parametrize("content", [
    b'[tool.shapecheck]\nselect = ["SC\xff"]\n',  # not UTF-8
    b"[tool.shapecheck]\nx = " + b"[" * 100_000 + b"]" * 100_000 + b"\n",  # nested past the recursion limit
])
def test_an_unreadable_pyproject(project: Path, other: Path, content: bytes) -> None:
    (project / "pyproject.toml").write_bytes(content)
    result = lint()
    assert result.exit_code == 2
    assert "pyproject.toml: is not valid TOML" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_reversed_range_matches_nothing_as_in_git(project: Path, other: Path) -> None:
    write(project / ".gitignore", "[z-a]*.py\n")
    assert reported(lint("--output-format", "concise")) == [OTHER]
    write(project / "pyproject.toml", '[tool.shapecheck]\nextend-exclude = ["[!z-a]ther.py"]\n')
    assert reported(lint("--output-format", "concise")) == []  # a negated empty class matches any character


def test_a_file_name_that_is_not_utf8_in_sarif(project: Path) -> None:
    if sys.platform == "darwin":
        pytest.skip("macOS file systems refuse names that are not UTF-8")
    (project / os.fsdecode(b"b\xff.py")).write_text(BUGGY)
    result = shapecheck("--output-format", "sarif", cwd=project)
    assert result.returncode == 1, result.stderr
    assert b'"uri": "b%FF.py"' in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="closes a POSIX file descriptor")
def test_a_closed_standard_input(project: Path) -> None:
    result = shapecheck("-", cwd=project, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    assert result.returncode == 2
    assert result.stderr == b"shapecheck: error: -: standard input is closed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_standard_output_on_a_full_device(project: Path, other: Path) -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "shapecheck", "lint"], cwd=project, stdout=full,
                                stderr=subprocess.PIPE, timeout=120)
    assert result.returncode == 2
    assert result.stderr.decode().strip() == "shapecheck: error: No space left on device"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_as_config_does_not_block(project: Path, other: Path) -> None:
    os.mkfifo(project / "config.toml")
    result = shapecheck("--config", "config.toml", cwd=project, timeout=60)
    assert result.returncode == 2
    assert b"shapecheck: error: config.toml: is not a regular file" in result.stderr


# ---------------------------------------------------------------------------------------------- writing fixes


def test_an_interrupted_write_leaves_no_temporary_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(project / "m.py", BUGGY)

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(writer.os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        writer.write_atomically(str(path), FIXED.encode())
    assert sorted(os.listdir(project)) == ["m.py"]
    assert path.read_text() == BUGGY


def test_a_fixed_file_keeps_its_hard_links(project: Path) -> None:
    path = write(project / "m.py", BUGGY)
    os.link(path, project / "linked.py")
    assert lint("--fix", "m.py").exit_code == 0
    assert (project / "linked.py").read_text() == FIXED
    assert os.stat(project / "linked.py").st_ino == os.stat(path).st_ino


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_a_fixed_file_keeps_its_owner(project: Path) -> None:
    path = write(project / "m.py", BUGGY)
    os.chown(path, 4321, 4321)
    assert lint("--fix").exit_code == 0
    status = os.stat(path)
    assert (path.read_text(), status.st_uid, status.st_gid) == (FIXED, 4321, 4321)


def test_a_file_with_carriage_return_line_ends_keeps_its_last_one(project: Path) -> None:
    path = project / "m.py"
    path.write_bytes(BUGGY.replace("\n", "\r").encode())
    assert lint("--fix").exit_code == 0
    assert path.read_bytes() == FIXED.replace("\n", "\r").encode()
