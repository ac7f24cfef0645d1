"""`importers`: the project's modules that import a file, for a verdict that depends on who uses the file."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from shapecheck.engine import dependencies
from shapecheck.objects import import_index
from shapecheck.objects import project as project_module
from shapecheck.objects.project import importers
from tests.cli_helpers import lint, reported, write
from tests.helpers import codes_of, lint as lint_in_process


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


def test_a_package_importing_its_own_module_by_name_in_a_folder_without_a_root_marker(tmp_path: Path) -> None:
    """`python train.py` beside `layers/` puts the folder above the package on the path, so `layers/__init__.py`'s
    `from layers.convnd import Conv4d` is the package's own module even with no `pyproject.toml` or `.git` around."""
    (tmp_path / "layers").mkdir()
    conv = tmp_path / "layers" / "convnd.py"
    conv.write_text("class Conv4d: pass\n")
    (tmp_path / "layers" / "__init__.py").write_text("from layers.convnd import Conv4d\n")
    (tmp_path / "model.py").write_text("from layers import Conv4d\n")
    assert importers(str(conv)) == ["from layers.convnd import Conv4d\n"]


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


CLASSIFIER = """\
import torch.nn as nn


class Classifier:
    def __init__(self):
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))

    def classify(self, images):
        self.net.eval()
        return self.net(images).argmax(dim=1)
"""

ACCURACY = """\
def accuracy(classifier, batches):
    return sum((classifier.classify(x) == y).sum().item() for x, y in batches)
"""


@pytest.mark.parametrize(("files", "expected"), [
    # a helper of a module that does not import the class calls the method; the script calls the helper under
    # no_grad, or the method itself
    ({"main.py": "import torch\nfrom metrics import accuracy\nfrom model import Classifier\n\n"
                 "with torch.no_grad():\n    print(accuracy(Classifier(), loader))\n"}, []),
    ({"main.py": "import torch\nfrom model import Classifier\n\nclassifier = Classifier()\n"
                 "with torch.no_grad():\n    labels = classifier.classify(images)\n"}, []),
    # the helper called with autograd on, by this script or another; the method called by the script outside no_grad
    ({"main.py": "from metrics import accuracy\nfrom model import Classifier\n\nprint(accuracy(Classifier(), loader))\n"},
     ["model.py:10:16: SC203"]),
    ({"main.py": "import torch\nfrom metrics import accuracy\nfrom model import Classifier\n\n"
                 "with torch.no_grad():\n    print(accuracy(Classifier(), loader))\n",
      "report.py": "import metrics\n\ndef report(classifier):\n    return metrics.accuracy(classifier, loader)\n"},
     ["model.py:10:16: SC203"]),
    ({"main.py": "import torch\nfrom model import Classifier\n\nlabels = Classifier().classify(images)\n"},
     ["model.py:10:16: SC203"]),
    ({}, ["model.py:10:16: SC203"]),  # nothing calls it
])
def test_a_plain_classs_eval_method_called_only_under_no_grad(project: Path, files: dict[str, str],
                                                              expected: list[str]) -> None:
    write(project / "model.py", CLASSIFIER)
    write(project / "metrics.py", ACCURACY)
    for name, text in files.items():
        write(project / name, text)
    result = lint("--no-cache", "--output-format", "concise", "--select", "SC203", "model.py")
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
    # a device the script names once, as the CPU: a move to the CPU; one chosen at run time is a move
    ({"train.py": "from model import Tagger\n\ndef main():\n    device = 'cpu'\n    model = Tagger(16).to(device)\n"},
     []),
    ({"train.py": "import torch\nfrom model import Tagger\n\ndevice = torch.device('cuda' if torch.cuda.is_available() "
                  "else 'cpu')\nmodel = Tagger(16).to(device)\n"}, ["model.py:12:14: SC212"]),
    ({"train.py": "from model import Tagger\n\ndef main(device='cpu'):\n    device = 'cpu'\n"
                  "    return Tagger(16).to(device)\n"}, ["model.py:12:14: SC212"]),
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


def linted_in_project(project: Path, files: dict[str, str], select: str, target: str) -> list[str]:
    """`files` written in a project of their own, then `target` alone linted there with the rule `select`."""
    write(project / "pyproject.toml", "")
    for name, text in files.items():
        write(project / name, text)
    return reported(lint("--no-cache", "--output-format", "concise", "--select", select, target))


HELPER_WITH_DEFAULT_LOSS = """\
import torch.nn as nn


def train_one_epoch(model, loader, optimizer, criterion=nn.CrossEntropyLoss()):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
"""

