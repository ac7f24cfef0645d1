"""The pre-commit hook: its manifest, and the real `pre-commit try-repo` on a temporary git repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.cli_helpers import BUGGY, CLEAN, write
from tests.test_notebook import BUGGY as BUGGY_NOTEBOOK

PROJECT = Path(__file__).resolve().parents[1]


def test_the_hook_manifest() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks["shapecheck"]
    assert hook["name"] == "shapecheck"
    assert hook["entry"].split()[:2] == ["shapecheck", "lint"]
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "jupyter"]


# A commit needs an identity; CI machines often have none configured.
ENVIRONMENT = {**os.environ, "GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com",
               "GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com"}


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=ENVIRONMENT, check=True, capture_output=True)


def snapshot_of_the_project(destination: Path) -> Path:
    """The project's working tree as a fresh one-commit repository: try-repo installs from a commit, and on the
    checkout itself it would leave out files not yet added to git."""
    shutil.copytree(PROJECT, destination, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", ".pytest_cache", "build", "dist", ".venv", "tests", "fixtures"))
    git("init", "-q", cwd=destination)
    git("add", "-A", cwd=destination)
    git("commit", "-q", "-m", "snapshot", cwd=destination)
    return destination


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    """pre-commit builds a virtualenv, installs the project from the package index (libcst, click: no torch) and
    runs the hook on the files named."""
    repository = snapshot_of_the_project(tmp_path / "shapecheck")
    work = tmp_path / "work"
    write(work / "buggy.py", BUGGY)
    write(work / "clean.py", CLEAN)
    write(work / "nb.ipynb", BUGGY_NOTEBOOK)
    git("init", "-q", cwd=work)
    git("add", "-A", cwd=work)

    def try_repo(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(repository), "shapecheck",
                               "--files", *files], cwd=work, capture_output=True, text=True, timeout=600,
                              env={**ENVIRONMENT, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")})

    failing = try_repo("buggy.py")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "buggy.py:2:5: SC301" in failing.stdout

    notebook = try_repo("nb.ipynb")  # the hook takes notebooks too
    assert notebook.returncode == 1 and "nb.ipynb:cell 3:2:5: SC301" in notebook.stdout, notebook.stdout

    passing = try_repo("clean.py")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


README_URL = "https://github.com/OWNER/shapecheck"


def readme_pre_commit_config() -> str:
    readme = (PROJECT / "README.md").read_text()
    block = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", readme, re.S)
    assert block is not None, "the README's pre-commit snippet"
    return block.group(1)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_readme_rev_advice_holds_for_pre_commit_autoupdate(tmp_path: Path) -> None:
    """The README's snippet, word for word but pointed at a copy of this repository: without tags
    `pre-commit autoupdate` pins the newest commit's SHA; after the README's tagging command, the tag."""
    snippet = readme_pre_commit_config()
    (repo,) = yaml.safe_load(snippet)["repos"]
    assert repo["repo"] == README_URL and [hook["id"] for hook in repo["hooks"]] == ["shapecheck"]
    repository = snapshot_of_the_project(tmp_path / "shapecheck")
    work = tmp_path / "work"
    write(work / ".pre-commit-config.yaml", snippet.replace(README_URL, str(repository)))
    git("init", "-q", cwd=work)

    def autoupdate() -> str:
        done = subprocess.run([sys.executable, "-m", "pre_commit", "autoupdate"], cwd=work, capture_output=True,
                              text=True, timeout=300, env={**ENVIRONMENT, "PRE_COMMIT_HOME": str(tmp_path / "home")})
        assert done.returncode == 0, done.stdout + done.stderr
        return yaml.safe_load((work / ".pre-commit-config.yaml").read_text())["repos"][0]["rev"]

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repository, capture_output=True, text=True,
                          check=True).stdout.strip()
    assert autoupdate() == head
    git("tag", "-a", "v0.1.0", "-m", "shapecheck 0.1.0", cwd=repository)
    assert autoupdate() == "v0.1.0"
