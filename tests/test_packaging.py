"""The distribution as the package index would serve it: the wheel and the sdist are built from a copy of the
project, each is installed into a fresh virtualenv, and the command runs from there.

Offline and torch-free: the build uses this environment's setuptools (`--no-isolation`), and the fresh virtualenvs
take libcst and click from this environment through a `.pth` file, which puts them after the venv's own
site-packages, so `import shapecheck` finds the installed distribution and nothing else.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.cli_helpers import BUGGY, write

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

PROJECT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
NAME = PYPROJECT["name"]
NOT_SHIPPED = ("tests/", "fixtures/", "bench/", ".ci/")

pytestmark = pytest.mark.slow


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel and the sdist, built from a copy so the checkout gets no build/ or egg-info folders."""
    source = tmp_path_factory.mktemp("source") / "project"
    shutil.copytree(PROJECT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache"))
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source)
    return out


def artifact(dist: Path, pattern: str) -> Path:
    (found,) = dist.glob(pattern)
    return found


def fresh_venv(path: Path) -> Path:
    """A virtualenv without pip whose Python sees this environment's packages after its own; its python."""
    venv.create(path, with_pip=False)
    python = path / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site_packages = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    outer = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site_packages) / "_outer_environment.pth").write_text("\n".join(sorted(outer)) + "\n")
    return python


def install(python: Path, requirement: Path) -> None:
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index",
        "--no-build-isolation", requirement)


def test_the_distribution_name_and_extras(dist: Path) -> None:
    with zipfile.ZipFile(artifact(dist, "*.whl")) as wheel:
        (metadata_name,) = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["Name"] == NAME == "torch-shapecheck"
    assert {"runtime", "server"} <= set(metadata.get_all("Provides-Extra"))
    requires = metadata.get_all("Requires-Dist")
    # `pip install "torch-shapecheck[runtime]"` brings the decorator's dependencies, and only that extra does.
    assert any(r.startswith("jaxtyping") and 'extra == "runtime"' in r for r in requires), requires
    assert any(r.startswith("pygls") and 'extra == "server"' in r for r in requires), requires
    assert not any(r.startswith("torch") for r in requires), "torch is the user's choice of build"


def test_the_license_classifiers_and_keywords(dist: Path) -> None:
    from trove_classifiers import classifiers as known

    with zipfile.ZipFile(artifact(dist, "*.whl")) as wheel:
        names = wheel.namelist()
        (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(wheel.read(metadata_name).decode())
        (license_name,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
        shipped = wheel.read(license_name).decode()
    assert shipped == (PROJECT / "LICENSE").read_text() and shipped.startswith("MIT License\n")
    assert (metadata["License-Expression"], metadata.get_all("License-File")) == ("MIT", ["LICENSE"])
    classifiers = metadata.get_all("Classifier")
    assert classifiers and not [name for name in classifiers if name not in known]  # PyPI refuses unknown ones
    assert not [name for name in classifiers if name.startswith("License ::")]  # PEP 639: License-Expression
    assert {"pytorch", "linter", "jaxtyping"} <= set(metadata["Keywords"].split(","))
    with tarfile.open(artifact(dist, "*.tar.gz")) as sdist:
        assert [name for name in sdist.getnames() if name.endswith("/LICENSE")]


def test_the_sdist_holds_no_tests_or_fixtures(dist: Path) -> None:
    with tarfile.open(artifact(dist, "*.tar.gz")) as sdist:
        names = [name.split("/", 1)[1] for name in sdist.getnames() if "/" in name]
    assert "rules/view_after_transpose.py" in names and "shapecheck/cli.py" in names
    assert not [name for name in names if name.startswith(NOT_SHIPPED)]


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_installed_into_a_fresh_venv(dist: Path, tmp_path: Path, kind: str) -> None:
    python = fresh_venv(tmp_path / "venv")
    install(python, artifact(dist, "*.whl" if kind == "wheel" else "*.tar.gz"))
    site_packages = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())

    # Run from tmp_path: from the checkout, `python -c` would import its shapecheck/ folder instead.
    where = run(python, "-c", "import shapecheck, shapecheck.rules; print(shapecheck.__file__); "
                "print(shapecheck.rules.__file__)", cwd=tmp_path).stdout.split()
    assert [Path(path).parent for path in where] == [site_packages / "shapecheck", site_packages / "shapecheck/rules"]
    installed = (site_packages / "torch_shapecheck-0.1.0.dist-info" / "RECORD").read_text()
    assert "shapecheck/rules/view_after_transpose.py" in installed
    assert not [line for line in installed.splitlines() if line.startswith(NOT_SHIPPED)]

    command = python.parent / "shapecheck"
    assert run(command, "--version").stdout.startswith("shapecheck, version")
    buggy = write(tmp_path / "model.py", BUGGY)
    linted = subprocess.run([command, "lint", "--output-format", "concise", buggy], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert f"{buggy}:2:5: SC301" in linted.stdout
