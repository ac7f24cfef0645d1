"""The result cache (`shapecheck.cache`): what it keys on, what it keeps, what it survives, and `shapecheck clean`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from shapecheck import cache as cache_module
from shapecheck import runner
from shapecheck.cache import CACHE_DIR_NAME, ResultCache, _decode_finding, _encode_finding, clean
from shapecheck.cli import main
from shapecheck.config import Config
from shapecheck.settings import Settings
from shapecheck.engine import dependencies, registry
from shapecheck.engine.torch_requirement import _minimum_in
from shapecheck.findings import UNUSED_NOQA, Edit, FileResult, Finding, FixInfo, Location
from tests.cli_helpers import BUGGY, CLEAN, FIXED, lint, reported, write

SYNTAX_ERROR = "import torch\ndef broken(:\n    pass\n"
LOAD = "import torch\nstate = torch.load('w.pth')\n"
HOUR_AGO = time.time() - 3600


@pytest.fixture
def linted(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The paths each run sent to the engine (one list per run that linted anything): a cache hit sends none."""
    runs: list[list[str]] = []
    real = runner.run

    def run(tasks, *args, **kwargs):
        runs.append([task.path for task in tasks])
        return real(tasks, *args, **kwargs)

    monkeypatch.setattr(runner, "run", run)
    return runs


def entries(project: Path) -> list[Path]:
    return sorted(path for path in (project / CACHE_DIR_NAME).glob("*/*") if not path.name.startswith("."))


# ------------------------------------------------------------------------------------------------ hits and misses

def test_a_second_run_is_answered_from_the_cache_with_the_same_output(project: Path, linted: list) -> None:
    write(project / "model.py", BUGGY)
    write(project / "clean.py", CLEAN)
    write(project / "broken.py", SYNTAX_ERROR)
    for output_format in ("full", "concise", "json", "sarif", "github"):
        first, second = lint("--output-format", output_format), lint("--output-format", output_format)
        assert (second.exit_code, second.stdout, second.stderr) == (first.exit_code, first.stdout, first.stderr)
    assert linted == [["broken.py", "clean.py", "model.py"]]  # each file once, in the first run only
    assert "broken.py:2:12: SC000" in reported(first) or "SC000" in first.stdout


def test_the_file_is_named_as_this_run_names_it(project: Path, linted: list) -> None:
    write(project / "pyproject.toml", "[tool.shapecheck]\n")  # one configuration and one cache for both runs
    write(project / "pkg" / "model.py", BUGGY)
    assert reported(lint("--output-format", "concise", "pkg")) == ["pkg/model.py:2:5: SC301"]
    os.chdir(project / "pkg")
    assert reported(lint("--output-format", "concise", "model.py")) == ["model.py:2:5: SC301"]
    assert len(linted) == 1


def test_a_hit_imports_neither_libcst_nor_the_rules(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.shapecheck]\nextend-select = ["SC501"]\n'
                                      'per-file-ignores = { "tests/*" = ["SC2"] }\n')
    write(project / "model.py", BUGGY)
    command = [sys.executable, "-X", "importtime", "-m", "shapecheck", "lint", "--output-format", "concise", "."]
    cold = subprocess.run(command, capture_output=True, text=True, cwd=project)
    warm = subprocess.run(command, capture_output=True, text=True, cwd=project)
    assert cold.stdout == warm.stdout and warm.returncode == cold.returncode == 1
    assert "model.py:2:5: SC301" in warm.stdout

    def imported(stderr: str) -> set[str]:
        return {line.split("|")[-1].strip() for line in stderr.splitlines() if line.startswith("import time:")}

    def heavy(names: set[str]) -> set[str]:
        # urllib.request brings http, email, ssl and tempfile: a third of a hit's start-up (the junit reporter's
        # xml.sax.saxutils imported it with every reporter); hashlib loads OpenSSL (the gitlab reporter's), and the
        # other reporters are imported only when their format is asked for.
        return {name for name in names if name.split(".")[0] in ("libcst", "multiprocessing", "tempfile", "email",
                                                                  "hashlib", "_hashlib")
                or name.startswith(("shapecheck.rules", "shapecheck.runner", "shapecheck.shapes",
                                    "shapecheck.engine.linter", "urllib.request", "http"))
                or name.startswith("shapecheck.reporters.") and name not in (
                    "shapecheck.reporters.concise", "shapecheck.reporters.fixability", "shapecheck.reporters.paths",
                    "shapecheck.reporters.statistics", "shapecheck.reporters.summary")}

    assert {"libcst", "shapecheck.rules", "shapecheck.engine.linter"} <= heavy(imported(cold.stderr))
    assert heavy(imported(warm.stderr)) == set()
    # The first run imports the rules the file's text can trigger, not every rule: no `backward` in it.
    assert "shapecheck.rules.log_of_softmax" in imported(cold.stderr)
    assert "shapecheck.rules.missing_zero_grad" not in imported(cold.stderr)


