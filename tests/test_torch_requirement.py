"""SC501 reads the project's torch requirement: silent where torch >= 2.6 (weights_only=True by default) is required."""

from __future__ import annotations

from pathlib import Path

import pytest

from shapecheck.engine.torch_requirement import _minimum_in, minimum_torch
from tests.helpers import codes_of, lint

LOAD = "import torch\nstate = torch.load('w.pth')\n"


@pytest.fixture(autouse=True)
def _fresh_cache():
    _minimum_in.cache_clear()
    yield
    _minimum_in.cache_clear()


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / ".git").mkdir(parents=True)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize(("files", "expected"), [
    ({"pyproject.toml": '[project]\nname = "x"\ndependencies = ["torch>=2.6", "numpy"]\n'}, (2, 6)),
    ({"pyproject.toml": '[project]\nname = "x"\n[project.optional-dependencies]\ngpu = ["torch==2.7.1"]\n'}, (2, 7)),
    ({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\ntorch = "^2.6"\n'}, (2, 6)),
    ({"requirements.txt": "numpy\ntorch>=1.13,<3  # cpu\ntorchvision>=0.20\n"}, (1, 13)),
    ({"requirements-dev.txt": "torch~=2.6.0\n"}, (2, 6)),
    ({"setup.cfg": "[options]\ninstall_requires =\n    torch >= 2.8\n    numpy\n"}, (2, 8)),
    ({"requirements.txt": "torch\n"}, None),  # no lower bound: nothing known
    ({"requirements.txt": "torchvision>=0.21\n"}, None),  # another package
    ({"requirements.txt": "torch>=2.6\n", "requirements-old.txt": "torch>=1.8\n"}, (1, 8)),  # the lowest allowed
    ({"pyproject.toml": "not [ toml"}, None),
])
def test_requirement_reading(tmp_path: Path, files: dict[str, str], expected) -> None:
    root = project(tmp_path, files)
    assert minimum_torch(str(root / "src" / "train.py")) == expected


def test_the_nearest_folder_naming_torch_wins_up_to_the_project_root(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch>=2.6\n")  # above the project root: not read
    root = project(tmp_path / "repo", {"requirements.txt": "torch>=2.1\n", "sub/requirements.txt": "torch>=2.6\n",
                                       "other/requirements.txt": "numpy\n"})
    assert minimum_torch(str(root / "sub" / "pkg" / "a.py")) == (2, 6)
    assert minimum_torch(str(root / "other" / "a.py")) == (2, 1)
    assert minimum_torch(str(tmp_path / "repo2" / "a.py")) == (2, 6)


def test_sc501_is_silent_where_torch_2_6_is_required(tmp_path: Path) -> None:
    new = project(tmp_path / "new", {"requirements.txt": "torch>=2.6\n"})
    old = project(tmp_path / "old", {"requirements.txt": "torch>=2.0\n"})
    assert codes_of(lint(LOAD, "SC501", filename=str(new / "a.py"))) == []
    assert codes_of(lint(LOAD, "SC501", filename=str(old / "a.py"))) == ["SC501"]
    explicit = LOAD.replace("'w.pth')", "'w.pth', weights_only=False)")
    assert codes_of(lint(explicit, "SC501", filename=str(new / "a.py"))) == ["SC501"]


def test_a_whole_module_checkpoint_is_reported_on_every_version(tmp_path: Path) -> None:
    new = project(tmp_path, {"requirements.txt": "torch>=2.6\n"})
    source = "import torch\nmodel = torch.load('m.pt')\nmodel.eval()\n"
    result = lint(source, "SC501", filename=str(new / "a.py"))
    assert codes_of(result) == ["SC501"]
    assert "state_dict()" in result.findings[0].message and result.findings[0].fix is None
