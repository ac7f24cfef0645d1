"""SC210 links of stop 45: a Solver storing the model it is handed (`self.net = model`) and binding `self.model =
self.net.to(self.device)` in a later method, run by `test()` under `no_grad` (the model a VGG with batch norm of
a project factory); a trainer whose `validate()` switches back to train mode at its end, then `predict()` served
after `fit()` by a script; a notebook's final prediction after its training cells, with a validation helper
switching back to train mode."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

VGG = """
    import torch.nn as nn

    cfg = {
        "VGG11": [8, "M", 16, "M", 32, 32, "M"],
        "VGG13": [8, 8, "M", 16, 16, "M", 32, 32, "M"],
    }


    def conv_bn(c_in, c_out):
        return [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True)]


    class VGG(nn.Module):
        def __init__(self, vgg_name):
            super().__init__()
            self.features = self._make_layers(cfg[vgg_name])
            self.classifier = nn.Linear(32 * 4 * 4, 10)

        def forward(self, x):
            return self.classifier(self.features(x).flatten(1))

        def _make_layers(self, widths):
            stages, channels = [], 3
            for width in widths:
                if width == "M":
                    stages.append(nn.MaxPool2d(2))
                    continue
                stages.extend(conv_bn(channels, width))
                channels = width
            return nn.Sequential(*stages)


    def VGG11():
        return VGG("VGG11")


    def VGG13():
        return VGG("VGG13")
"""

SOLVER = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset



    class Solver:
        def __init__(self, config, model):
            self.net = model
            self.lr = config.lr
            self.epochs = config.epoch
            self.batch_size = config.batch_size
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.model = None

        def load_data(self):
            x = torch.randn(64, 3, 32, 32)
            y = torch.randint(0, 10, (64,))
            self.train_loader = DataLoader(TensorDataset(x, y), batch_size=self.batch_size, shuffle=True)
            self.test_loader = DataLoader(TensorDataset(x[:32], y[:32]), batch_size=self.batch_size)

        def load_model(self):
            self.model = self.net.to(self.device)
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)
            self.criterion = nn.CrossEntropyLoss().to(self.device)

        def train(self):
            print("train:")
            self.model.train()
            train_loss, correct, total = 0, 0, 0
            for data, target in self.train_loader:
                data, target = data.to(self.device), target.to(self.device)
                self.optimizer.zero_grad()
                output = self.model(data)
                loss = self.criterion(output, target)
                loss.backward()
                self.optimizer.step()
                train_loss += loss.item()
                correct += (output.argmax(1) == target).sum().item()
                total += target.size(0)
            return train_loss, correct / total

        def test(self):
            print("test:")
            test_loss, correct, total = 0, 0, 0
            with torch.no_grad():
                for data, target in self.test_loader:
                    data, target = data.to(self.device), target.to(self.device)
                    output = self.model(data)
                    test_loss += self.criterion(output, target).item()
                    correct += (output.argmax(1) == target).sum().item()
                    total += target.size(0)
            return test_loss, correct / total

        def run(self):
            self.load_data()
            self.load_model()
            best = 0
            for epoch in range(1, self.epochs + 1):
                train_result = self.train()
                test_result = self.test()
                best = max(best, test_result[1])
                print(epoch, train_result, test_result)
            return best
"""

MAIN = """
    import argparse

    import models
    from solver import Solver


    def main():
        parser = argparse.ArgumentParser(description="cifar-10 with PyTorch")
        parser.add_argument("--lr", default=0.01, type=float)
        parser.add_argument("--epoch", default=2, type=int)
        parser.add_argument("--batch_size", default=16, type=int)
        args = parser.parse_args()
        solver = Solver(args, models.VGG11())
        solver.run()


    if __name__ == "__main__":
        main()
"""

TEXT_CNN = """
    import torch.nn as nn


    class TextCNN(nn.Module):
        def __init__(self, vocab_size, embed_dim=32, n_filters=16, n_classes=4, dropout=0.5):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_dim)
            self.conv = nn.Conv1d(embed_dim, n_filters, kernel_size=3, padding=1)
            self.dropout = nn.Dropout(dropout)
            self.fc = nn.Linear(n_filters, n_classes)

        def forward(self, tokens):
            x = self.embedding(tokens).transpose(1, 2)
            x = self.conv(x).relu().max(dim=2).values
            return self.fc(self.dropout(x))
"""

TRAINER = """
    import torch
    import torch.nn.functional as F


    class Trainer:
        def __init__(self, model, optimizer, train_loader, val_loader):
            self.model = model
            self.optimizer = optimizer
            self.train_loader = train_loader
            self.val_loader = val_loader

        def train_epoch(self):
            for tokens, labels in self.train_loader:
                loss = F.cross_entropy(self.model(tokens), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            return loss.item()

        def validate(self):
            self.model.eval()
            correct = n = 0
            with torch.no_grad():
                for tokens, labels in self.val_loader:
                    correct += (self.model(tokens).argmax(1) == labels).sum().item()
                    n += len(labels)
            self.model.train()
            return correct / n

        def fit(self, epochs):
            self.model.train()
            for epoch in range(epochs):
                loss = self.train_epoch()
                acc = self.validate()
                print(f"epoch {epoch}: loss={loss:.3f} val_acc={acc:.3f}")

        def predict(self, tokens):
            with torch.no_grad():
                return self.model(tokens).softmax(-1)
"""

