"""Losses a project builds and checks through its plumbing: a `get_loss(name, **kwargs)` registry in a package under
`src/` builds the criterion a runner holds, and a trainer holding a typed model of another module flattens per-token
labels for a per-sentence classifier. Each INVALID program raises in torch; its VALID twin runs."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

# a `src/` layout package (its root's pyproject.toml): the runner holds whatever criterion the script built through
# the registry, which forwards its keywords to the loss class
REGISTRY_RUNNER = {
    "pyproject.toml": '''
    [project]
    name = "proj"
    ''',
    "src/proj/__init__.py": "",
    "src/proj/engine/__init__.py": '''
    from .losses import get_loss
    from .runner import Runner
    ''',
    "src/proj/engine/losses.py": '''
    import torch.nn as nn

    _LOSSES = {"ce": nn.CrossEntropyLoss, "mse": nn.MSELoss}


    def get_loss(name, **kwargs):
        return _LOSSES[name](**kwargs)
    ''',
    "src/proj/engine/runner.py": '''
    import torch


    class Runner:
        def __init__(self, model, criterion, lr=0.01):
            self.model = model
            self.criterion = criterion
            self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

        def step(self, batch):
            x, y = batch
            out = self.model(x)
            loss = self.criterion(out, y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            return loss.detach()

        def run(self, loader, epochs=1):
            for _ in range(epochs):
                for batch in loader:
                    self.step(batch)
    ''',
    "src/proj/models/__init__.py": '''
    from .mlp import MLP
    ''',
    "src/proj/models/mlp.py": '''
    import torch.nn as nn


    class MLP(nn.Module):
        def __init__(self, dims=(16, 64, 4)):
            super().__init__()
            layers = []
            for a, b in zip(dims[:-1], dims[1:]):
                layers += [nn.Linear(a, b), nn.ReLU()]
            self.net = nn.Sequential(*layers[:-1])

        def forward(self, x):
            return self.net(x)
    ''',
    "train.py": '''
    import argparse
    import sys

    import torch
    from torch.utils.data import DataLoader, TensorDataset

    sys.path.insert(0, "src")
    from proj.engine import Runner, get_loss
    from proj.models import MLP


    def parse():
        p = argparse.ArgumentParser()
        p.add_argument("--bs", type=int, default=16)
        p.add_argument("--epochs", type=int, default=2)
        return p.parse_args()


    if __name__ == "__main__":
        args = parse()
        ds = TensorDataset(torch.randn(128, 16), torch.randint(0, 4, (128,)))
        loader = DataLoader(ds, batch_size=args.bs)
        criterion = get_loss("ce", reduction="none")
        runner = Runner(MLP(), criterion)
        runner.run(loader, args.epochs)
    ''',
}


# a GRU sentence classifier (one row of scores per sentence, its last hidden state) in a package module, trained by
# a trainer of another module that types its model; the script draws one label per token, `--max-len` of them
SENTENCE_TRAINER = {
    ".git/HEAD": "",
    "clf/__init__.py": "",
    "clf/model.py": '''
    import torch
    import torch.nn as nn


    class SentenceClassifier(nn.Module):
        def __init__(self, vocab_size: int, dim: int, n_classes: int):
            super().__init__()
            self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
            self.enc = nn.GRU(dim, dim, batch_first=True)
            self.cls = nn.Linear(dim, n_classes)

        def forward(self, tokens: torch.Tensor) -> torch.Tensor:
            _, h = self.enc(self.emb(tokens))
            return self.cls(h[-1])
    ''',
    "clf/trainer.py": '''
    import torch
    import torch.nn as nn

    from clf.model import SentenceClassifier


    class Trainer:
        def __init__(self, model: SentenceClassifier, lr: float = 1e-3):
            self.model = model
            self.criterion = nn.CrossEntropyLoss()
            self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

        def training_step(self, batch):
            tokens, labels = batch
            logits = self.model(tokens)
            loss = self.criterion(logits, labels.view(-1))
            return loss

        def fit(self, loader, epochs=1):
            for _ in range(epochs):
                for batch in loader:
                    loss = self.training_step(batch)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
    ''',
    "run.py": '''
    import argparse

    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from clf.model import SentenceClassifier
    from clf.trainer import Trainer


    def get_args():
        ap = argparse.ArgumentParser()
        ap.add_argument("--max-len", type=int, default=24)
        ap.add_argument("--classes", type=int, default=4)
        ap.add_argument("--batch-size", type=int, default=16)
        return ap.parse_args()


    def main():
        args = get_args()
        tokens = torch.randint(1, 1000, (128, args.max_len))
        labels = torch.randint(0, args.classes, (128, args.max_len))
        loader = DataLoader(TensorDataset(tokens, labels), batch_size=args.batch_size)
        model = SentenceClassifier(1000, 64, args.classes)
        Trainer(model).fit(loader)


    if __name__ == "__main__":
        main()
    ''',
}


def _row(files: dict[str, str], name: str, line: str) -> int:
    """The row of `line` in the project file `name`, as written (its text starts with a newline)."""
    return [row for row, text in enumerate(files[name].splitlines(), 1) if text.strip() == line][0]


def test_a_criterion_built_unreduced_through_a_registry_s_keywords(tmp_path: Path) -> None:
    assert lint_project(tmp_path, REGISTRY_RUNNER, "SC107") == [
        ("train.py", _row(REGISTRY_RUNNER, "train.py", "runner.run(loader, args.epochs)"))]
    # the default reduction, and one the factory is handed that sums
    for index, arguments in enumerate(('"ce"', '"ce", reduction="sum"')):
        files = {**REGISTRY_RUNNER, "train.py": REGISTRY_RUNNER["train.py"].replace('"ce", reduction="none"', arguments)}
        assert lint_project(tmp_path / f"valid{index}", files, "SC107") == []


def test_per_token_labels_flattened_for_a_sentence_classifier(tmp_path: Path) -> None:
    assert lint_project(tmp_path, SENTENCE_TRAINER, "SC106") == [
        ("run.py", _row(SENTENCE_TRAINER, "run.py", "Trainer(model).fit(loader)"))]
    # one label per sentence: `.view(-1)` keeps the (B,) batch
    files = {**SENTENCE_TRAINER, "run.py": SENTENCE_TRAINER["run.py"].replace(
        "labels = torch.randint(0, args.classes, (128, args.max_len))", "labels = torch.randint(0, args.classes, (128,))")}
    assert lint_project(tmp_path / "valid", files, "SC106") == []
