"""SC210 follows a model handed to an evaluation helper of another project file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import project_rows

MODEL = """
    import torch.nn as nn
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.5), nn.Linear(16, 2))
        def forward(self, x):
            return self.body(x)
"""

EVALUATION = """
    import torch
    def evaluate(model, loader):
        {switch}
        correct = 0
        with torch.no_grad():
            for x, y in loader:
                out = model(x)
                correct += (out.argmax(1) == y).sum().item()
        return correct
"""

TRAIN = """
    import torch
    from evaluation import evaluate
    from model import Net
    def main(train_loader, val_loader, epochs):
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            model.train()
            for x, y in train_loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            {switch}
            print(epoch, evaluate(model, val_loader))
"""


def rows(tmp_path: Path, in_helper: str = "pass", in_caller: str = "pass") -> list[int]:
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL))
    (tmp_path / "evaluation.py").write_text(textwrap.dedent(EVALUATION).format(switch=in_helper))
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(TRAIN).format(switch=in_caller))
    PROJECT.forget()
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC210"])).findings]


def test_reported_at_the_call_of_the_imported_evaluation_helper(tmp_path: Path) -> None:
    assert rows(tmp_path) == [15]


@pytest.mark.parametrize(("in_helper", "in_caller"), [("model.eval()", "pass"), ("pass", "model.eval()")])
def test_a_helper_or_caller_that_switches_to_eval_is_clean(tmp_path: Path, in_helper: str, in_caller: str) -> None:
    assert rows(tmp_path, in_helper, in_caller) == []


LEARNER = MODEL + """
    import torch
    class Learner:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        def fit(self, batches):
            self.model.train()
            for x, y in batches:
                self.opt.zero_grad()
                nn.functional.cross_entropy(self.model(x), y).backward()
                self.opt.step()
        def validate(self, batches):
            self.model.eval()
            with torch.no_grad():
                return [self.model(x) for x, _ in batches]
        def summary(self):
            return sum(p.numel() for p in self.model.parameters())
        def predict_array(self, x):
            with torch.no_grad():
                return self.model(x)
    def main(batches, weights):
        {script}
"""


def learner_rows(script: str) -> list[int]:
    source = textwrap.dedent(LEARNER).format(script=textwrap.indent(textwrap.dedent(script), " " * 4).strip())
    return [finding.location.row for finding in lint_text(source, "learner.py", resolve(["SC210"])).findings]


@pytest.mark.parametrize("script", [
    """
    learn = Learner(Net())
    learn.model.load_state_dict(weights)
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    net = Net()
    learn = Learner(net)
    print(learn.summary())
    return learn.predict_array(torch.randn(1, 8))
    """,
])
def test_a_new_object_predicts_before_anything_switched_its_model(script: str) -> None:
    assert learner_rows(script) == [29]


@pytest.mark.parametrize("script", [
    """
    learn = Learner(Net())
    learn.fit(batches)
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    learn = Learner(Net())
    learn.validate(batches)
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    learn = Learner(Net())
    learn.model.eval()
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    net = Net()
    net.eval()
    learn = Learner(net)
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    learn = Learner(Net())
    prepare(learn)
    return learn.predict_array(torch.randn(1, 8))
    """,
    """
    learn = Learner(Net())
    for x in batches:
        learn.predict_array(x)
        learn.fit(batches)
    """,
])
def test_an_object_whose_model_may_have_been_switched_is_left_to_the_file_s_switches(script: str) -> None:
    assert learner_rows(script) == []


# A Polyak average of a classifier with dropout, kept by a module of its own in `averaging.py`; `train.py` builds it
# and hands its prediction method to an accuracy helper of the same file.
TARGET = """
    import copy

    import torch
    import torch.nn as nn


    class PolyakAverage(nn.Module):
        def __init__(self, model, decay=0.999):
            super().__init__()
            self.decay = decay
            self.net = copy.deepcopy(model)
            self.net.requires_grad_(False)

        @torch.no_grad()
        def update(self, model):
            for a, p in zip(self.net.parameters(), model.parameters()):
                a.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)

        @torch.no_grad()
        def predict(self, features):
            return self.net(features).argmax(-1)
