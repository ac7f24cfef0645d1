"""SC210 on projects whose model comes through a star import of the project's package (`from models import *`) or
back from a training helper that only calls `model.train()` (`model = train(build_model(cfg), ...)`)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

VGG = """
    import torch.nn as nn

    cfg = {"A": [8, "M", 16, "M"]}


    class VGG(nn.Module):
        def __init__(self, features, num_classes=10):
            super().__init__()
            self.features = features
            self.classifier = nn.Sequential(nn.Linear(16 * 8 * 8, 32), nn.ReLU(True), nn.Linear(32, num_classes))

        def forward(self, x):
            x = self.features(x)
            return self.classifier(x.view(x.size(0), -1))


    def make_layers(cfg, batch_norm=False):
        layers = []
        in_channels = 3
        for v in cfg:
            if v == "M":
                layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
            else:
                conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
                if batch_norm:
                    layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
                else:
                    layers += [conv2d, nn.ReLU(inplace=True)]
                in_channels = v
        return nn.Sequential(*layers)


    def vgg11_bn(**kwargs):
        return VGG(make_layers(cfg["A"], batch_norm=True), **kwargs)
"""

SOLVER = """
    import torch
    import torch.nn as nn
    import torch.optim as optim

    from models import *


    class Solver:
        def __init__(self, config, train_loader, test_loader):
            self.lr = config.lr
            self.epochs = config.epoch
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.train_loader = train_loader
            self.test_loader = test_loader
            self.model = None

        def load_model(self):
            self.model = vgg11_bn(num_classes=10).to(self.device)
            self.optimizer = optim.Adam(self.model.parameters(), lr=self.lr)
            self.criterion = nn.CrossEntropyLoss().to(self.device)

        def train(self):
            self.model.train()
            for data, target in self.train_loader:
                data, target = data.to(self.device), target.to(self.device)
                self.optimizer.zero_grad()
                loss = self.criterion(self.model(data), target)
                loss.backward()
                self.optimizer.step()

        def test(self):
            EVAL
            correct = 0
            with torch.no_grad():
                for data, target in self.test_loader:
                    output = self.model(data.to(self.device))
                    correct += (output.argmax(1) == target.to(self.device)).sum().item()
            return correct / len(self.test_loader.dataset)

        def run(self):
            self.load_model()
            for epoch in range(1, self.epochs + 1):
                self.train()
                print(epoch, self.test())
"""


def test_a_solver_s_test_of_a_vgg_bn_a_star_import_of_the_package_gives(tmp_path: Path) -> None:
    def run(evaluation: str, exported: str = "from .vgg import vgg11_bn") -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"models/__init__.py": exported, "models/vgg.py": VGG,
                                       "solver.py": SOLVER.replace("EVAL", evaluation)}, "SC210")

    assert run("pass") == [("solver.py", 37)]
    assert run("pass", "from .vgg import *") == [("solver.py", 37)]
    assert run("self.model.eval()") == []


ROUTINES = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class TextCNN(nn.Module):
        def __init__(self, vocab_size, n_classes, p_drop):
            super().__init__()
            self.embedding = nn.EmbeddingBag(vocab_size, 16)
            DROPOUT
            self.fc = nn.Linear(16, n_classes)

        def forward(self, tokens):
            return self.fc(self.drop(self.embedding(tokens)))


    def build_model(cfg):
        return TextCNN(cfg.vocab_size, cfg.n_classes, cfg.p_drop)


    def train(model, tokens, labels, epochs=3):
        opt = torch.optim.Adam(model.parameters())
        model.train()
        for _ in range(epochs):
            loss = F.cross_entropy(model(tokens), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        LEAVES
        return model
"""

INFERENCE = """
    import torch


    def predict(model, tokens, device="cpu"):
        with torch.inference_mode():
            probs = model(tokens.to(device)).softmax(-1)
        return probs.argmax(-1).tolist()
"""

MAIN = """
    from dataclasses import dataclass

    import torch

    from inference import predict
    from routines import build_model, train


    @dataclass
    class Config:
        vocab_size: int = 100
        n_classes: int = 3
        p_drop: float = 0.5


    def main():
        cfg = Config()
        tokens, labels = torch.randint(0, cfg.vocab_size, (8, 12)), torch.randint(0, cfg.n_classes, (8,))
        model = train(build_model(cfg), tokens, labels)
        print(predict(model, tokens[:4]))
"""


def test_an_inference_helper_handed_what_a_training_helper_hands_back(tmp_path: Path) -> None:
    def run(leaves: str = "pass", layer: str = "self.drop = nn.Dropout(p_drop)") -> list[tuple[str, int]]:
        return lint_project(tmp_path, {
            "routines.py": ROUTINES.replace("LEAVES", leaves).replace("DROPOUT", layer),
            "inference.py": INFERENCE, "main.py": MAIN}, "SC210")

    assert run() == [("inference.py", 7)]
    # the helper may hand it back in eval mode
    assert run("model.eval()") == []
    assert run("model.train(False)") == []
    # no layer depends on the mode
    assert run(layer="self.drop = nn.Identity()") == []


TRAINER = """
    import logging

    import torch
    import torch.nn as nn

    log = logging.getLogger(__name__)


    class Trainer:
        def __init__(self, model, optimizer, train_batches, val_batches, device="cpu"):
            self.model = model.to(device)
            self.optimizer = optimizer
            self.train_batches = train_batches
            self.val_batches = val_batches
            self.device = device
            self.criterion = nn.CrossEntropyLoss()

        def _step(self, tokens, labels):
            return self.criterion(self.model(tokens.to(self.device)), labels.to(self.device))

        def train_epoch(self):
            self.model.train()
            for tokens, labels in self.train_batches:
                loss = self._step(tokens, labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

        def valid_epoch(self):
            SWITCH
            losses = []
            with torch.no_grad():
                for tokens, labels in self.val_batches:
                    losses.append(self._step(tokens, labels).item())
            return sum(losses) / len(losses)

        def fit(self, epochs):
            for epoch in range(epochs):
                self.train_epoch()
                log.info("epoch %d val loss %.3f", epoch, self.valid_epoch())
"""

RUN = """
    import torch
    import torch.nn as nn

    from trainer import Trainer


    class Classifier(nn.Module):
        def __init__(self, vocab_size=100, n_classes=3):
            super().__init__()
            self.embedding = nn.EmbeddingBag(vocab_size, 16)
            self.head = nn.Sequential(LAYERS)

        def forward(self, tokens):
            return self.head(self.embedding(tokens))


    def batches(n):
        return [(torch.randint(0, 100, (4, 12)), torch.randint(0, 3, (4,))) for _ in range(n)]


    if __name__ == "__main__":
        model = Classifier()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        Trainer(model, optimizer, batches(4), batches(2)).fit(2)
"""


def test_a_validation_that_switches_back_to_train_runs_the_model_in_a_shared_step_method(tmp_path: Path) -> None:
    def run(switch: str, layers: str = "nn.Dropout(0.5), nn.Linear(16, 3)") -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"trainer.py": TRAINER.replace("SWITCH", switch),
                                       "run.py": RUN.replace("LAYERS", layers)}, "SC210")

    assert run("self.model.train()") == [("trainer.py", 35)]
    assert run("pass") == [("trainer.py", 35)]
    assert run("self.model.eval()") == []
    assert run("self.model.train()", "nn.ReLU(), nn.Linear(16, 3)") == []
