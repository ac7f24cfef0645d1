"""Class-index labels kept as a (n_samples, n_tasks) column, reaching `cross_entropy` through the plumbing a
project has: a numpy table whose labels a rank guard makes 2-D (`y if y.ndim == 2 else y[:, None]`), shuffled
minibatches from `permutation` and `range(0, len(self), batch_size)` with the batch size from the command line, a
loss closure from a registry held by a trainer; or a torch Dataset of dict samples and a `functools.partial` of
`F.cross_entropy` a factory returns, held by a runner. Each INVALID program raises in torch ("0D or 1D target tensor
expected"); its VALID twin (the column squeezed, or one label per sample) runs."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project
from tests.shapes.probe import probe

# a `src/` package: the labels' column survives the table's rank guard and its shuffled minibatches
TASK_TABLE = {
    "pyproject.toml": '''
    [project]
    name = "tabnet"
    ''',
    "src/tabnet/__init__.py": '''
    from .data import TaskTable
    from .losses import make_loss
    from .trainer import Trainer
    ''',
    "src/tabnet/config.py": '''
    from dataclasses import dataclass


    @dataclass
    class Config:
        n_samples: int = 256
        n_features: int = 20
        n_classes: int = 4
        hidden: int = 64
        loss: str = "ce"
        lr: float = 1e-3
    ''',
    "src/tabnet/data.py": '''
    import numpy as np


    class TaskTable:
        """Rows of features with one column of labels per task."""

        def __init__(self, features, labels):
            self.features = np.asarray(features, dtype=np.float32)
            labels = np.asarray(labels)
            self.labels = labels if labels.ndim == 2 else labels[:, None]

        def __len__(self):
            return self.features.shape[0]

        def minibatches(self, batch_size, seed=0):
            order = np.random.default_rng(seed).permutation(len(self))
            for start in range(0, len(self), batch_size):
                rows = order[start:start + batch_size]
                yield self.features[rows], self.labels[rows]


    def synthetic(cfg):
        rng = np.random.default_rng(0)
        features = rng.normal(size=(cfg.n_samples, cfg.n_features))
        labels = rng.integers(0, cfg.n_classes, size=(cfg.n_samples, 1))
        return TaskTable(features, labels)

    ''',
    "src/tabnet/losses.py": '''
    import torch.nn.functional as F


    def _ce(logits, target):
        return F.cross_entropy(logits, target.long())


    def _mse(pred, target):
        return F.mse_loss(pred, target.float())


    _LOSSES = {"ce": _ce, "mse": _mse}


    def make_loss(name):
        fn = _LOSSES[name]

        def loss(pred, target):
            return fn(pred, target)

        return loss
    ''',
    "src/tabnet/trainer.py": '''
    import torch
    import torch.nn as nn


    class Trainer:
        def __init__(self, model: nn.Module, loss_fn, lr=1e-3, batch_size=32):
            self.model = model
            self.loss_fn = loss_fn
            self.batch_size = batch_size
            self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

        def step(self, features, labels):
            x = torch.from_numpy(features)
            y = torch.from_numpy(labels)
            loss = self.loss_fn(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item()

        def fit(self, table, epochs=1):
            history = []
            for epoch in range(epochs):
                for features, labels in table.minibatches(self.batch_size, seed=epoch):
                    history.append(self.step(features, labels))
            return history

    ''',
    "train.py": '''
    import argparse

    import torch.nn as nn

    from tabnet import Trainer, make_loss
    from tabnet.config import Config
    from tabnet.data import synthetic


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=32)
        parser.add_argument("--epochs", type=int, default=3)
        args = parser.parse_args()
        cfg = Config()
        table = synthetic(cfg)
        model = nn.Sequential(nn.Linear(cfg.n_features, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.n_classes))
        trainer = Trainer(model, make_loss(cfg.loss), lr=cfg.lr, batch_size=args.batch_size)
        print(trainer.fit(table, epochs=args.epochs)[-1])


    if __name__ == "__main__":
        main()
    ''',
}

# a torch Dataset of dict samples, a partial of the functional loss from a factory, a runner holding both
PARTIAL_RUNNER = {
    "multitask/__init__.py": '''
    ''',
    "multitask/data.py": '''
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class MultiTaskDataset(Dataset):
        """Features and a (n_samples, n_tasks) table of class labels."""

        def __init__(self, n_samples, in_dim, n_classes, n_tasks=1, seed=0):
            rng = np.random.RandomState(seed)
            self.x = torch.from_numpy(rng.randn(n_samples, in_dim).astype(np.float32))
            self.y = torch.from_numpy(rng.randint(0, n_classes, size=(n_samples, n_tasks)))

        def __len__(self):
            return len(self.x)

        def __getitem__(self, i):
            return {"features": self.x[i], "labels": self.y[i]}
    ''',
    "multitask/models/__init__.py": '''
    from .heads import ClassifierHead
    from .net import build_model
    ''',
    "multitask/models/heads.py": '''
    import torch.nn as nn


    class ClassifierHead(nn.Module):
        def __init__(self, in_dim, n_classes, dropout=0.1):
            super().__init__()
            self.drop = nn.Dropout(dropout)
            self.fc = nn.Linear(in_dim, n_classes)

        def forward(self, h):
            return self.fc(self.drop(h))
    ''',
    "multitask/models/net.py": '''
    import torch.nn as nn

    from .heads import ClassifierHead


    class Encoder(nn.Module):
        def __init__(self, in_dim, hidden):
            super().__init__()
            self.layers = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())

        def forward(self, x):
            return self.layers(x)


    class Net(nn.Module):
        def __init__(self, in_dim, hidden, n_classes):
            super().__init__()
            self.encoder = Encoder(in_dim, hidden)
            self.head = ClassifierHead(hidden, n_classes)

        def forward(self, x):
            return self.head(self.encoder(x))


    def build_model(cfg):
        return Net(cfg["in_dim"], cfg.get("hidden", 128), cfg["n_classes"])
    ''',
    "multitask/utils/__init__.py": '''
    ''',
    "multitask/utils/losses.py": '''
    import functools

    import torch.nn.functional as F


    def get_criterion(name, **kwargs):
        if name == "ce":
            return functools.partial(F.cross_entropy, **kwargs)
        if name == "nll":
            return functools.partial(F.nll_loss, **kwargs)
        raise ValueError(name)
    ''',
    "train.py": '''
    import torch
    from torch.utils.data import DataLoader

    from multitask.data import MultiTaskDataset
    from multitask.models import build_model
    from multitask.utils.losses import get_criterion

    CONFIG = {"in_dim": 12, "n_classes": 3, "batch_size": 16, "epochs": 2, "loss": "ce", "label_smoothing": 0.05}


    class Runner:
        def __init__(self, cfg):
            self.cfg = cfg
            self.model = build_model(cfg)
            self.criterion = get_criterion(cfg["loss"], label_smoothing=cfg["label_smoothing"])
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)

        def train_step(self, batch):
            logits = self.model(batch["features"])
            loss = self.criterion(logits, batch["labels"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item()

        def train(self, loader):
            for epoch in range(self.cfg["epochs"]):
                total = 0.0
                for batch in loader:
                    total += self.train_step(batch)
                print(epoch, total / len(loader))


    if __name__ == "__main__":
        dataset = MultiTaskDataset(200, CONFIG["in_dim"], CONFIG["n_classes"])
        loader = DataLoader(dataset, batch_size=CONFIG["batch_size"], shuffle=True)
        Runner(CONFIG).train(loader)
    ''',
}


def test_a_label_column_into_a_loss_closure_a_trainer_holds(tmp_path: Path) -> None:
    assert lint_project(tmp_path, TASK_TABLE, "SC106") == [("train.py", 20)]
    fixed = dict(TASK_TABLE)
    fixed["src/tabnet/losses.py"] = fixed["src/tabnet/losses.py"].replace("target.long()", "target.long().squeeze(-1)")
    assert lint_project(tmp_path / "valid", fixed, "SC106") == []


def test_a_label_column_into_a_partial_of_cross_entropy(tmp_path: Path) -> None:
    assert lint_project(tmp_path, PARTIAL_RUNNER, "SC106") == [("train.py", 21)]
    fixed = dict(PARTIAL_RUNNER)
    fixed["multitask/data.py"] = fixed["multitask/data.py"].replace('"labels": self.y[i]}', '"labels": self.y[i, 0]}')
    assert lint_project(tmp_path / "valid", fixed, "SC106") == []


def test_the_links_the_labels_pass() -> None:
    """An array's rank tested by a guard (`.ndim`), the class an `argmax` picks per row, a shuffled order
    (`permutation`, of a count or of an array's rows), an array's dim read through `.shape[0]` in `__len__`, and a
    batch loop whose step is a command-line option (`--batch-size 32`) that takes its first pass."""
    assert probe('''
import argparse
import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=32)
args = parser.parse_args()

class Table:
    def __init__(self, x, y):
        self.x = np.asarray(x, dtype=np.float32)
        self.y = np.asarray(y)
        if self.y.ndim == 1:
            self.y = self.y[:, None]

    def __len__(self):
        return self.x.shape[0]

rng = np.random.default_rng(0)
x = rng.normal(size=(96, 8))
classes = (x @ rng.normal(size=(8, 3))).argmax(axis=1)
table = Table(x, classes.reshape(-1, 1))
probe(torch.from_numpy(classes))
probe(torch.from_numpy(table.y))
probe(torch.from_numpy(rng.permutation(len(table))))
probe(torch.from_numpy(np.random.permutation(table.x)))
for start in range(0, len(table), args.batch_size):
    probe(torch.from_numpy(table.y[start:start + args.batch_size]))
''') == ["(96,)", "(96, 1)", "(96,)", "(96, 8)", "(args.batch_size, 1)"]
