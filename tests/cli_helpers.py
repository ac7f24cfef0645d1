"""Helpers for the tests that run `shapecheck lint` as users do: sources with known findings, and the CLI runner."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from shapecheck.cli import main

# SC301: reported at line 2, column 5; its safe fix gives FIXED.
BUGGY = "import torch.nn.functional as F\ny = F.softmax(x, dim=-1).log()\n"
FIXED = "import torch.nn.functional as F\ny = F.log_softmax(x, dim=-1)\n"
CLEAN = "import torch\nx = torch.ones(3)\n"


def lint(*args: str, stdin: bytes | str | None = None) -> Result:
    """`shapecheck lint ARGS` in this process (the working directory is the caller's)."""
    return CliRunner().invoke(main, ["lint", *args], input=stdin)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def reported(result: Result) -> list[str]:
    """`path:row:col: CODE` of each finding in concise or full output."""
    found = []
    for line in result.stdout.splitlines():
        parts = line.split(": ", 2)
        if len(parts) == 3 and parts[0].count(":") == 2 and parts[1].startswith("SC"):
            found.append(f"{parts[0]}: {parts[1].split()[0]}")
    return found