"""

TARGET_TRAIN = """
    import torch
    import torch.nn as nn

    from averaging import PolyakAverage


    def accuracy(predict, features, labels):
        return (predict(features) == labels).float().mean().item()


    def main(loader, val_features, val_labels):
        classifier = nn.Sequential(nn.Linear(300, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 5))
        average = PolyakAverage(classifier)
        opt = torch.optim.Adam(classifier.parameters(), lr=3e-4)
        for features, labels in loader:
            loss = nn.functional.cross_entropy(classifier(features), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            average.update(classifier)%s
        return accuracy(average.predict, val_features, val_labels)
"""


def target_rows(tmp_path: Path, after_step: str = "") -> list[int]:
    (tmp_path / "averaging.py").write_text(textwrap.dedent(TARGET))
    (tmp_path / "train.py").write_text(textwrap.dedent(TARGET_TRAIN % after_step))
    PROJECT.forget()
    path = tmp_path / "averaging.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC210"])).findings]


def test_an_average_copied_from_a_model_with_dropout_predicts_in_train_mode(tmp_path: Path) -> None:
    assert target_rows(tmp_path) == [22]


@pytest.mark.parametrize("after_step", ["\n        average.eval()", "\n        average.net.train()"])
def test_an_average_its_builder_switches_either_way_is_clean(tmp_path: Path, after_step: str) -> None:
    assert target_rows(tmp_path, after_step) == []


def test_a_copy_run_in_the_module_s_forward_is_left_to_training(tmp_path: Path) -> None:
    """BYOL's and MoCo's momentum encoders run in train mode inside the wrapper's `forward` on purpose."""
    (tmp_path / "averaging.py").write_text(textwrap.dedent(TARGET).replace("def predict(", "def forward("))
    (tmp_path / "train.py").write_text(textwrap.dedent(TARGET_TRAIN % "").replace("average.predict", "average"))
    PROJECT.forget()
    path = tmp_path / "averaging.py"
    assert [finding.location.row
            for finding in lint_text(path.read_text(), str(path), resolve(["SC210"])).findings] == []


MOMENTUM_BASE = """
    import pytorch_lightning as pl
    import torch.nn as nn

    class MomentumMethod(pl.LightningModule):
        def __init__(self, dim=128):
            super().__init__()
            self.backbone = nn.Sequential(nn.Linear(32, dim), nn.BatchNorm1d(dim), nn.ReLU())
"""

MOMENTUM_METHOD = """
    import torch
    import torch.nn as nn
    from methods.base import {base}

    class MeanTeacher({base}):
        def __init__(self, dim=128):
            super().__init__(dim)
            self.momentum_head = nn.Sequential(nn.Linear(dim, dim), nn.BatchNorm1d(dim), nn.Linear(dim, 64))

        @torch.no_grad()
        def momentum_forward(self, feats):
            return self.momentum_head(feats)
"""


@pytest.mark.parametrize(("base", "expected"), [("MomentumMethod", []), ("Helper", [13])])
def test_a_method_of_a_module_class_whose_base_is_in_another_module_is_left_to_its_owner(
        tmp_path: Path, base: str, expected: list[int]) -> None:
    """solo-learn: `class BYOL(BaseMomentumMethod)` of `solo.methods.base`, a LightningModule, runs its momentum
    projector under `no_grad` in train mode on purpose; the trainer switches the whole module. A base of the project
    that is no module (`Helper`) leaves the call to the file's switches, and none is made."""
    (tmp_path / "methods").mkdir()
    (tmp_path / "methods" / "__init__.py").write_text("")
    base_file = MOMENTUM_BASE if base == "MomentumMethod" else "class Helper:\n    def __init__(self, dim=128):\n" \
                                                                 "        self.dim = dim\n"
    (tmp_path / "methods" / "base.py").write_text(textwrap.dedent(base_file))
    path = tmp_path / "methods" / "teacher.py"
    path.write_text(textwrap.dedent(MOMENTUM_METHOD.format(base=base)))
    PROJECT.forget()
    assert [finding.location.row
            for finding in lint_text(path.read_text(), str(path), resolve(["SC210"])).findings] == expected


DENOISER = MODEL + """
    import torch
    class Denoiser:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        def fit(self, loader, epochs):
            self.model.train()
            for _ in range(epochs):
                for noisy, clean in loader:
                    self.opt.zero_grad()
                    torch.nn.functional.mse_loss(self.model(noisy), clean).backward()
                    self.opt.step()
        def denoise(self, noisy):
            with torch.no_grad():
                restored = self.model(noisy)
            return restored
"""

DENOISE_SCRIPT = """
    from denoiser import Denoiser, Net
    def main(loader, test_signal):
        denoiser = Denoiser(Net())
"""


def denoiser_rows(tmp_path: Path, script: str) -> list[int]:
    (tmp_path / "denoiser.py").write_text(textwrap.dedent(DENOISER))
    (tmp_path / "run.py").write_text(
        textwrap.dedent(DENOISE_SCRIPT) + textwrap.indent(textwrap.dedent(script).strip("\n"), "    ") + "\n")
    PROJECT.forget()
    path = tmp_path / "denoiser.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC210"])).findings]