TRAIN = """
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from model import TextCNN
    from trainer import Trainer

    VOCAB = 100


    def loader(n, shuffle):
        return DataLoader(TensorDataset(torch.randint(0, VOCAB, (n, 12)), torch.randint(0, 4, (n,))),
                          batch_size=16, shuffle=shuffle)


    if __name__ == "__main__":
        model = TextCNN(VOCAB)
        trainer = Trainer(model, torch.optim.Adam(model.parameters(), 1e-3), loader(128, True), loader(64, False))
        trainer.fit(epochs=2)
        probs = trainer.predict(torch.randint(0, VOCAB, (8, 12)))
        print(probs.argmax(-1).tolist())
"""

NOTEBOOK = """
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    X = torch.randn(256, 10)
    Y = (X.sum(1, keepdim=True) > 0).float()
    X_val, Y_val = torch.randn(64, 10), torch.randn(64, 1)

    net = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    loss_fn = nn.BCEWithLogitsLoss()


    def check_val(net):
        net.eval()
        with torch.no_grad():
            val_loss = loss_fn(net(X_val), Y_val).item()
        net.train()
        return val_loss


    for epoch in range(20):
        for i in range(0, 256, 32):
            xb, yb = X[i:i + 32], Y[i:i + 32]
            loss = loss_fn(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 0:
            print(epoch, check_val(net))

    X_test = torch.randn(16, 10)
    with torch.no_grad():
        test_probs = torch.sigmoid(net(X_test))
    print(test_probs.squeeze(1))
"""


def _solver(tmp_path: Path, solver: str = SOLVER) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"models/__init__.py": "from .vgg import *\n", "models/vgg.py": VGG,
                                   "solver.py": solver, "main.py": MAIN}, "SC210")


def test_a_solver_s_model_bound_in_a_later_method_from_the_model_it_stored(tmp_path: Path) -> None:
    assert _solver(tmp_path) == [("solver.py", 50)]


def test_the_solver_switching_to_eval_in_test_is_clean(tmp_path: Path) -> None:
    fixed = SOLVER.replace('            print("test:")\n', '            print("test:")\n            self.model.eval()\n')
    assert fixed != SOLVER
    assert _solver(tmp_path, fixed) == []


def test_a_solver_s_model_bound_from_two_stored_models_is_not_decided(tmp_path: Path) -> None:
    other = SOLVER.replace("    def train(self):", "    def swap(self):\n            self.model = self.config\n\n"
                                                   "        def train(self):")
    assert other != SOLVER
    assert _solver(tmp_path, other.replace("        self.net = model", "        self.net = model\n"
                                                                     "            self.config = config")) == []


def _trainer(tmp_path: Path, trainer: str = TRAINER) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"model.py": TEXT_CNN, "trainer.py": trainer, "train.py": TRAIN}, "SC210")


def test_a_prediction_served_after_fit_whose_validation_switches_back_to_train(tmp_path: Path) -> None:
    assert _trainer(tmp_path) == [("trainer.py", 40)]


def test_the_prediction_switching_to_eval_is_clean(tmp_path: Path) -> None:
    fixed = TRAINER.replace("        def predict(self, tokens):\n",
                            "        def predict(self, tokens):\n            self.model.eval()\n")
    assert fixed != TRAINER
    assert _trainer(tmp_path, fixed) == []


def test_a_validation_leaving_eval_mode_is_clean(tmp_path: Path) -> None:
    # `fit` ends with `validate()`, which no longer switches back: `predict` runs in eval mode
    left = TRAINER.replace("            self.model.train()\n            return correct / n",
                           "            return correct / n")
    assert left != TRAINER
    assert _trainer(tmp_path, left) == []


def test_a_notebook_s_prediction_after_its_training_cells(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"nb.py": NOTEBOOK}, "SC210") == [("nb.py", 35)]


def test_the_notebook_switching_to_eval_before_predicting_is_clean(tmp_path: Path) -> None:
    fixed = NOTEBOOK.replace("    X_test = torch.randn(16, 10)\n", "    X_test = torch.randn(16, 10)\n    net.eval()\n")
    assert fixed != NOTEBOOK
    assert lint_project(tmp_path, {"nb.py": fixed}, "SC210") == []


def test_a_check_before_training_is_no_prediction(tmp_path: Path) -> None:
    # a pass before the training cells checks the untrained network's output: not reported
    early = NOTEBOOK.replace("    def check_val(net):", "    with torch.no_grad():\n        print(net(X[:4]))\n\n\n"
                                                      "    def check_val(net):")
    assert early != NOTEBOOK
    assert lint_project(tmp_path, {"nb.py": early}, "SC210") == [("nb.py", 39)]


def test_a_notebook_that_switches_no_mode_keeps_its_last_pass_a_snapshot(tmp_path: Path) -> None:
    # no switch anywhere: a pass after the training cells is read as before, a snapshot (a dropout whose rate a
    # config sets to 0 is common there, and the objects floor does not read that rate)
    quiet = NOTEBOOK.replace("        print(epoch, check_val(net))", "        print(epoch, loss.item())")
    assert quiet != NOTEBOOK
    assert lint_project(tmp_path, {"nb.py": quiet}, "SC210") == []
