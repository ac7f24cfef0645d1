"""First-party imports: a model defined in one file of the project and trained in another is known there."""

from __future__ import annotations

import textwrap
import os
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects import project
from shapecheck.objects.project import PROJECT

MODEL = """
    import torch.nn as nn

    def mlp(sizes):
        layers = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        return nn.Sequential(*layers[:-1])

    class Classifier(nn.Module):
        def __init__(self, in_features=784, hidden=256, n_classes=10):
            super().__init__()
            self.net = mlp([in_features, hidden, n_classes])

        def forward(self, x):
            return self.net(x)

    class Unused(nn.Module):
        def forward(self, x):
            return undefined_name(x)
"""


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def lint(path: Path):
    PROJECT.forget()
    return lint_text(path.read_text(), str(path), resolve(None))


def test_a_model_imported_from_a_sibling_file_is_run_at_the_call(tmp_path: Path) -> None:
    write(tmp_path, {"model.py": MODEL, "train.py": """
        import torch
        from model import Classifier

        model = Classifier()
        images = torch.randn(64, 1, 28, 28)
        good = model(images.view(64, -1))
        bad = model(images.view(64, 28, 28))
    """})
    result = lint(tmp_path / "train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 8)]
    assert "then in Classifier.forward" in result.findings[0].message
    # The file read, and the package that would be found first, were it there.
    assert sorted(result.dependencies) == sorted([str(tmp_path / "model.py"), str(tmp_path / "model" / "__init__.py")])


def test_a_constant_imported_by_name_is_the_int_its_module_binds(tmp_path: Path) -> None:
    """`from constants import FEATURES` sizes a batch as `constants.FEATURES` does; a constant a function of its
    module declares `global` and rebinds (`configure(n)`) may have been changed by any call: no one size, in
    either spelling, and silent."""
    write(tmp_path, {"model.py": MODEL, "constants.py": """
        IN_FEATURES = 28 * 28
        FEATURES = 28
        WIDTH = 28

        def configure(width):
            global WIDTH
            WIDTH = width
    """, "train.py": """
        import torch
        import constants
        from constants import IN_FEATURES, FEATURES, WIDTH
        from model import Classifier

        model = Classifier()
        good = model(torch.randn(8, IN_FEATURES))
        bad = model(torch.randn(8, FEATURES))
        unknown = model(torch.randn(8, WIDTH))
        also_unknown = model(torch.randn(8, constants.WIDTH))
    """})
    result = lint(tmp_path / "train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 9)]


def test_a_helper_imported_from_another_file_is_run_with_the_calls_shapes(tmp_path: Path) -> None:
    """`from utils import evaluate`: the helper runs on the model and batch the call gives it; what fails there is
    reported at the call, the last line of the failure's path in this file, as in a bug found in a same-file
    helper (at the operation itself)."""
    write(tmp_path, {"model.py": MODEL, "utils.py": """
        def predict(model, batch):
            return model(batch).argmax(dim=1)
    """, "train.py": """
        import torch
        from model import Classifier
        from utils import predict

        def local_predict(model, batch):
            return model(batch).argmax(dim=1)

        model = Classifier()
        good = predict(model, torch.randn(8, 784))
        bad = predict(model, torch.randn(8, 28, 28))
        also_bad = local_predict(model, torch.randn(8, 28, 28))
    """})
    result = lint(tmp_path / "train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 7), ("SC105", 11)]
    assert result.findings[0].message.startswith("via `local_predict(model, torch.randn(8, 28, 28))`: ")
    assert result.findings[1].message.startswith("`predict(model, torch.randn(8, 28, 28))`: then in predict, ")


def test_package_and_relative_imports_and_a_src_layout(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": "",
        "src/proj/__init__.py": "",
        "src/proj/models/__init__.py": "from .classifier import Classifier\n",
        "src/proj/models/classifier.py": MODEL,
        "src/proj/train.py": """
            import torch
            from .models import Classifier
            from proj.models.classifier import mlp

            head = mlp([32, 16, 4])
            probs = head(torch.randn(8, 16))
            out = Classifier(in_features=32)(torch.randn(8, 64))
        """,
    })
    result = lint(tmp_path / "src/proj/train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 7), ("SC105", 8)]
    # The files read, and those looked for before them (absent, but a file there would be found instead); and the
    # markers of a project's root looked for up to the one found (one added below it would move the root).
    markers = [f"{folder}{marker}" for folder in ("src/proj/", "src/")
               for marker in ("pyproject.toml", "setup.py", "setup.cfg", ".git")] + ["pyproject.toml"]
    assert sorted(result.dependencies) == sorted(str(tmp_path / p) for p in (
        "src/proj/models/__init__.py", "src/proj/models/classifier.py", "src/proj/models/classifier/__init__.py",
        "src/proj/proj/models/classifier/__init__.py", "src/proj/proj/models/classifier.py", *markers))


def test_a_class_read_through_an_imported_submodule_is_the_projects(tmp_path: Path) -> None:
    """`import nets.classifier as clf` then `clf.Classifier(...)`: the class the project's file defines, not an
    object of another package, whichever way the submodule is imported."""
    write(tmp_path, {
        "nets/__init__.py": "",
        "nets/classifier.py": MODEL,
        "train.py": """
            import torch
            import nets.classifier as clf
            from nets import classifier

            out = clf.Classifier(in_features=32)(torch.randn(8, 64))
            out = classifier.Classifier(in_features=32)(torch.randn(8, 64))
            out = clf.Classifier(in_features=64)(torch.randn(8, 64))
        """,
    })
    result = lint(tmp_path / "train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 6), ("SC105", 7)]


def test_a_class_of_a_submodule_alias_built_inside_a_model_is_the_projects(tmp_path: Path) -> None:
    """`import nets.models as models` (or `from nets import models`), then `self.encoder = models.Classifier()` in
    a wrapper's `__init__`: read in the run of that constructor, `nets.models` is the package's submodule, not a
    name `nets/__init__.py` binds, so the class is the project's and the wrapper's forward is run with it (checked
    in torch: "mat1 and mat2 shapes cannot be multiplied (8x64 and 784x32)")."""
    wrapper = """
        import torch
        from torch import nn
        import nets.models as models


        class Wrapper(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = models.Classifier(hidden=32)

            def forward(self, x):
                return self.encoder(x)


        out = Wrapper()(torch.randn(8, 64))
    """
    write(tmp_path, {"nets/__init__.py": "", "nets/models.py": MODEL, "train.py": wrapper,
                     "train_from.py": wrapper.replace("import nets.models as models", "from nets import models"),
                     "fixed.py": wrapper.replace("models.Classifier(hidden=32)", "models.Classifier(64, 32)")})
    assert [(f.code, f.location.row) for f in lint(tmp_path / "train.py").findings] == [("SC105", 13)]
    assert [(f.code, f.location.row) for f in lint(tmp_path / "train_from.py").findings] == [("SC105", 13)]
    assert lint(tmp_path / "fixed.py").findings == []


def test_a_class_a_package_re_exports_with_a_star_import_is_the_projects(tmp_path: Path) -> None:
    """`from .classifier import *` in a package's `__init__.py`, `from nets.classifier import *` in a script: a
    name nothing binds is the first of the project's star-imported modules that defines it (another package's star
    import, or a private name, tells nothing)."""
    write(tmp_path, {
        "nets/__init__.py": "from numpy import *\nfrom .classifier import *\n",
        "nets/classifier.py": MODEL,
        "train.py": """
            import torch
            import nets
            from nets import Classifier

            out = Classifier(in_features=32)(torch.randn(8, 64))
            out = nets.Classifier(in_features=64)(torch.randn(8, 32))
            out = nets.Classifier(in_features=64)(torch.randn(8, 64))
        """,
        "script.py": """
            import torch
            from nets.classifier import *

            out = Classifier()(torch.randn(8, 28, 28))
            out = Classifier()(torch.randn(8, 784))
        """,
    })
    assert [(f.code, f.location.row) for f in lint(tmp_path / "train.py").findings] == [("SC105", 6), ("SC105", 7)]
    assert [(f.code, f.location.row) for f in lint(tmp_path / "script.py").findings] == [("SC105", 5)]


def test_installed_packages_and_missing_modules_stay_unknown(tmp_path: Path) -> None:
    write(tmp_path, {
        "venv/lib/site-packages/model.py": MODEL,
        "train.py": """
            import sys
            sys.path.insert(0, "venv/lib/site-packages")
            import torch
            from model import Classifier
            from nowhere import Thing

            Classifier()(torch.randn(64, 28, 28))
            Thing()(torch.randn(64, 28, 28))
        """,
    })
    result = lint(tmp_path / "train.py")
    assert result.findings == []
    # Only the places a first-party module would be found, none of them there (a file appearing counts).
    assert str(tmp_path / "model.py") in result.dependencies and str(tmp_path / "nowhere.py") in result.dependencies
    assert not any(os.path.exists(path) for path in result.dependencies)


UNUSED = """
    class Unused{n}(nn.Module):
        def forward(self, x):
            return undefined_name(x) * {n}
"""


def test_only_what_is_imported_is_read(tmp_path: Path) -> None:
    text = textwrap.dedent(MODEL) + "".join(textwrap.dedent(UNUSED).format(n=n) for n in range(4))
    write(tmp_path, {"model.py": text + "\nx = (\n", "train.py": "import torch\nfrom model import Classifier\n"})
    summary = PROJECT.summary(tmp_path / "model.py")
    assert summary is None  # a module Python can't parse is not read: its names stay unknown
    write(tmp_path, {"model.py": text})
    ctx = PROJECT.context(tmp_path / "model.py", frozenset({"Classifier"}))
    assert ctx is not None
    kept = ctx.module.code
    assert "class Classifier" in kept and "def mlp" in kept and "class Unused" not in kept
    assert len(kept.splitlines()) == len(text.splitlines())


def test_a_module_most_of_which_is_asked_for_is_read_whole_once(tmp_path: Path) -> None:
    # Classifier and mlp are 12 of MODEL's 16 lines: every name asked of it shares one parse of the whole module.
    write(tmp_path, {"model.py": MODEL})
    PROJECT.forget()
    ctx = PROJECT.context(tmp_path / "model.py", frozenset({"Classifier"}))
    assert ctx is not None and "class Unused" in ctx.module.code
    assert PROJECT.context(tmp_path / "model.py", frozenset({"Classifier", "Unused"})) is ctx
    assert PROJECT.context(tmp_path / "model.py", frozenset({"mlp"})) is not ctx  # 6 lines of 16: only those


def test_what_an_imported_model_returns_is_read_where_its_class_is_defined(tmp_path: Path) -> None:
    write(tmp_path, {"model.py": """
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.Sequential(nn.Linear(10, 4), nn.Softmax(dim=1))

            def forward(self, x):
                return self.layers(x)

        class Logits(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(10, 4)

            def forward(self, x):
                return self.fc(x)
    """, "train.py": """
        import torch
        import torch.nn as nn
        from model import Logits, Net

        criterion = nn.CrossEntropyLoss()
        x, y = torch.randn(8, 10), torch.randint(0, 4, (8,))
        bad = criterion(Net()(x), y)
        good = criterion(Logits()(x), y)
    """})
    assert [(f.code, f.location.row) for f in lint(tmp_path / "train.py").findings] == [("SC303", 8)]


def test_a_file_reads_a_bounded_amount_of_the_project(tmp_path: Path, monkeypatch) -> None:
    """Past `MAX_LINES_READ` lines of other modules, an imported name is unknown (silent); the modules read first
    still give their findings, and the same ones whether or not another lint has them parsed already."""
    block = """
        import torch.nn as nn

        class Net{n}(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 4)

            def forward(self, x):
                return self.fc(x)
    """
    write(tmp_path, {f"m{n}.py": block.format(n=n) for n in range(20)})
    imports = "".join(f"from m{n} import Net{n}\n" for n in range(20))
    calls = "".join(f"bad{n} = Net{n}()(x)\n" for n in range(20))
    write(tmp_path, {"train.py": f"import torch\n{imports}x = torch.randn(2, 5)\n{calls}"})
    first_call = 23
    module_lines = len(textwrap.dedent(block).strip().splitlines())
    monkeypatch.setattr(project, "MAX_LINES_READ", 3 * module_lines)
    rows = [f.location.row for f in lint(tmp_path / "train.py").findings if f.code == "SC105"]
    assert rows == [first_call, first_call + 1, first_call + 2]
    again = lint_text((tmp_path / "train.py").read_text(), str(tmp_path / "train.py"), resolve(None))
    assert [f.location.row for f in again.findings if f.code == "SC105"] == rows


def test_a_module_that_imports_a_name_from_itself_is_read_once(tmp_path: Path) -> None:
    # audiolm-pytorch's `encodec.py` wraps the `encodec` package: `from encodec import EncodecModel` names, for a
    # sibling-module lookup, the file itself. The name stays unknown instead of recursing until Python stops.
    write(tmp_path, {"encodec.py": """
        import torch
        from torch import nn
        from encodec import EncodecModel

        class EncodecWrapper(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = EncodecModel.encodec_model_24khz()

            def forward(self, x):
                return self.model.encode(x) + torch.zeros(3, 4)
    """})
    result = lint(tmp_path / "encodec.py")
    assert [f.code for f in result.findings] == []


def test_a_size_imported_from_a_config_module_is_its_literal(tmp_path: Path) -> None:
    """`from config import IMG_SIZE`: the literal the project's module binds is a size where the name is read (the
    image a dataset builds, a layer's features); a name the module binds again under a condition is no one size."""
    write(tmp_path, {"config.py": """
        import os

        IMG_SIZE, N_CHANNELS = 48, 3
        HIDDEN = 32
        if os.environ.get("BIG"):
            HIDDEN = 64
    """, "train.py": """
        import torch
        import torch.nn as nn
        import config
        from config import HIDDEN, IMG_SIZE, N_CHANNELS

        fc = nn.Linear(32 * 28 * 28, 7)
        image = torch.zeros(2, N_CHANNELS, IMG_SIZE, IMG_SIZE)
        out = fc(image.view(2, -1))
        also = fc(torch.zeros(2, config.IMG_SIZE))
        maybe = nn.Linear(32, 7)(torch.zeros(2, HIDDEN))
    """})
    result = lint(tmp_path / "train.py")
    assert [(f.code, f.location.row) for f in result.findings] == [("SC105", 9), ("SC105", 10)]
    assert "(2, 6912)" in result.findings[0].message
