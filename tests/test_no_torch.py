"""The linter must never import torch (nor jaxtyping): its pre-commit hook installs libcst and click only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli_helpers import BUGGY, write

PROJECT = Path(__file__).resolve().parents[1]

# A fresh interpreter where importing torch or jaxtyping fails (as where they are not installed) and is recorded,
# even if the importer catches the ImportError; the script after it prints what ended up in sys.modules.
BLOCKER = """
import json, sys

BLOCKED = ("torch", "jaxtyping")
attempts = []

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            attempts.append(name)
            raise ImportError(f"{name} is blocked")
        return None

sys.meta_path.insert(0, Blocker())
"""

# `shapecheck lint` with `--jobs 1`: no worker processes, so every import happens here. Prints the exit code, the
# attempts and what ended up in sys.modules.
SCRIPT = BLOCKER + """
from shapecheck.cli import main
try:
    main(["lint", "--jobs", "1", "--select", "ALL", "--output-format", "concise", *sys.argv[1:]])
except SystemExit as exit:
    code = exit.code
loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
print(json.dumps({"code": code, "attempts": attempts, "loaded": loaded}))
"""


def test_linting_imports_no_torch(tmp_path: Path) -> None:
    buggy = write(tmp_path / "model.py", BUGGY)
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(PROJECT / "fixtures"), str(buggy)],
                            capture_output=True, text=True, timeout=300)
    outcome = json.loads(result.stdout.splitlines()[-1])
    assert (outcome["attempts"], outcome["loaded"]) == ([], []), result.stdout + result.stderr
    assert f"{buggy}:2:5: SC301" in result.stdout  # the bug was found, so the rules did run
    assert outcome["code"] in (1, 2) and "Traceback" not in result.stderr


# The editor server's whole lint path, as `shapecheck server` and its worker process run it for a document:
# settings, incremental re-parse and analysis, findings, fixes, hover.
SERVER_SCRIPT = BLOCKER + """
from pathlib import Path
from shapecheck.server import app
from shapecheck.server.analyses import Analyses
from shapecheck.server.documents import SettingsCache

path = Path(sys.argv[1])
settings = SettingsCache().settings_for(str(path))
rules, options = settings.rules, settings.options
analyses = Analyses()
text = path.read_text()
first = analyses.lint(path.as_uri(), str(path), text, rules, options)
second = analyses.lint(path.as_uri(), str(path), text.replace("dim=-1", "dim=1"), rules, options)
fixed = analyses.fixed(str(path), text, rules, True, options)
analyses.hover(path.as_uri(), str(path), text, 1, 4, "utf-16")
loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
print(json.dumps({"codes": [f.code for f in first.findings + second.findings], "fixed": fixed is not None,
                  "attempts": attempts, "loaded": loaded}))
"""


def test_the_editor_server_imports_no_torch(tmp_path: Path) -> None:
    buggy = write(tmp_path / "model.py", BUGGY)
    result = subprocess.run([sys.executable, "-c", SERVER_SCRIPT, str(buggy)], capture_output=True, text=True,
                            timeout=300)
    outcome = json.loads(result.stdout.splitlines()[-1])
    assert (outcome["attempts"], outcome["loaded"]) == ([], []), result.stdout + result.stderr
    assert outcome["codes"] == ["SC301", "SC301"] and outcome["fixed"]