def test_a_wrapper_s_prediction_method_another_module_calls_after_training_is_reported(tmp_path: Path) -> None:
    """`fit` left the model in train mode, and the script asks the wrapper to predict once training is done."""
    assert denoiser_rows(tmp_path, """
        denoiser.fit(loader, 5)
        return denoiser.denoise(test_signal)
    """) == [24]


@pytest.mark.parametrize("script", [
    # a progress snapshot taken between epochs, while training goes on
    """
    for epoch in range(5):
        denoiser.fit(loader, 1)
        print(epoch, denoiser.denoise(test_signal).abs().mean())
    """,
    # the script switches the model itself before predicting
    """
    denoiser.fit(loader, 5)
    denoiser.model.eval()
    return denoiser.denoise(test_signal)
    """,
])
def test_a_snapshot_between_epochs_or_a_switched_model_is_clean(tmp_path: Path, script: str) -> None:
    assert denoiser_rows(tmp_path, script) == []


# A Solver whose `load_model` builds a VGG-BN through a factory of the project's `models` package (`import models`,
# `models.vgg11_bn(...)`): the batch norms are in the layers `make_layers` hands the VGG class, not in the class.
VGG = """
    import torch.nn as nn

    def make_layers(widths, batch_norm=False):
        layers, in_channels = [], 3
        for width in widths:
            layers += [nn.Conv2d(in_channels, width, 3, padding=1)]
            if batch_norm:
                layers += [nn.BatchNorm2d(width)]
            layers += [nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            in_channels = width
        return nn.Sequential(*layers)

    class VGG(nn.Module):
        def __init__(self, features, num_classes=10):
            super().__init__()
            self.features = features
            self.classifier = nn.Linear(256 * 4 * 4, num_classes)

        def forward(self, x):
            return self.classifier(self.features(x).flatten(1))

    def vgg11_bn(num_classes=10):
        return VGG(make_layers([64, 128, 256], batch_norm=True), num_classes)

    def vgg11(num_classes=10):
        return VGG(make_layers([64, 128, 256]), num_classes)
"""

SOLVER = """
    import torch
    import torch.nn as nn
    import models

    class Solver:
        def __init__(self, config):
            self.config = config
            self.model = None

        def load_model(self):
            self.model = models.ARCH(num_classes=10).to(torch.device("cpu"))
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.config.lr)
            self.criterion = nn.CrossEntropyLoss()

        def train(self, loader):
            self.model.train()
            for data, target in loader:
                self.optimizer.zero_grad()
                self.criterion(self.model(data), target).backward()
                self.optimizer.step()

        def test(self, loader):
            SWITCH
            correct = 0
            with torch.no_grad():
                for data, target in loader:
                    correct += (self.model(data).argmax(1) == target).sum().item()
            return correct / len(loader.dataset)
"""


