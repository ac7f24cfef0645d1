"""`importers`: the project's modules that import a file, for a verdict that depends on who uses the file."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from shapecheck.engine import dependencies
from shapecheck.objects.project import importers
from tests.cli_helpers import lint, reported, write


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


def test_a_module_imported_as_a_submodule_by_name(tmp_path: Path) -> None:
    """`from pkg import model` (then `model.Net()`) and `from . import model` import the file too."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    model = tmp_path / "pkg" / "model.py"
    model.write_text("class Net: pass\n")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "train.py").write_text("from pkg import model\n")
    (tmp_path / "pkg" / "eval.py").write_text("from . import (\n    model as m,\n)\n")
    (tmp_path / "pkg" / "other.py").write_text("from pkg import modelling\n")  # a name alike
    assert sorted(importers(str(model)) or []) == ["from . import (\n    model as m,\n)\n", "from pkg import model\n"]


def test_a_text_not_in_a_file_has_no_importers() -> None:
    assert importers("<stdin>") == []


VALIDATE = """\
import torch


def validate(generator, loader):
    generator.eval()
    for mel, audio in loader:
        fake = generator(mel)
        print(torch.nn.functional.l1_loss(fake, audio).item())
"""


@pytest.mark.parametrize(("train", "expected"), [
    ("import torch\nfrom validation import validate\n\nwith torch.no_grad():\n    validate(g, loader)\n", []),
    ("from validation import validate\n\nvalidate(g, loader)\n", ["validation.py:7:16: SC203"]),
    ("import torch\nimport validation\n\n@torch.no_grad()\ndef epoch_end(g):\n    validation.validate(g, loader)\n",
     []),
    ("", ["validation.py:7:16: SC203"]),  # nothing imports it: nothing runs it under no_grad
])
def test_eval_helper_called_only_under_no_grad_by_importers(project: Path, train: str, expected: list[str]) -> None:
    write(project / "validation.py", VALIDATE)
    write(project / "train.py", train)
    result = lint("--no-cache", "--output-format", "concise", "--select", "SC203", "validation.py")
    assert reported(result) == expected


TAGGER = """\
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.rnn = nn.GRU(8, hidden, batch_first=True)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), self.hidden)
        return self.rnn(x, h0)[0]


def build(hidden):
    return Tagger(hidden)
"""


@pytest.mark.parametrize(("files", "expected"), [
    # the script beside the model moves it, chained or through the name it is bound to
    ({"train.py": "from model import Tagger\n\nmodel = Tagger(16).to(device)\n"}, ["model.py:12:14: SC212"]),
    ({"train.py": "from model import Tagger as T\n\nclass Trainer:\n    def __init__(self):\n"
                  "        self.model = T(16)\n        self.model.cuda()\n"}, ["model.py:12:14: SC212"]),
    # a factory of the module builds it, and the script moves what it returns
    ({"train.py": "from model import build\n\nmodel = build(16).cuda()\n"}, ["model.py:12:14: SC212"]),
    # a package's `__init__` re-exports it, and the script imports the package
    ({"__init__.py": "from .model import Tagger\n", "../train.py": "from pkg import Tagger\n\nTagger(4).cuda()\n"},
     ["model.py:12:14: SC212"]),
    # kept on the CPU, cast to another dtype, or never moved: nothing to mix with
    ({"train.py": "from model import Tagger\n\nmodel = Tagger(16).to('cpu')\n"}, []),
    ({"train.py": "import torch\nfrom model import Tagger\n\nmodel = Tagger(16).to(torch.float64)\n"}, []),
    ({"train.py": "from model import Tagger\n\nmodel = Tagger(16)\n"}, []),
])
def test_a_module_moved_by_the_modules_that_import_it(project: Path, files: dict[str, str],
                                                      expected: list[str]) -> None:
    folder = project / "pkg" if "__init__.py" in files else project
    write(folder / "model.py", TAGGER)
    for name, text in files.items():
        write(folder / name, text)
    result = lint("--no-cache", "--output-format", "concise", "--select", "SC212", str(folder / "model.py"))
    assert [line.rsplit("/", 1)[-1] for line in reported(result)] == expected


def test_a_module_moved_through_two_packages_that_rename_it(project: Path) -> None:
    write(project / "proj" / "nets" / "model.py", TAGGER)
    write(project / "proj" / "nets" / "__init__.py", "from .model import Tagger as SeqTagger\n")
    write(project / "proj" / "__init__.py", "from .nets import SeqTagger\n")
    write(project / "train.py", "from proj import SeqTagger\n\nnet = SeqTagger(4)\nnet.to(device)\n")
    result = lint("--no-cache", "--output-format", "concise", "--select", "SC212",
                  str(project / "proj" / "nets" / "model.py"))
    assert [line.rsplit("/", 1)[-1] for line in reported(result)] == ["model.py:12:14: SC212"]
