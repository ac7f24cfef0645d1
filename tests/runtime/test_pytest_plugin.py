"""`pytest --shapecheck=pkga,pkgb`: a throwaway project with two packages, run by pytest in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from shapecheck.runtime.pytest_plugin import packages_from

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "shapecheck.runtime.pytest_plugin"

PACKAGES = {
    "pkga/__init__.py": '''
        import torch
        from jaxtyping import Float
        from torch import Tensor, nn

        def scale(x: Float[Tensor, "B D"], w: Float[Tensor, "D"]) -> Float[Tensor, "B D"]:
            return x * w

        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = nn.Parameter(torch.ones(4, 2))

            def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
                return x @ self.weight
    ''',
    "pkgb/__init__.py": '''
        from jaxtyping import Int
        from torch import Tensor

        def total(x: Int[Tensor, "N"]) -> Int[Tensor, ""]:
            return x.sum()
    ''',
    # Imports pkga before any test module does: the hook must already be in place.
    "tests/conftest.py": '''
        import pkga
    ''',
    "tests/test_usage.py": '''
        import torch
        import pkga, pkgb

        def test_scale_with_a_broadcast_bug():
            pkga.scale(torch.ones(2, 3), torch.ones(1))  # runs, but w breaks its annotation

        def test_total_of_floats():
            pkgb.total(torch.ones(3))  # runs, but x is not an Int tensor

        def test_head_on_meta():
            pkga.Head().to("meta")(torch.ones(2, 4))  # returns garbage instead of raising (pytorch#139437)

        def test_fine():
            assert pkga.scale(torch.ones(2, 3), torch.ones(3)).shape == (2, 3)
    ''',
    "pytest.ini": '''
        [pytest]
    ''',
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in PACKAGES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def run_pytest(project: Path, *args: str, **environment: str) -> subprocess.CompletedProcess:
    # An installed shapecheck registers the plugin through its entry point; a bare checkout needs -p.
    installed = any(entry.value == PLUGIN for entry in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", PLUGIN]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)])}
    env.pop("SHAPECHECK_DISABLE", None)
    env.pop("PYTEST_ADDOPTS", None)
    env.update(environment)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *plugin, *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)


def outcomes(done: subprocess.CompletedProcess) -> dict[str, str]:
    """test name -> PASSED / FAILED, from the -rA summary."""
    result = {}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED", "ERROR"):
            result[rest.split("::")[-1].split(" ")[0]] = word
    return result


EXPECTED_CHECKED = {"test_scale_with_a_broadcast_bug": "FAILED", "test_total_of_floats": "FAILED",
                    "test_head_on_meta": "FAILED", "test_fine": "PASSED"}


def test_without_the_option_the_bugs_go_unnoticed(project):
    done = run_pytest(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(outcomes(done).values()) == {"PASSED"}
    assert "shapecheck:" not in done.stdout


def test_two_packages_comma_separated(project):
    done = run_pytest(project, "--shapecheck=pkga,pkgb")
    assert outcomes(done) == EXPECTED_CHECKED, done.stdout + done.stderr
    assert "shapecheck: checking pkga, pkgb" in done.stdout
    assert "ShapeError: shapecheck: scale() argument 'w'" in done.stdout
    assert "DeviceError: shapecheck: Head.forward() got tensors on 2 devices" in done.stdout


def test_two_packages_repeated_option_and_xdist(project):
    done = run_pytest(project, "--shapecheck", "pkga", "--shapecheck=pkgb", "-n", "2")
    assert outcomes(done) == EXPECTED_CHECKED, done.stdout + done.stderr


def test_one_package_checks_only_that_one(project):
    done = run_pytest(project, "--shapecheck=pkgb")
    assert outcomes(done) == {**{name: "PASSED" for name in EXPECTED_CHECKED}, "test_total_of_floats": "FAILED"}


def test_package_imported_before_the_hook_is_a_usage_error(project):
    done = run_pytest(project, "-p", "pkga", "--shapecheck=pkga")  # -p imports pkga as a plugin first
    assert done.returncode == 4, done.stdout + done.stderr
    assert "pkga imported before shapecheck could instrument it" in done.stderr


def test_disabled_by_environment(project):
    done = run_pytest(project, "--shapecheck=pkga,pkgb", SHAPECHECK_DISABLE="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "shapecheck: off (SHAPECHECK_DISABLE is set) pkga, pkgb" in done.stdout


def test_loading_the_plugin_imports_neither_torch_nor_jaxtyping():
    code = (f"import sys, {PLUGIN}, shapecheck.runtime.import_hook\n"
            "heavy = {'torch', 'jaxtyping'} & set(sys.modules)\n"
            "assert not heavy, heavy")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_packages_from_option_values():
    assert packages_from(["a,b", " c ", "a", ""]) == ["a", "b", "c"]
    assert packages_from(["pkg.sub,other"]) == ["pkg.sub", "other"]
    with pytest.raises(pytest.UsageError):
        packages_from(["beartype.beartype(conf=1)"])


# A package no test imports was never checked: the session ends with a warning naming it. A package that does not
# exist is a usage error.
UNUSED_PACKAGE_FILES = {
    "pkga/__init__.py": "VALUE = 1\n",
    "pkgb/__init__.py": "VALUE = 2\n",
    "pkgb/sub.py": "VALUE = 3\n",
    "tests/test_a.py": "import pkga\n\ndef test_a():\n    assert pkga.VALUE == 1\n",
}
NEVER = "shapecheck: --shapecheck named {}, but no test imported"


@pytest.fixture
def small_project(pytester: pytest.Pytester) -> pytest.Pytester:
    for name, text in UNUSED_PACKAGE_FILES.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pytester


def run_small(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    installed = any(entry.value == PLUGIN for entry in entry_points(group="pytest11"))
    return pytester.runpytest_subprocess(*([] if installed else ["-p", PLUGIN]), "-p", "no:cacheprovider", *args)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_package_never_imported_is_named_at_the_end(small_project: pytest.Pytester, workers: list[str]) -> None:
    done = run_small(small_project, "--shapecheck=pkga,pkgb,pkgb.sub", *workers)
    assert done.ret == 0, done.stdout.str()  # a warning, not a failure: a run of some of the tests is fine
    text = done.stdout.str()
    assert NEVER.format("pkgb, pkgb.sub") in text
    assert text.index("shapecheck warning") > text.index("[100%]")  # after the tests ran


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_package_that_does_not_exist_is_a_usage_error_before_any_test_runs(
        small_project: pytest.Pytester, workers: list[str]) -> None:
    done = run_small(small_project, "--shapecheck=pkga,pkgtypo,pkga.typo,pkgb,pkgb.sub.deeper,pkgtypo.sub", *workers)
    assert done.ret == pytest.ExitCode.USAGE_ERROR, done.stdout.str() + done.stderr.str()
    assert ("ERROR: --shapecheck: no module named 'pkgtypo', 'pkga.typo', 'pkgb.sub.deeper', 'pkgtypo.sub' can be "
            "imported where the tests run (misspelt, or not on sys.path?)") in done.stderr.str()
    assert "passed" not in done.stdout.str() and "INTERNALERROR" not in done.stdout.str() + done.stderr.str()


def test_findable_imports_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shapecheck.runtime.import_hook import findable

    (tmp_path / "unimported_pkg" / "sub").mkdir(parents=True)
    for name in ("__init__.py", "sub/__init__.py", "sub/leaf.py"):
        (tmp_path / "unimported_pkg" / name).write_text("raise AssertionError('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert findable("unimported_pkg") and findable("unimported_pkg.sub") and findable("unimported_pkg.sub.leaf")
    assert not findable("unimported_pkg.nope") and not findable("unimported_pkg.sub.leaf.deeper")
    assert not findable("unimported_pkg_typo") and findable("json.decoder") and findable("os.path")
    assert not [name for name in sys.modules if name.startswith("unimported_pkg")]


def test_an_empty_package_list_is_a_usage_error(small_project: pytest.Pytester) -> None:
    done = run_small(small_project, "--shapecheck=", "--shapecheck", " , ")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert "ERROR: --shapecheck: no package name given" in done.stderr.str()


def test_a_package_reachable_only_once_the_tests_are_collected_is_checked(tmp_path: Path) -> None:
    # tests/ is a package, so pytest's default import mode puts the project folder on sys.path while it collects:
    # before that `mypkg` cannot be found, and that must not count as misspelt.
    files = {"mypkg/__init__.py": PACKAGES["pkgb/__init__.py"],
             "tests/__init__.py": "",
             "tests/test_total.py": "import torch, mypkg\n\ndef test_total():\n    mypkg.total(torch.ones(3))\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    script = Path(sys.executable).with_name("pytest")  # as typed: no current folder on sys.path, unlike -m pytest
    if not script.exists():
        pytest.skip("no pytest script beside the interpreter")
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    installed = any(entry.value == PLUGIN for entry in entry_points(group="pytest11"))
    if not installed:
        env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([str(script), "-p", "no:cacheprovider", *([] if installed else ["-p", PLUGIN]),
                           "--shapecheck=mypkg"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "ShapeError: shapecheck: total() argument 'x' does not match Int[Tensor, \"N\"]" in done.stdout


def test_no_warning_when_every_package_was_imported(small_project: pytest.Pytester) -> None:
    for workers in ([], ["-n", "2"]):
        done = run_small(small_project, "--shapecheck=pkga", *workers)
        assert done.ret == 0 and "no test imported" not in done.stdout.str(), done.stdout.str()