@pytest.mark.parametrize("change", [
    pytest.param(lambda p: write(p / "model.py", BUGGY + "z = 1\n"), id="the file's bytes"),
    pytest.param(lambda p: write(p / "pyproject.toml", '[tool.shapecheck]\nignore = ["SC301"]\n'), id="configuration"),
    pytest.param(lambda p: write(p / "pyproject.toml", '[tool.shapecheck]\nper-file-ignores = {"model.py" = '
                                                        '["SC3"]}\n'), id="per-file-ignores"),
])
def test_what_changes_the_result_is_a_miss(project: Path, linted: list, change) -> None:
    write(project / "pyproject.toml", "[tool.shapecheck]\n")
    write(project / "model.py", BUGGY)
    lint()
    lint()
    change(project)
    lint()
    assert len(linted) == 2


def test_the_command_line_selection_and_fix_mode_are_part_of_the_key(project: Path, linted: list) -> None:
    write(project / "model.py", BUGGY)
    assert reported(lint("--output-format", "concise")) == ["model.py:2:5: SC301"]
    assert reported(lint("--output-format", "concise", "--ignore", "SC301")) == []
    assert reported(lint("--output-format", "concise", "--select", "SC1")) == []
    assert lint("--diff").stdout.startswith("--- model.py")  # a diff is never read from a lint-only entry
    assert (project / "model.py").read_text() == BUGGY
    assert len(linted) == 4
    assert reported(lint("--output-format", "concise", "--ignore", "SC301")) == []
    assert len(linted) == 4