SOFTMAX_NET = ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.fc = nn.Sequential(nn.Linear(4, 3), nn.Softmax(dim=1))\n\n"
               "    def forward(self, x):\n        return self.fc(x)\n")


@pytest.mark.parametrize(("train", "expected"), [
    # the script hands the helper a model ending in Softmax and leaves its CrossEntropyLoss default
    ("from engine import train_one_epoch\nfrom model import Net\n\ndef main():\n    net = Net()\n"
     "    train_one_epoch(net, loader, opt)\n", ["engine.py:7:16: SC303"]),
    ("import engine\nfrom model import Net\n\nengine.train_one_epoch(Net(), loader, opt)\n", ["engine.py:7:16: SC303"]),
    # a loss of probabilities passed in, a model that ends in logits, or two calls handing different models
    ("from engine import train_one_epoch\nfrom model import Net\n\ndef nll_of_probs(p, y):\n"
     "    return -p.gather(1, y[:, None]).log().mean()\n\ntrain_one_epoch(Net(), loader, opt, nll_of_probs)\n", []),
    ("import torch.nn as nn\nfrom engine import train_one_epoch\n\n"
     "train_one_epoch(nn.Linear(4, 3), loader, opt)\n", []),
    ("from engine import train_one_epoch\nfrom model import Net\n\ntrain_one_epoch(Net(), loader, opt)\n"
     "train_one_epoch(make_model(), loader, opt)\n", []),
    ("", []),  # nothing calls it
])
def test_a_helpers_default_loss_and_the_model_a_script_of_the_project_hands_it(project: Path, train: str,
                                                                               expected: list[str]) -> None:
    files = {"engine.py": HELPER_WITH_DEFAULT_LOSS, "model.py": SOFTMAX_NET, "train.py": train}
    assert linted_in_project(project, files, "SC303", "engine.py") == expected


TAGGER_TRAINER = """\
import torch


class Trainer:
    def __init__(self, model, criterion, lr=1e-3):
        self.model = model
        self.criterion = criterion
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, features, tags):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(features), tags)
        loss.backward()
        self.optimizer.step()
"""

SEGMENTATION_LOSS = """\
import torch.nn as nn


class EdgeAwareLoss(nn.Module):
    def __init__(self, edge_weight=0.5):
        super().__init__()
        self.edge_weight = edge_weight
        self.criterion = nn.BCEWithLogitsLoss()

    def forward(self, outputs, masks, edges):
        return self.criterion(outputs["mask"], masks) + self.edge_weight * self.criterion(outputs["edge"], edges)
"""

SEGMENTER = ("import torch\nimport torch.nn as nn\n\n\nclass Segmenter(nn.Module):\n    def __init__(self):\n"
             "        super().__init__()\n        self.mask = nn.Conv2d(8, 1, 1)\n        self.edge = nn.Conv2d(8, 1, 1)\n\n"
             "    def forward(self, x):\n        return {\"mask\": self.mask(x).sigmoid(), \"edge\": self.edge(x)}\n")


@pytest.mark.parametrize(("fit", "expected"), [
    # the script's model gives the mask through a sigmoid; the loss module of another file applies it again
    ("    criterion = EdgeAwareLoss()\n    for x, m, e in batches:\n        criterion(model(x), m, e).backward()\n",
     ["losses.py:11:16: SC304"]),
    # a trainer holding the model and the loss module as attributes
    ("    trainer = Trainer()\n\n\nclass Trainer:\n    def __init__(self):\n        self.model = Segmenter()\n"
     "        self.loss = EdgeAwareLoss(0.2)\n\n    def step(self, x, m, e):\n"
     "        return self.loss(self.model(x), m, e)\n", ["losses.py:11:16: SC304"]),
    # the loss module handed what another call returns, not the model's output
    ("    criterion = EdgeAwareLoss()\n    for x, m, e in batches:\n        criterion(refine(model(x)), m, e).backward()\n",
     []),
])
def test_a_loss_module_of_another_file_handed_the_sigmoid_output_of_a_model(project: Path, fit: str,
                                                                            expected: list[str]) -> None:
    train = ("from losses import EdgeAwareLoss\nfrom segmenter import Segmenter\n\n\ndef fit(batches, refine):\n"
             "    model = Segmenter()\n" + fit)
    files = {"losses.py": SEGMENTATION_LOSS, "segmenter.py": SEGMENTER, "train.py": train}
    assert linted_in_project(project, files, "SC304", "losses.py") == expected


