"""A missing torch, jaxtyping or beartype is a message that says what to install, not a bare ModuleNotFoundError
from deep inside shapecheck. Each case runs in a fresh interpreter where the module cannot be found."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# As if `name` were not installed: the finders say "No module named ...", as they do for a module that is absent.
ABSENT = """
import sys

class Absent:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == {name!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Absent())
"""

CHECK = """
import shapecheck  # the linter's package imports without the runtime's dependencies
try:
    shapecheck.check
except ImportError as error:  # still an ImportError (and a ModuleNotFoundError) for code that catches one
    print(type(error).__name__, error.name, error, sep="|")
"""

TYPES = """
import shapecheck
def f(n: int) -> int:
    return n
try:
    shapecheck.check(types=True)(f)
except ImportError as error:
    print(type(error).__name__, error.name, error, sep="|")
"""

HOOK = """
import shapecheck
shapecheck.install_import_hook("checkedpkg")  # needs nothing yet: it only registers a finder
try:
    import checkedpkg
except ImportError as error:
    print(type(error).__name__, error.name, error, sep="|")
"""


def run(absent: str, script: str, tmp_path: Path) -> list[str]:
    (tmp_path / "checkedpkg").mkdir(exist_ok=True)
    (tmp_path / "checkedpkg" / "__init__.py").write_text("VALUE = 1\n")
    code = ABSENT.format(name=absent) + textwrap.dedent(script)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    env.pop("SHAPECHECK_DISABLE", None)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    return done.stdout.strip().split("|")


RUNTIME_EXTRA = 'pip install "torch-shapecheck[runtime]"'


@pytest.mark.parametrize(("absent", "script", "feature", "hint"), [
    ("torch", CHECK, "shapecheck.check", "install the torch build for your machine"),
    ("jaxtyping", CHECK, "shapecheck.check", RUNTIME_EXTRA),
    ("beartype", TYPES, "shapecheck.check(types=True)", RUNTIME_EXTRA),
    ("torch", HOOK, "the shapecheck import hook (instrumenting checkedpkg)", "https://pytorch.org/get-started"),
    ("jaxtyping", HOOK, "the shapecheck import hook (instrumenting checkedpkg)", RUNTIME_EXTRA),
])
def test_a_missing_dependency_says_what_to_install(absent: str, script: str, feature: str, hint: str,
                                                   tmp_path: Path) -> None:
    kind, name, message = run(absent, script, tmp_path)
    assert (kind, name) == ("ModuleNotFoundError", absent)
    assert message.startswith(f"shapecheck: {feature} needs {absent}, which is not installed: ")
    assert hint in message


def test_a_module_missing_inside_an_installed_dependency_keeps_its_own_message() -> None:
    from shapecheck.runtime.dependencies import required_by

    with pytest.raises(ModuleNotFoundError, match="No module named 'typing_extensions'"):
        with required_by("shapecheck.check"):
            raise ModuleNotFoundError("No module named 'typing_extensions'", name="typing_extensions")
