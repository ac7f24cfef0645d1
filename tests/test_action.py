"""The GitHub Action (action.yml): its shell steps run as the runner runs them (`bash -e`, inputs through the
environment, GITHUB_PATH / GITHUB_OUTPUT files), with each test's inputs, in a temporary repository. shapecheck is
installed once, by the action's own install step, from this checkout (its default `version`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.cli_helpers import BUGGY, write

PROJECT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((PROJECT / "action.yml").read_text())
STEPS = {step["name"]: step for step in ACTION["runs"]["steps"]}
WARNING_ONLY = "import torch\nscaler = torch.cuda.amp.GradScaler()\n"

pytestmark = pytest.mark.slow


def inputs(**given: str) -> dict[str, str]:
    """Every input's value: the given ones, else the action's defaults."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    unknown = set(given) - set(values)
    assert not unknown, f"not inputs of the action: {unknown}"
    return values | given


def substitute(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda match: values[match.group(1)], text)


def run_step(name: str, values: dict[str, str], workspace: Path, runner: Path) -> subprocess.CompletedProcess[str]:
    """One `run:` step as the runner runs it: bash -e, its `env:` with the inputs substituted, the folders on
    GITHUB_PATH before PATH; what it writes to GITHUB_OUTPUT is left in runner/output."""
    step = STEPS[name]
    assert step["shell"] == "bash" and "${{" not in step["run"], "inputs must reach the script through env"
    path_file = runner / "path"
    path_file.touch()
    extra = [line for line in path_file.read_text().splitlines() if line]
    environment = {**os.environ, "GITHUB_ACTION_PATH": str(PROJECT), "RUNNER_TEMP": str(runner),
                   "GITHUB_PATH": str(path_file), "GITHUB_OUTPUT": str(runner / "output"),
                   "PATH": os.pathsep.join([*reversed(extra), os.environ["PATH"]])}
    environment.update({key: substitute(value, values) for key, value in step.get("env", {}).items()})
    script = runner / "step.sh"
    script.write_text(step["run"])
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                          env=environment, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RUNNER_TEMP with shapecheck installed by the action's install step."""
    folder = tmp_path_factory.mktemp("runner")
    done = run_step("Install shapecheck", inputs(), tmp_path_factory.mktemp("workspace"), folder)
    assert done.returncode == 0, done.stderr
    [bin_folder] = (folder / "path").read_text().split()
    assert (Path(bin_folder) / "shapecheck").exists()
    return folder


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    write(tmp_path / "src" / "model.py", BUGGY)
    write(tmp_path / "src" / "amp.py", WARNING_ONLY)
    return tmp_path


def lint(runner: Path, workspace: Path, **given: str) -> subprocess.CompletedProcess[str]:
    (runner / "output").write_text("")
    return run_step("Lint", inputs(**given), workspace, runner)


def exit_code_output(runner: Path) -> str:
    return (runner / "output").read_text()


def test_the_defaults_annotate_the_pull_request_and_fail(runner: Path, workspace: Path) -> None:
    done = lint(runner, workspace)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "::warning title=shapecheck (SC402),file=src/amp.py,line=2,col=10,endLine=2,endColumn=37::src/amp.py:2:10: "
        "SC402 `torch.cuda.amp.GradScaler` is deprecated: use `torch.amp.GradScaler(\"cuda\", ...)`",
        "::error title=shapecheck (SC301),file=src/model.py,line=2,col=5,endLine=2,endColumn=31::src/model.py:2:5: "
        "SC301 log of softmax is numerically unstable: use `log_softmax(..., dim=...)`",
    ]
    assert exit_code_output(runner) == "exit-code=1\n"


def test_fail_on_error_lets_warnings_pass(runner: Path, workspace: Path) -> None:
    done = lint(runner, workspace, paths="src/amp.py", **{"fail-on": "error"})
    assert done.returncode == 0 and "::warning " in done.stdout
    assert exit_code_output(runner) == "exit-code=0\n"
    assert lint(runner, workspace, **{"fail-on": "error"}).returncode == 1  # model.py has an error


def test_format_and_args(runner: Path, workspace: Path) -> None:
    done = lint(runner, workspace, format="json", args="--select SC4 --ignore SC402")
    assert done.returncode == 0 and json.loads(done.stdout) == []
    done = lint(runner, workspace, format="concise", paths="src/model.py src/amp.py")
    assert done.stdout.splitlines()[:2] == [
        "src/amp.py:2:10: SC402 [*] `torch.cuda.amp.GradScaler` is deprecated: use "
        "`torch.amp.GradScaler(\"cuda\", ...)`",
        "src/model.py:2:5: SC301 [*] log of softmax is numerically unstable: use `log_softmax(..., dim=...)`"]


def test_sarif_is_written_for_the_upload_step(runner: Path, workspace: Path) -> None:
    done = lint(runner, workspace, sarif="true", **{"sarif-file": "out/report.sarif"})  # the folder is made
    assert done.returncode == 1 and done.stdout.startswith("::")  # the job's own run, as without SARIF
    log = json.loads((workspace / "out" / "report.sarif").read_text())
    uris = {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in log["runs"][0]["results"]}
    assert uris == {"src/model.py", "src/amp.py"}
    upload = STEPS["Upload SARIF to code scanning"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "always()" in upload["if"] and "inputs.sarif == 'true'" in upload["if"]
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"


def test_a_report_that_cannot_be_written_fails_the_job(runner: Path, workspace: Path) -> None:
    write(workspace / "blocker", "a file where the report's folder should be\n")
    done = lint(runner, workspace, sarif="true", paths="src/amp.py", **{"sarif-file": "blocker/r.sarif",
                                                                        "fail-on": "error"})
    assert done.returncode != 0 and exit_code_output(runner) != "exit-code=0\n"


def test_no_sarif_by_default(runner: Path, workspace: Path) -> None:
    lint(runner, workspace)
    assert not (workspace / "shapecheck.sarif").exists()


def test_inputs_cannot_inject_shell(runner: Path, workspace: Path) -> None:
    done = lint(runner, workspace, format='github"; touch injected; echo "')
    assert done.returncode == 2 and not (workspace / "injected").exists()


def test_a_broken_configuration_fails_the_job(runner: Path, workspace: Path) -> None:
    write(workspace / "pyproject.toml", "[tool.shapecheck]\nselect = 'SC1'\n")
    done = lint(runner, workspace)
    assert done.returncode == 2 and "select: expected a list" in done.stderr
    assert exit_code_output(runner) == "exit-code=2\n"


def test_every_input_is_documented_and_used() -> None:
    text = (PROJECT / "action.yml").read_text()
    for name, spec in ACTION["inputs"].items():
        assert spec["description"]
        assert f"inputs.{name} }}}}" in text, f"input {name} is never used"