def test_a_solver_s_model_from_a_factory_of_the_models_package_with_batch_norm_handed_to_the_class(
        tmp_path: Path) -> None:
    def found(arch: str = "vgg11_bn", switch: str = "pass") -> list[int]:
        return project_rows(tmp_path, "solver.py", {
            "models/__init__.py": "from .vgg import vgg11, vgg11_bn\n", "models/vgg.py": VGG,
            "solver.py": SOLVER.replace("ARCH", arch).replace("SWITCH", switch)}, "SC210")

    assert found() == [28]
    assert found(switch="self.model.eval()") == []
    assert found(arch="vgg11") == []  # no batch norm, no dropout


# An engine module whose validation switches the model back to train mode at its end; the script predicts with the
# engine's `predict` (no switch of its own) after the epochs.
ENGINE = """
    import torch

    def train_one_epoch(model, loader, optimizer, criterion):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()

    def validate(model, loader, criterion):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in loader:
                total += criterion(model(x), y).item()
        RESTORE
        return total / len(loader)

    def predict(model, loader):
        outputs = []
        with torch.no_grad():
            for x, _ in loader:
                outputs.append(model(x).argmax(1))
        return torch.cat(outputs)
"""

VALIDATED = """
    import torch
    import torch.nn as nn
    from engine import predict, train_one_epoch, validate

    def main(loader):
        model = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 3))
        optimizer = torch.optim.Adam(model.parameters())
        criterion = nn.CrossEntropyLoss()
        for epoch in range(5):
            train_one_epoch(model, loader, optimizer, criterion)
            print(epoch, validate(model, loader, criterion))
        BEFORE
        return predict(model, loader)
"""


def test_a_prediction_after_a_validation_that_switches_back_to_train_mode(tmp_path: Path) -> None:
    def found(restore: str = "model.train()", before: str = "pass") -> list[int]:
        return project_rows(tmp_path, "main.py", {"engine.py": ENGINE.replace("RESTORE", restore),
                                                  "main.py": VALIDATED.replace("BEFORE", before)}, "SC210")

    assert found() == [14]
    assert found(restore="pass") == []  # the validation leaves it in eval mode
    assert found(before="model.eval()") == []


# A detector's mAP callback (bubbliiiing/retinanet-pytorch's utils/callbacks.py): built with the model, it predicts
# with the model `on_epoch_end` is handed, which the fitting helper of another module switches to eval mode first
# (the script hands the helper `model_train`, maybe a DataParallel of the model, and the callback the model).
CALLBACK = """
    import torch

    class EvalCallback:
        def __init__(self, net, images):
            self.net = net
            self.images = images

        def predict(self, image):
            with torch.no_grad():
                return self.net(image.unsqueeze(0)).argmax(1)

        def on_epoch_end(self, epoch, model_eval):
            REBIND
            return [self.predict(image) for image in self.images]
"""

FIT = """
    def fit_one_epoch(model_train, loader, optimizer, criterion, eval_callback, epoch):
        model_train.train()
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model_train(x), y).backward()
            optimizer.step()
        model_train.eval()
        eval_callback.on_epoch_end(epoch + 1, model_train)
"""

FITTED = """
    import torch
    import torch.nn as nn
    from utils.callbacks import EvalCallback
    from utils.utils_fit import fit_one_epoch

    def main(loader, images):
        model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.LazyLinear(5))
        model_train = model.train()
        if torch.cuda.device_count() > 1:
            model_train = nn.DataParallel(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        eval_callback = EvalCallback(model, images)
        for epoch in range(10):
            fit_one_epoch(model_train, loader, optimizer, nn.CrossEntropyLoss(), eval_callback, epoch)
"""


