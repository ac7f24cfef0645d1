"""SC303 across a project's modules: a trainer or a training helper of one module handed its criterion and its
model by another (a package's `engine/trainer.py` constructed in `main.py`, `utils.train` called by `run.py`), and a
criterion a factory of the project builds from the name a call gives it; logits, or a loss the code doesn't name,
stay silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

NET = """
    import torch
    from torch import nn

    class TextCNN(nn.Module):
        def __init__(self, vocab_size, n_classes, dim=64):
            super().__init__()
            self.emb = nn.Embedding(vocab_size, dim)
            self.fc = nn.Linear(dim, n_classes)

        def forward(self, tokens):
            h = self.emb(tokens).mean(1)
            return %s
    """

TRAINER = """
    import torch

    class Trainer:
        def __init__(self, model, criterion, optimizer, device="cpu"):
            self.model = model.to(device)
            self.criterion = criterion
            self.optimizer = optimizer
            self.device = device

        def train_epoch(self, loader):
            self.model.train()
            for tokens, labels in loader:
                out = self.model(tokens.to(self.device))
                loss = self.criterion(out, labels.to(self.device))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
    """

MAIN = """
    import torch
    from torch import nn

    from engine.trainer import Trainer
    from models.net import TextCNN

    def main(loader):
        model = TextCNN(5000, 4)
        trainer = Trainer(model, nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters()))
        for epoch in range(10):
            trainer.train_epoch(loader)
    """


def _trainer_package(tmp_path: Path, returned: str) -> list[tuple[str, int]]:
    files = {"models/__init__.py": "", "models/net.py": NET % returned, "engine/__init__.py": "",
             "engine/trainer.py": TRAINER, "main.py": MAIN}
    return lint_project(tmp_path, files, "SC303")


def test_a_trainer_of_another_module_handed_a_softmax_model_and_cross_entropy(tmp_path: Path) -> None:
    assert _trainer_package(tmp_path, "torch.softmax(self.fc(h), dim=-1)") == [("engine/trainer.py", 15)]


def test_the_same_trainer_handed_a_model_returning_logits_is_silent(tmp_path: Path) -> None:
    assert _trainer_package(tmp_path, "self.fc(h)") == []


UTILS = """
    from torch import nn

    def make_mlp(sizes):
        layers = []
        for i in range(len(sizes) - 2):
            layers += [nn.Linear(sizes[i], sizes[i + 1]), nn.ReLU()]
        layers += [nn.Linear(sizes[-2], sizes[-1])%s]
        return nn.Sequential(*layers)

    def train(model, loader, loss_fn, optimizer, epochs=5):
        for _ in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                optimizer.step()
    """

RUN = """
    import torch
    from torch import nn

    from utils import make_mlp, train

    model = make_mlp([20, 64, 64, 3])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, loader, nn.CrossEntropyLoss(), opt)
    """


def test_a_train_helper_of_another_module_handed_a_stack_ending_in_softmax(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"utils.py": UTILS % ", nn.Softmax(dim=1)", "run.py": RUN}, "SC303") \
        == [("utils.py", 15)]
    assert lint_project(tmp_path, {"utils.py": UTILS % "", "run.py": RUN}, "SC303") == []


FACTORIES = """
    import argparse

    import torch
    from torch import nn

    def build_model(name, n_classes):
        if name == "mlp":
            return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, n_classes),
                                 nn.Softmax(dim=-1))
        raise ValueError(name)

    def get_criterion(name):
        if name == "ce":
            return nn.CrossEntropyLoss()
        return nn.BCEWithLogitsLoss()

    def fit(model, criterion, loader, epochs, lr):
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        for epoch in range(epochs):
            for images, targets in loader:
                loss = criterion(model(images), targets)
                opt.zero_grad()
                loss.backward()
                opt.step()

    if __name__ == "__main__":
        p = argparse.ArgumentParser()
        p.add_argument("--loss", default="ce")
        args = p.parse_args()
        fit(build_model("mlp", 10), get_criterion(%s), loader, 5, 0.01)
    """


def test_a_criterion_a_factory_builds_from_the_name_it_is_given(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"train.py": FACTORIES % '"ce"'}, "SC303") == [("train.py", 22)]
    # the name from the command line: read in the run with no flags, as a registry's entry is (`LOSSES[args.loss]`)
    assert lint_project(tmp_path, {"train.py": FACTORIES % "args.loss"}, "SC303") == [("train.py", 22)]
    # an option with no default, or a default picking another loss
    assert lint_project(tmp_path, {"train.py": (FACTORIES % "args.loss").replace('default="ce"', "required=True")},
                        "SC303") == []
    assert lint_project(tmp_path, {"train.py": (FACTORIES % "args.loss").replace('default="ce"', 'default="bce"')},
                        "SC303") == []


# A package re-exporting its training helper (`from .train_utils import train_model` in `utils/__init__.py`), a
# module that never imports torch; the criterion picked from a registry by the `--criterion` option, whose default
# is `%s`, for a stack ending in `%s`.
REEXPORTED_HELPER = """
    def train_model(net, loader, loss_fn, opt, n_epochs):
        history = []
        for _ in range(n_epochs):
            for xb, yb in loader:
                opt.zero_grad()
                out = net(xb)
                loss = loss_fn(out, yb)
                loss.backward()
                opt.step()
                history.append(loss.item())
        return history
    """

CHOSEN_CRITERION = """
    import argparse

    import torch
    from torch import nn

    from utils import train_model

    CRITERIA = {"ce": nn.CrossEntropyLoss, "nll": nn.NLLLoss}

    parser = argparse.ArgumentParser()
    parser.add_argument("--criterion", default="%s")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3), nn.%s(dim=1))
    train_model(model, loader, CRITERIA[args.criterion](), torch.optim.SGD(model.parameters(), lr=0.1), args.epochs)
    """


def _reexported(tmp_path: Path, default: str, last: str) -> list[tuple[str, int]]:
    files = {"utils/__init__.py": "from .train_utils import train_model\n", "utils/train_utils.py": REEXPORTED_HELPER,
             "main.py": CHOSEN_CRITERION % (default, last)}
    return lint_project(tmp_path, files, "SC303")


def test_a_helper_a_package_re_exports_handed_the_criterion_the_option_s_default_picks(tmp_path: Path) -> None:
    assert _reexported(tmp_path, "ce", "Softmax") == [("utils/train_utils.py", 8)]


def test_the_log_softmax_stack_the_default_nll_loss_wants_is_silent(tmp_path: Path) -> None:
    assert _reexported(tmp_path, "nll", "LogSoftmax") == []


# A stack a helper of another module builds ending in `%s`, trained by `UTILS`'s helper in a third module handed `%s` as
# its loss function: the functional loss itself, or a loss module.
STACK_BUILDER = """
    from collections import OrderedDict

    import torch.nn as nn

    def build_mlp(sizes):
        return nn.Sequential(OrderedDict([
            ("fc1", nn.Linear(sizes[0], sizes[1])),
            ("act", nn.ReLU()),
            ("fc2", nn.Linear(sizes[1], sizes[2])),
            ("out", nn.%s),
        ]))
    """

STACK_MAIN = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    from engine import train
    from nets import build_mlp

    def main(loader):
        model = build_mlp([10, 32, 3])
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        train(model, loader, %s, optimizer, 2)
    """


def _stack(tmp_path: Path, last: str, loss: str) -> list[tuple[str, int]]:
    # the training helper of `UTILS`, in a module of its own
    files = {"nets.py": STACK_BUILDER % last, "engine.py": UTILS % "", "main.py": STACK_MAIN % loss}
    return lint_project(tmp_path, files, "SC303")


def test_an_ordered_dict_stack_ending_in_softmax_and_the_functional_loss_handed_to_a_helper(tmp_path: Path) -> None:
    assert _stack(tmp_path, "Softmax(dim=1)", "F.cross_entropy") == [("engine.py", 15)]
    assert _stack(tmp_path / "module", "Softmax(dim=1)", "nn.CrossEntropyLoss()") == [("engine.py", 15)]


def test_an_ordered_dict_stack_ending_in_logits_or_log_softmax_with_nll_is_silent(tmp_path: Path) -> None:
    assert _stack(tmp_path, "Identity()", "F.cross_entropy") == []
    assert _stack(tmp_path / "nll", "LogSoftmax(dim=1)", "F.nll_loss") == []
    # the class handed uncalled is no loss: calling it would build a module
    assert _stack(tmp_path / "class", "Softmax(dim=1)", "nn.CrossEntropyLoss") == []