SIGMOID_TAGGER = ("import torch\nimport torch.nn as nn\n\n\nclass Tagger(nn.Module):\n    def __init__(self):\n"
                  "        super().__init__()\n        self.fc = nn.Linear(32, 8)\n\n"
                  "    def forward(self, x):\n        return torch.sigmoid(self.fc(x))\n")


@pytest.mark.parametrize(("main", "expected"), [
    # the trainer's script hands it a model of another module that ends in a sigmoid, and BCEWithLogitsLoss, which
    # applies the sigmoid again
    ("def main():\n    trainer = Trainer(Tagger(), nn.BCEWithLogitsLoss())\n", ["trainer.py:15:16: SC304"]),
    # the same model with BCELoss (the DCGAN recipe), or a model that returns logits
    ("def main():\n    trainer = Trainer(Tagger(), nn.BCELoss())\n", []),
    ("def main():\n    trainer = Trainer(nn.Linear(32, 8), nn.BCEWithLogitsLoss())\n", []),
])
def test_a_trainers_criterion_and_the_sigmoid_model_of_another_module_it_is_handed(project: Path, main: str,
                                                                                   expected: list[str]) -> None:
    trainer = TAGGER_TRAINER.replace("import torch\n", "import torch\nimport torch.nn as nn\n\nfrom tagger import "
                                     "Tagger\n", 1) + "\n\n" + main
    files = {"trainer.py": trainer, "tagger.py": SIGMOID_TAGGER}
    assert linted_in_project(project, files, "SC304", "trainer.py") == expected


FIT_EPOCH = """\
import torch

from scorer import ChurnScorer


def fit_epoch(net: ChurnScorer, batches, loss_fn, opt):
    net.train()
    for features, churned in batches:
        opt.zero_grad()
        loss = loss_fn(net(features), churned)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
"""

SIGMOID_SCORER = ("import torch\nfrom torch import nn\n\n\nclass ChurnScorer(nn.Module):\n    def __init__(self, d):\n"
                  "        super().__init__()\n        self.mlp = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1))"
                  "\n\n    def forward(self, x):\n        return self.mlp(x).sigmoid()\n")

RUN = """\
import argparse

import torch
from torch import nn

from engine import fit_epoch
from scorer import ChurnScorer

CRITERIA = {criteria}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--criterion", choices=sorted(CRITERIA), default="plain")
    args = parser.parse_args()
    net = ChurnScorer(20)
    criterion = CRITERIA[args.criterion]()
    opt = torch.optim.Adam(net.parameters())
    for epoch in range(5):
        fit_epoch(net, loader, criterion, opt)
"""


@pytest.mark.parametrize(("criteria", "expected"), [
    # every loss the command line may pick is BCEWithLogitsLoss, which applies the sigmoid the model already did
    ('{"plain": nn.BCEWithLogitsLoss, "balanced": lambda: nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))}',
     ["engine.py:10:16: SC304"]),
    # the choices differ: the option's default ("plain") picks BCEWithLogitsLoss in the run the script is written for
    ('{"plain": nn.BCEWithLogitsLoss, "probs": nn.BCELoss}', ["engine.py:10:16: SC304"]),
    # the default wants the probabilities (BCELoss), or every choice does (the DCGAN recipe)
    ('{"plain": nn.BCELoss, "logits": nn.BCEWithLogitsLoss}', []),
    ('{"plain": nn.BCELoss, "weighted": lambda: nn.BCELoss(weight=torch.tensor([0.3, 0.7]))}', []),
])
def test_a_helper_of_a_module_naming_no_loss_handed_one_of_a_registry_of_losses(project: Path, criteria: str,
                                                                                expected: list[str]) -> None:
    files = {"engine.py": FIT_EPOCH, "scorer.py": SIGMOID_SCORER, "run.py": RUN.format(criteria=criteria)}
    assert linted_in_project(project, files, "SC304", "engine.py") == expected