def test_a_callback_predicting_with_the_model_its_caller_hands_it_after_eval_is_left_to_that_caller(
        tmp_path: Path) -> None:
    def found(rebind: str, switch: str = "model_train.eval()") -> list[int]:
        return project_rows(tmp_path, "utils/callbacks.py", {
            "utils/__init__.py": "", "utils/callbacks.py": CALLBACK.replace("REBIND", rebind),
            "utils/utils_fit.py": FIT.replace("model_train.eval()", switch), "train.py": FITTED}, "SC210")

    assert found("self.net = model_eval") == []
    # the model it was built with, which nothing switches: the constructions decide
    assert found("pass", switch="pass") == [11]


def script_rows(source: str) -> list[int]:
    return [finding.location.row for finding in lint_text(source, "script.py", resolve(["SC210"])).findings]


# A runner building its model from a registry keyed by a command-line option, predicting once training is done.
RUNNER = """
    import argparse
    import torch
    import torch.nn as nn

    class Classifier(nn.Module):
        def __init__(self, d_in, n_classes, p=0.3):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Dropout(p))
            self.head = nn.Linear(64, n_classes)

        def forward(self, x):
            return self.head(self.body(x))

    class Plain(nn.Module):
        def __init__(self, d_in, n_classes):
            super().__init__()
            self.fc = nn.Linear(d_in, n_classes)

        def forward(self, x):
            return self.fc(x)

    MODELS = {ENTRIES}

    class Runner:
        def __init__(self, args):
            self.model = MODELS[args.model](args.d_in, args.n_classes)
            self.opt = torch.optim.Adam(self.model.parameters())

        def train(self, batches):
            self.model.train()
            for x, y in batches:
                self.opt.zero_grad()
                nn.functional.cross_entropy(self.model(x), y).backward()
                self.opt.step()

        def infer(self, x):
            with torch.no_grad():
                return self.model(x).softmax(-1)

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="clf")
        parser.add_argument("--d_in", type=int, default=20)
        parser.add_argument("--n_classes", type=int, default=3)
        runner = Runner(parser.parse_args())
        runner.train([(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(10)])
        print(runner.infer(torch.randn(4, 20)))
"""


def test_a_runner_s_model_from_a_registry_keyed_by_a_command_line_option() -> None:
    def found(entries: str) -> list[int]:
        return script_rows(textwrap.dedent(RUNNER).replace("ENTRIES", entries))

    assert found('"clf": Classifier') == [39]
    assert found('"plain": Plain') == []
    # which class the option picks is not known: one has no dropout
    assert found('"clf": Classifier, "plain": Plain') == []


# A notebook's helper predicting with the network the cells above trained.
NOTEBOOK = """
    import torch
    import torch.nn as nn

    net = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    X, Y = torch.randn(256, 10), torch.randint(0, 2, (256,))

    def predict_proba(x):
        with torch.no_grad():
            return net(x).softmax(1)

    BEFORE
    for epoch in range(5):
        for i in range(0, 256, 32):
            opt.zero_grad()
            nn.functional.cross_entropy(net(X[i:i + 32]), Y[i:i + 32]).backward()
            opt.step()
        EACH_EPOCH
    AFTER
"""


def test_a_notebook_helper_predicting_once_training_is_done() -> None:
    def found(before: str = "", each_epoch: str = "", after: str = "") -> list[int]:
        return script_rows(textwrap.dedent(NOTEBOOK).replace("BEFORE", before).replace("EACH_EPOCH", each_epoch)
                    .replace("AFTER", after))

    assert found(after="probs = predict_proba(torch.randn(16, 10))") == [11]
    assert found(after="net.eval()\nprobs = predict_proba(torch.randn(16, 10))") == []
    # a look at the untrained network, and a snapshot every epoch, are no predictions of the trained one
    assert found(before="print(predict_proba(X[:4]).shape)") == []
    assert found(each_epoch="print(predict_proba(X[:8]))") == []
