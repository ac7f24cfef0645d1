"""`importers`: the project's modules that import a file, for a verdict that depends on who uses the file."""

from __future__ import annotations

import glob
import os
from pathlib import Path

from shapecheck.engine import dependencies
from shapecheck.objects.project import importers


def test_the_modules_whose_imports_resolve_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "scripts").mkdir()
    model = tmp_path / "pkg" / "model.py"
    model.write_text("class Net: pass\n")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "scripts" / "train.py").write_text("from pkg.model import Net\n")
    (tmp_path / "pkg" / "eval.py").write_text("from .model import Net\n")
    (tmp_path / "scripts" / "model.py").write_text("import torchvision.models as model\n")  # a name alike
    with dependencies.collecting() as read:
        found = importers(str(model))
    assert sorted(found or []) == ["from .model import Net\n", "from pkg.model import Net\n"]
    # every folder searched is a dependency: a new importer in any of them re-lints the file
    assert {os.path.join(glob.escape(str(folder)), "*.py") for folder in
            (tmp_path, tmp_path / "pkg", tmp_path / "scripts")} <= read


def test_a_text_not_in_a_file_has_no_importers() -> None:
    assert importers("<stdin>") == []