def test_a_project_too_large_to_search_for_importers_keeps_the_files_own_callers(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_IMPORTER_SEARCH` files the importers are not known, but the file's own call of its helper still
    is: the helper's default loss meets the Softmax model that call hands it. (The limit is patched in-process: the
    CLI would lint in a subprocess.)"""
    engine = (HELPER_WITH_DEFAULT_LOSS + "\n\n" + SOFTMAX_NET.split("\n", 1)[1]
              + "\n\ntrain_one_epoch(Net(), loader, opt)\n")
    write(project / "pyproject.toml", "")
    write(project / "engine.py", engine)
    for name in ("data.py", "model.py", "utils.py", "eval.py"):
        write(project / name, "import torch\n")
    monkeypatch.setattr(project_module, "MAX_IMPORTER_SEARCH", 2)
    assert importers(str(project / "engine.py")) is None  # the project is too large to search
    assert codes_of(lint_in_process(engine, "SC303", filename=str(project / "engine.py"))) == ["SC303"]



def test_in_a_project_too_large_to_search_the_importers_nearest_the_file_are_read(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large repository: the search stops at `MAX_IMPORTER_SEARCH` files, but it starts beside the file, so the
    script next to the helper is found and hands its Softmax model to the helper's default CrossEntropyLoss. Asked
    whether every importer does a thing, the partial search stays unknown."""
    write(project / "pyproject.toml", "")
    write(project / "pkg" / "engine.py", HELPER_WITH_DEFAULT_LOSS)
    write(project / "pkg" / "model.py", SOFTMAX_NET)
    write(project / "pkg" / "train.py", "from engine import train_one_epoch\nfrom model import Net\n\n"
                                         "train_one_epoch(Net(), loader, opt)\n")
    for name in ("a.py", "b.py", "c.py", "d.py"):
        write(project / "tools" / name, "import torch\n")
    monkeypatch.setattr(project_module, "MAX_IMPORTER_SEARCH", 3)
    engine = str(project / "pkg" / "engine.py")
    assert importers(engine) is None
    assert [Path(path).name for path, _ in project_module.importer_files(engine, partial=True)] == ["train.py"]
    assert codes_of(lint_in_process(HELPER_WITH_DEFAULT_LOSS, "SC303", filename=engine)) == ["SC303"]


PREDICTOR = """\
import torch


class Predictor:
    def __init__(self, model):
        self.model = model

    def predict(self, batches):
        with torch.no_grad():
            return [self.model(x).argmax(-1) for x in batches]
"""

DROPOUT_NET = ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.fc = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 3))\n\n"
               "    def forward(self, x):\n        return self.fc(x)\n")


@pytest.mark.parametrize(("train", "expected"), [
    # the training script builds the model with dropout, trains it, and wraps it in the predictor
    ("from model import Net\nfrom predictor import Predictor\n\ndef main():\n    net = Net()\n    net.train()\n"
     "    print(Predictor(net).predict(batches))\n", ["predictor.py:10:21: SC210"]),
    # the script switches the model to eval mode before handing it over, or hands a model without dropout
    ("from model import Net\nfrom predictor import Predictor\n\ndef main():\n    net = Net()\n    net.eval()\n"
     "    print(Predictor(net).predict(batches))\n", []),
    ("from model import Net\nfrom predictor import Predictor\n\nPredictor(Net().eval())\n", []),
    ("import torch.nn as nn\nfrom predictor import Predictor\n\nPredictor(nn.Linear(4, 3))\n", []),
])
def test_a_predictor_wrapping_the_model_a_script_of_the_project_trained(project: Path, train: str,
                                                                        expected: list[str]) -> None:
    files = {"predictor.py": PREDICTOR, "model.py": DROPOUT_NET, "train.py": train}
    assert linted_in_project(project, files, "SC210", "predictor.py") == expected


PREDICT_HELPERS = """\
import torch


def predict(net, batches):
    with torch.no_grad():
        return [net(x).argmax(-1) for x in batches]


def accuracy(net, batches, labels):
    return sum((p == y).float().mean() for p, y in zip(predict(net, batches), labels)) / len(labels)
"""


@pytest.mark.parametrize(("train", "expected"), [
    # the script trains a model with dropout and hands it to the metric, which hands it to the predictor
    ("from model import Net\nfrom predict import accuracy\n\ndef main():\n    net = Net()\n    net.train()\n"
     "    print(accuracy(net, batches, labels))\n", ["predict.py:6:17: SC210"]),
    # switched to eval mode by the script first, or a model without dropout
    ("from model import Net\nfrom predict import accuracy\n\ndef main():\n    net = Net()\n    net.eval()\n"
     "    print(accuracy(net, batches, labels))\n", []),
    ("import torch.nn as nn\nfrom predict import accuracy\n\naccuracy(nn.Linear(4, 3), batches, labels)\n", []),
])
def test_a_prediction_helper_handed_a_model_by_a_script_of_the_project(project: Path, train: str,
                                                                       expected: list[str]) -> None:
    files = {"predict.py": PREDICT_HELPERS, "model.py": DROPOUT_NET, "train.py": train}
    assert linted_in_project(project, files, "SC210", "predict.py") == expected


def test_one_lint_compares_a_search_with_the_files_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One file's lint asks for its importers again and again (once per allocation or helper): the search's stamps
    are compared with the files at the first ask of each `collecting` block, not at every ask, since files do not
    change while a file is linted; a new block (the next edit in the editor) compares them again."""
    (tmp_path / "pyproject.toml").write_text("")
    model = write(tmp_path / "model.py", "class Net: pass\n")
    write(tmp_path / "train.py", "from model import Net\n")
    compared = []
    stamps = dependencies.stamps
    monkeypatch.setattr(dependencies, "stamps", lambda entries: compared.append(1) or stamps(entries))
    with dependencies.collecting():
        for _ in range(5):
            assert importers(str(model)) == ["from model import Net\n"]
    assert len(compared) == 1  # taken once with the search, never compared again in the block
    with dependencies.collecting():
        write(tmp_path / "eval.py", "from model import Net  # new\n")
        assert sorted(importers(str(model)) or []) == ["from model import Net\n", "from model import Net  # new\n"]
        importers(str(model))
    assert len(compared) == 3  # the new block compared them once, saw the new importer, searched again


def test_a_search_for_another_file_reads_each_project_file_once_and_again_when_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Linting many files of one project searches it for each file's importers: each file's import lines are kept
    for the next search while its size and modification time are unchanged, and read again when they change."""
    (tmp_path / "pyproject.toml").write_text("")
    model = write(tmp_path / "model.py", "class Net: pass\n")
    data = write(tmp_path / "data.py", "class Data: pass\n")
    train = write(tmp_path / "train.py", "from model import Net\n")
    read = []
    import_lines = import_index.import_lines
    monkeypatch.setattr(import_index, "import_lines", lambda text: read.append(text) or import_lines(text))
    assert importers(str(model)) == ["from model import Net\n"]
    assert "from model import Net\n" in read
    read.clear()
    assert importers(str(data)) == []
    assert read == []  # every file's lines were kept from the first search
    train.write_text("from model import Net\nfrom data import Data\n")
    os.utime(train, ns=(os.stat(train).st_atime_ns, os.stat(train).st_mtime_ns + 10**9))
    assert importers(str(data)) == ["from model import Net\nfrom data import Data\n"]
    assert read == ["from model import Net\nfrom data import Data\n"]  # the one file changed


def test_import_lines_are_kept_in_the_cache_folder_for_the_next_run(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With the result cache in use, the next process (a pre-commit run of one file) takes the lines of unchanged
    files from the cache's folder: a stat a file, not a read; a changed file is read again; a corrupt copy is none."""
    (tmp_path / "pyproject.toml").write_text("")
    model = write(tmp_path / "pkg" / "model.py", "class Net: pass\n")
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "train.py", "from pkg.model import Net\n")
    write(tmp_path / "tools" / "export.py", "import json\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setattr(import_index, "_folder", None)
    import_index.keep_in(str(cache), lambda name, data: (cache / name).write_bytes(data))
    try:
        assert importers(str(model)) == ["from pkg.model import Net\n"]
        assert (cache / "import-lines.json").exists()
        project_module.PROJECT.forget()  # as a new process starts: nothing in memory
        read = []
        import_lines = import_index.import_lines
        monkeypatch.setattr(import_index, "import_lines", lambda text: read.append(text) or import_lines(text))
        assert importers(str(model)) == ["from pkg.model import Net\n"]
        assert read == []
        (cache / "import-lines.json").write_text("{not json")
        project_module.PROJECT.forget()
        assert importers(str(model)) == ["from pkg.model import Net\n"]
        assert len(read) == 4  # every project file read again
    finally:
        import_index.keep_in(None)
        project_module.PROJECT.forget()


def test_a_package_imported_by_a_bare_relative_import_is_found() -> None:
    """`from . import x` imports the package's `__init__` without naming it: the search's look at each file's
    import lines lets it through, as it lets through every line that names the module."""
    init = Path("/project/pkg/__init__.py")
    assert project_module._may_import("from . import helpers\n", init, "pkg")
    assert not project_module._may_import("from . import helpers\n", Path("/project/pkg/model.py"), "model")
    assert project_module._may_import("from .model import Net\n", Path("/project/pkg/model.py"), "model")


def test_import_lines_are_every_line_an_import_statement_starts_on() -> None:
    text = ('"""Docs: import nothing here."""\nimport os\n    from . import (\n        a,\n        b)\nx = 1  # import\n'
            "from typing import List\nimportlib = None\n")
    assert import_index.import_lines(text) == ("import os\n    from . import (\n        a,\n        b)\n"
                                               "from typing import List\nimportlib = None")
    groups = [match.groups() for match in project_module._IMPORT.finditer(text)]
    assert [match.groups() for match in project_module._IMPORT.finditer(import_index.import_lines(text))] == groups