def test_another_build_of_shapecheck_reads_nothing_this_one_wrote(project: Path, linted: list,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write(project / "model.py", BUGGY)
    lint()
    monkeypatch.setattr(cache_module, "__version__", "9.9.9")
    lint()
    assert len(linted) == 2
    assert len([path for path in (project / CACHE_DIR_NAME).iterdir() if path.is_dir()]) == 2


def test_an_edit_to_a_rule_in_a_source_checkout_changes_the_build(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules"
    write(rules / "some_rule.py", "code = 1\n")
    spec = type("Spec", (), {"submodule_search_locations": [str(rules)]})()
    monkeypatch.setattr(cache_module.importlib.util, "find_spec", lambda name: spec)
    before = cache_module.build_fingerprint()
    assert cache_module.build_fingerprint() == before
    write(rules / "some_rule.py", "code = 22\n")
    assert cache_module.build_fingerprint() != before


# ------------------------------------------------------------------------------------------------ what is kept

def test_fixes_are_made_and_fixed_files_are_linted_again(project: Path, linted: list) -> None:
    write(project / "model.py", BUGGY)
    write(project / "clean.py", CLEAN)
    assert reported(lint("--output-format", "concise")) == ["model.py:2:5: SC301"]  # stored, without fixing
    fixed = lint("--fix", "--output-format", "concise")
    assert fixed.exit_code == 0 and "Found 1 error (1 fixed, 0 remaining)." in fixed.stdout
    assert (project / "model.py").read_text() == FIXED
    again = lint("--fix", "--output-format", "concise")
    assert again.exit_code == 0 and reported(again) == []
    assert (project / "model.py").read_text() == FIXED
    assert reported(lint("--output-format", "concise")) == []
    # the fixed file was not stored as fixed: its next runs linted its new bytes
    assert linted == [["clean.py", "model.py"], ["clean.py", "model.py"], ["model.py"], ["model.py"]]


def test_a_file_that_could_not_be_linted_is_not_kept(project: Path, linted: list) -> None:
    (project / "latin1.py").write_bytes(b"import torch\nx = '\xe9'\n")
    assert lint().exit_code == 2
    assert lint().exit_code == 2
    assert linted == [["latin1.py"], ["latin1.py"]]
    assert entries(project) == []


def test_notebooks_are_kept_with_their_cells(project: Path, linted: list) -> None:
    notebook = Path(__file__).parent.parent / "fixtures" / "buggy" / "training_notebook.ipynb"
    (project / "nb.ipynb").write_bytes(notebook.read_bytes())
    first = lint("--output-format", "json")
    second = lint("--output-format", "json")
    assert first.stdout == second.stdout and json.loads(first.stdout)[0]["cell"] is not None
    assert len(linted) == 1


def test_every_field_of_a_finding_survives_an_entry() -> None:
    finding = Finding("SC301", "log-of-softmax", "message", "nb.ipynb", Location(2, 5), Location(2, 30),
                      FixInfo("unsafe", "Use log_softmax", (Edit("F.log_softmax(x)", Location(2, 5),
                                                                  Location(2, 30)),)),
                      "y = F.softmax(x).log()", 3, Location(40, 9), Location(40, 34), "warning")
    # A field added to Finding must be added to the entry's layout (and here), or a hit would lose it.
    defaults = Finding("", "", "", "", Location(1, 1), Location(1, 1))
    assert [name for name in Finding._fields if getattr(finding, name) == getattr(defaults, name)] == []
    stored = json.loads(json.dumps(_encode_finding(finding)))
    assert _decode_finding(stored, "nb.ipynb") == finding


def test_results_of_a_fake_engine_keep_their_dependencies(project: Path, linted: list,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine will read other first-party files (the model in model.py used from train.py): a result that lists
    one is stale when it changes, goes, or appears."""
    model, absent = project / "model.py", project / "layers.py"
    write(model, "class Net: ...\n")
    os.utime(model, (HOUR_AGO, HOUR_AGO))
    real = runner.lint_text

    def lint_text(text: str, filename: str, *args, **kwargs) -> FileResult:
        result = real(text, filename, *args, **kwargs)
        if filename.endswith("train.py"):
            result.dependencies = [str(model), str(absent)]
        return result

    monkeypatch.setattr(runner, "lint_text", lint_text)
    write(project / "train.py", BUGGY)
    lint("train.py")
    lint("train.py")
    assert linted == [["train.py"]]
    os.utime(model, (time.time(), time.time()))  # touched, same bytes: still a hit (the hash decides)
    lint("train.py")
    assert len(linted) == 1
    write(model, "class Net: pass\n")  # changed
    os.utime(model, (HOUR_AGO, HOUR_AGO))
    lint("train.py")
    lint("train.py")
    assert len(linted) == 2
    write(absent, "X = 1\n")  # appeared
    os.utime(absent, (HOUR_AGO, HOUR_AGO))
    lint("train.py")
    assert len(linted) == 3
    model.unlink()  # removed
    lint("train.py")
    assert len(linted) == 4


def test_dependencies_are_glob_patterns_paths_escaped(project: Path, linted: list,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A path with glob characters in it stays that path; a pattern stands for its matches; a folder, for its
    existence (a file added in it changes nothing)."""
    odd, root_marker = project / "lib[1]" / "model.py", project / "repo" / ".git"
    write(odd, "A = 1\n")
    write(project / "lib1" / "model.py", "decoy\n")  # what the unescaped pattern would match
    write(project / "reqs" / "requirements.txt", "torch>=2.6\n")
    root_marker.mkdir(parents=True)
    for path in (odd, project / "lib1" / "model.py", project / "reqs" / "requirements.txt"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    real = runner.lint_text

    def lint_text(text: str, filename: str, *args, **kwargs) -> FileResult:
        with dependencies.collecting() as read:
            result = real(text, filename, *args, **kwargs)
            dependencies.record([str(odd), str(root_marker)])
            dependencies.record_pattern(str(project / "reqs"), "requirements*.txt")
        result.dependencies = sorted(read)
        return result

    monkeypatch.setattr(runner, "lint_text", lint_text)
    write(project / "train.py", BUGGY)
    lint("train.py")
    lint("train.py")
    assert len(linted) == 1
    write(project / "lib1" / "model.py", "changed decoy\n")
    write(root_marker / "index", "")
    lint("train.py")
    assert len(linted) == 1
    write(odd, "A = 22\n")
    os.utime(odd, (HOUR_AGO, HOUR_AGO))
    lint("train.py")
    lint("train.py")
    assert len(linted) == 2
    write(project / "reqs" / "requirements-dev.txt", "torch>=2.7\n")
    os.utime(project / "reqs" / "requirements-dev.txt", (HOUR_AGO, HOUR_AGO))
    lint("train.py")
    lint("train.py")
    assert len(linted) == 3
    (root_marker / "index").unlink()
    root_marker.rmdir()
    lint("train.py")
    assert len(linted) == 4


def test_a_dependency_modified_during_the_run_is_not_trusted(project: Path, linted: list,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    model = write(project / "model.py", "class Net: ...\n")  # just written: may have changed under the analysis
    real = runner.lint_text

    def lint_text(text: str, filename: str, *args, **kwargs) -> FileResult:
        result = real(text, filename, *args, **kwargs)
        result.dependencies = [str(model)]
        return result

    monkeypatch.setattr(runner, "lint_text", lint_text)
    write(project / "train.py", BUGGY)
    lint("train.py")
    lint("train.py")
    assert len(linted) == 2
    assert entries(project) == []


def test_the_torch_requirement_is_a_dependency_of_sc501(project: Path, linted: list) -> None:
    """SC501 reads the project's packaging files: changing the torch pin changes the finding."""
    (project / ".git").mkdir()
    pyproject = write(project / "pyproject.toml", '[project]\nname = "x"\ndependencies = ["torch>=2.6"]\n'
                                                  '[tool.shapecheck]\nextend-select = ["SC501"]\n')
    write(project / "load.py", LOAD)
    for path in (project, pyproject, project / "load.py"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    _minimum_in.cache_clear()
    assert reported(lint("--output-format", "concise")) == []
    assert reported(lint("--output-format", "concise")) == []
    assert len(linted) == 1
    write(pyproject, pyproject.read_text().replace("torch>=2.6", "torch>=2.0"))
    _minimum_in.cache_clear()  # this process remembers folders; a new run would not
    assert reported(lint("--output-format", "concise")) == ["load.py:2:9: SC501"]
    write(project / "requirements-dev.txt", "torch>=2.7\n")  # a new packaging file in a folder it read
    for path in (project, pyproject, project / "requirements-dev.txt"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    _minimum_in.cache_clear()
    assert reported(lint("--output-format", "concise")) == ["load.py:2:9: SC501"]
    assert len(linted) == 3


def test_a_first_party_module_the_analysis_read_is_a_dependency(project: Path, linted: list) -> None:
    """`train.py` is linted with `model.py`'s class: editing the model changes train.py's result."""
    model = write(project / "model.py", "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n"
                                        "    def __init__(self):\n        super().__init__()\n"
                                        "        self.fc = nn.Linear(8, 4)\n\n"
                                        "    def forward(self, x):\n        return self.fc(x)\n")
    write(project / "train.py", "import torch\nfrom model import Net\n\nnet = Net()\nout = net(torch.randn(2, 8))\n")
    for path in (project, model, project / "train.py"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    assert reported(lint("--output-format", "concise", "train.py")) == []
    assert reported(lint("--output-format", "concise", "train.py")) == []
    assert len(linted) == 1
    write(model, model.read_text().replace("Linear(8, 4)", "Linear(6, 4)"))
    assert reported(lint("--output-format", "concise", "train.py")) == ["train.py:5:7: SC105"]
    assert len(linted) == 2


def test_a_project_root_marker_that_appears_is_a_miss(project: Path, linted: list) -> None:
    """Without a marker, `app/sub/train.py` finds no `lib` package to import from; `git init` above makes the
    folder a project whose root holds `lib`, and the result the cache kept from before goes stale."""
    write(project / "lib" / "layers.py", "import torch\nfrom torch import nn\n\n\nclass Block(nn.Module):\n"
                                         "    def __init__(self):\n        super().__init__()\n"
                                         "        self.fc = nn.Linear(8, 4)\n\n"
                                         "    def forward(self, x):\n        return self.fc(x)\n")
    write(project / "app" / "sub" / "train.py",
          "import torch\nfrom lib.layers import Block\n\nblock = Block()\nout = block(torch.randn(2, 6))\n")
    train = os.path.join("app", "sub", "train.py")
    assert reported(lint("--output-format", "concise", train)) == []
    (project / ".git").mkdir()
    dependencies.forget()  # what a new process knows
    assert reported(lint("--output-format", "concise", train)) == [f"{train}:5:7: SC105"]
    assert len(linted) == 2


def test_a_module_that_imports_the_file_is_a_dependency(project: Path, linted: list) -> None:
    """An empty parameter of `model.py` is initialized by `train.py`, which imports it: a result that depends on
    an importer goes stale when one appears or changes."""
    model = write(project / "model.py", "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n"
                                        "    def __init__(self):\n        super().__init__()\n"
                                        "        self.w = nn.Parameter(torch.empty(4, 4))\n")
    for path in (project, model):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    assert reported(lint("--output-format", "concise", "--select", "SC401", "model.py")) == ["model.py:8:31: SC401"]
    train = write(project / "train.py", "from torch import nn\nfrom model import Net\n\nnet = Net()\n")
    assert reported(lint("--output-format", "concise", "--select", "SC401", "model.py")) == ["model.py:8:31: SC401"]
    write(train, train.read_text() + "net.apply(lambda m: nn.init.normal_(m.w) if hasattr(m, 'w') else None)\n")
    assert reported(lint("--output-format", "concise", "--select", "SC401", "model.py")) == []
    assert len(linted) == 3


# ---------------------------------------------------------------------------------------------- on disk

def test_the_folder_is_marked_as_a_cache_and_ignored_by_git(project: Path) -> None:
    write(project / "model.py", BUGGY)
    lint()
    folder = project / CACHE_DIR_NAME
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=project,
                            capture_output=True, text=True, check=True).stdout
    assert CACHE_DIR_NAME not in status and "model.py" in status


def test_a_corrupt_or_truncated_entry_is_a_miss(project: Path, linted: list) -> None:
    write(project / "model.py", BUGGY)
    expected = lint("--output-format", "concise").stdout
    [entry] = entries(project)
    good = entry.read_bytes()
    checksum, payload = good.split(b"\n", 1)
    broken_payload = json.dumps({"dependencies": [], "result": {"findings": [["SC301"]]}}).encode()
    damaged = [b"", good[: len(good) // 2], good.replace(b"SC301", b"SC302"), b"\xff" * 40,
               cache_module.digest(broken_payload).encode() + b"\n" + broken_payload,
               cache_module.digest(b"[]").encode() + b"\n[]"]
    for data in damaged:
        entry.write_bytes(data)
        result = lint("--output-format", "concise")
        assert (result.exit_code, result.stdout) == (1, expected)
        assert entry.read_bytes() == good  # written again
    assert len(linted) == 1 + len(damaged)


def test_no_cache_neither_reads_nor_writes(project: Path, linted: list, monkeypatch: pytest.MonkeyPatch) -> None:
    write(project / "model.py", BUGGY)
    lint("--no-cache")
    assert not (project / CACHE_DIR_NAME).exists()
    lint()
    lint("--no-cache")
    monkeypatch.setenv("SHAPECHECK_NO_CACHE", "1")
    lint()
    assert len(linted) == 4


def test_where_the_cache_is(project: Path, linted: list, monkeypatch: pytest.MonkeyPatch) -> None:
    write(project / "sub" / "model.py", BUGGY)
    write(project / "pyproject.toml", '[tool.shapecheck]\ncache-dir = "build/cache"\n')
    os.chdir(project / "sub")
    lint("model.py")
    assert (project / "build" / "cache" / "CACHEDIR.TAG").exists()  # relative to the pyproject, not to the cwd
    monkeypatch.setenv("SHAPECHECK_CACHE_DIR", str(project / "from-env"))
    lint("model.py")
    assert (project / "from-env" / "CACHEDIR.TAG").exists()
    lint("model.py", "--cache-dir", str(project / "from-option"))
    assert (project / "from-option" / "CACHEDIR.TAG").exists()
    assert not (project / "sub" / CACHE_DIR_NAME).exists() and not (project / CACHE_DIR_NAME).exists()
    assert len(linted) == 3


def test_the_default_folder_is_in_the_project_root(project: Path) -> None:
    write(project / "pyproject.toml", "[tool.shapecheck]\n")
    write(project / "src" / "model.py", BUGGY)
    os.chdir(project / "src")
    lint("model.py")
    assert (project / CACHE_DIR_NAME).is_dir() and not (project / "src" / CACHE_DIR_NAME).exists()


def test_a_bad_cache_dir_setting_is_a_configuration_error(project: Path) -> None:
    write(project / "pyproject.toml", "[tool.shapecheck]\ncache-dir = 3\n")
    write(project / "model.py", BUGGY)
    result = lint()
    assert result.exit_code == 2 and "cache-dir: expected the path of a folder" in result.stderr and "got an integer 3" in result.stderr


def test_a_cache_that_cannot_be_written_is_skipped(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "not-a-folder", "")
    result = lint("--output-format", "concise", "--cache-dir", "not-a-folder/cache")
    assert result.exit_code == 1 and reported(result) == ["model.py:2:5: SC301"]
    assert "shapecheck: warning: " in result.stderr and "cannot write the cache" in result.stderr
    os.chmod(project, 0o555)  # the project root is read-only (a checkout in CI): no cache, no word about it
    try:
        if os.access(project, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        result = lint("--output-format", "concise")
        assert (result.exit_code, result.stderr) == (1, "")
    finally:
        os.chmod(project, 0o755)


# ------------------------------------------------------------------------------------------ parallel runs

def test_two_runs_over_one_tree_at_once(project: Path) -> None:
    for number in range(40):
        write(project / f"m{number:02}.py", BUGGY if number % 2 else CLEAN)
    expected = [f"m{number:02}.py:2:5: SC301" for number in range(1, 40, 2)]
    command = [sys.executable, "-m", "shapecheck", "lint", "--output-format", "concise", "--jobs", "1", "."]
    for _ in range(2):  # cold, then warm, each as two runs racing
        runs = [subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        for process in runs:
            stdout, stderr = process.communicate(timeout=300)
            assert (process.returncode, stderr) == (1, "")
            assert reported(type("R", (), {"stdout": stdout})()) == expected
    assert len(entries(project)) == 40
    assert not list((project / CACHE_DIR_NAME).glob("*/.*.tmp"))


def test_a_reader_sees_a_whole_entry_or_none_while_another_process_writes(tmp_path: Path) -> None:
    """Readers and writers of the same entries at once: every read is a miss or the right result, never an error."""
    writer = subprocess.Popen([sys.executable, "-c", f"""
import sys
from shapecheck.cache import ResultCache
from shapecheck.findings import FileResult, Finding, Location
cache = ResultCache({str(tmp_path)!r})
findings = [Finding("SC301", "log-of-softmax", "m" * 5000, "a.py", Location(n, 1), Location(n, 2)) for n in range(1, 40)]
for round in range(300):
    cache.put(f"{{round % 3:032x}}", FileResult("a.py", findings), 0)
"""])
    reader = ResultCache(str(tmp_path))
    seen = 0
    while writer.poll() is None or seen == 0:
        for key in range(3):
            result = reader.get(f"{key:032x}", "a.py")
            if result is not None:
                assert [finding.location.row for finding in result.findings] == list(range(1, 40))
                seen += 1
    assert writer.returncode == 0 and seen > 0


# ----------------------------------------------------------------------------------------- upkeep and clean

def test_old_entries_are_swept_at_most_once_a_day(tmp_path: Path) -> None:
    cache = ResultCache(str(tmp_path))
    cache.put("a" * 32, FileResult("a.py"), 0)
    cache.put("b" * 32, FileResult("b.py"), 0)
    old, new = Path(cache.space) / ("a" * 32), Path(cache.space) / ("b" * 32)
    month_ago = time.time() - 31 * 24 * 3600
    os.utime(old, (month_ago, month_ago))
    leftover = Path(cache.space) / ".x.123.0.tmp"  # an interrupted write
    leftover.write_bytes(b"")
    os.utime(leftover, (HOUR_AGO - 60, HOUR_AGO - 60))
    other_build = tmp_path / "0.0.1-0123456789abcdef"
    other_build.mkdir()
    os.utime(write(other_build / ("c" * 32), ""), (month_ago, month_ago))
    cache.sweep()
    assert not old.exists() and new.exists() and not leftover.exists() and not other_build.exists()
    os.utime(new, (month_ago, month_ago))
    cache.sweep()  # swept less than a day ago
    assert new.exists()
    cache.sweep(now_ns=time.time_ns() + 25 * 3600 * 10**9)
    assert not new.exists()


def test_clean_removes_the_caches_it_made_and_nothing_else(project: Path) -> None:
    write(project / "model.py", BUGGY)
    write(project / "sub" / "pyproject.toml", "[tool.shapecheck]\n")
    write(project / "sub" / "model.py", BUGGY)
    lint()
    os.chdir(project / "sub")
    lint()
    os.chdir(project)
    write(project / "data" / CACHE_DIR_NAME / "precious.txt", "not ours")
    result = CliRunner().invoke(main, ["clean"])
    assert result.exit_code == 0
    assert not (project / CACHE_DIR_NAME).exists() and not (project / "sub" / CACHE_DIR_NAME).exists()
    assert (project / "data" / CACHE_DIR_NAME / "precious.txt").exists()
    assert f"Removing cache at: {CACHE_DIR_NAME}" in result.stderr
    assert "not a shapecheck cache" in result.stderr
    home = write(project / "home" / "notes.txt", "mine")
    result = CliRunner().invoke(main, ["clean", "--cache-dir", str(home.parent)])  # a mistyped --cache-dir
    assert home.exists() and "left alone" in result.stderr


def test_clean_with_nothing_to_clean(project: Path) -> None:
    assert clean([str(project / CACHE_DIR_NAME)], str(project)) == ([], [])


# -------------------------------------------------------------------------------------------------- keys

def test_the_rule_codes_read_from_the_rule_modules_are_the_registrys() -> None:
    assert registry.known_codes() == frozenset(rule.code for rule in registry.all_rules())
    assert UNUSED_NOQA in registry.known_codes()


def test_the_rules_read_from_the_rule_modules_are_the_registrys() -> None:
    """What a lint decides before importing a rule (`registry.RuleEntry`) is what the rule's class says."""
    index = registry.rule_index()
    assert list(index) == [rule.code for rule in registry.all_rules()]
    for rule in registry.all_rules():
        entry = index[rule.code]
        assert (entry.default, entry.triggers, entry.triggered_through_imports) == (
            rule.default, rule.triggers, rule.triggered_through_imports), rule.code
        assert entry.load() is rule


def test_two_configurations_that_differ_have_different_keys(tmp_path: Path) -> None:
    cache = ResultCache(str(tmp_path))
    base = Config.of(Settings(), tmp_path)
    variants = [base, Config.of(Settings(per_file_ignores=(("a.py", ("SC3",)),)), tmp_path),
                Config.of(Settings(extend_exclude=("x",)), tmp_path), Config.of(Settings(), tmp_path / "other"),
                base.over(Settings(select=("SC1",)), tmp_path)]
    keys = {cache.key("a.py", config, fix, cache_module.digest(b"x")) for config in variants
            for fix in (None, "safe", "unsafe")}
    assert len(keys) == len(variants) * 3


def test_a_pattern_whose_matches_stat_as_before_is_not_read_on_a_hit(project: Path, linted: list,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A hit in a large project checks the folders an importer search looked in: their matches' names, sizes and
    times, as a file's own stat is checked, without reading them (an entry is stored without reading them either);
    a match touched, or changed in place (same size, new time), is a miss."""
    folder = project / "pkg"
    for name in ("a.py", "b.py"):
        write(folder / name, "X = 1\n")
        os.utime(folder / name, (HOUR_AGO, HOUR_AGO))
    real = runner.lint_text

    def lint_text(text: str, filename: str, *args, **kwargs) -> FileResult:
        with dependencies.collecting() as read:
            result = real(text, filename, *args, **kwargs)
            dependencies.record_pattern(str(folder), "*.py")
        result.dependencies = sorted(read)
        return result

    monkeypatch.setattr(runner, "lint_text", lint_text)
    write(project / "train.py", BUGGY)
    lint("train.py")
    read = []
    real_hash = ResultCache._hash
    monkeypatch.setattr(ResultCache, "_hash", lambda self, path: read.append(path) or real_hash(self, path))
    lint("train.py")
    assert (len(linted), read) == (1, [])
    write(folder / "b.py", "X = 2\n")  # same size
    os.utime(folder / "b.py", (HOUR_AGO + 120, HOUR_AGO + 120))
    lint("train.py")
    assert len(linted) == 2
    assert not any(path.endswith(("a.py", "b.py")) for path in read)  # stored without reading the matches
