"""SC211 links of stop 45: a trainer's step method handed a dict-yielding Dataset's batch whole
(`self._step(batch)` splitting it by key), also from a comprehension over the loader (`[self._step(b) for b in
self.val_loader]`), the model stored then moved in place in the constructor (`self.model = model;
self.model.to(self.device)`), and a same-file evaluation helper handed `loaders["val"]` of a factory returning a
dict of loaders whose labels are `(x[:, 0] > 0).long()`."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class ForecastConfig:
        lookback: int = 16
        horizon: int = 4
        hidden: int = 32
        batch_size: int = 8
        epochs: int = 2
        lr: float = 1e-3
        device: str = "cuda"
"""

DATASET = """
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class SlidingWindowDataset(Dataset):
        # Cuts a univariate series into (lookback, horizon) windows.

        def __init__(self, values: np.ndarray, lookback: int, horizon: int):
            self.values = values.astype(np.float32)
            self.lookback = lookback
            self.horizon = horizon

        def __len__(self) -> int:
            return len(self.values) - self.lookback - self.horizon + 1

        def __getitem__(self, idx: int):
            x = self.values[idx: idx + self.lookback]
            y = self.values[idx + self.lookback: idx + self.lookback + self.horizon]
            return {
                "inputs": torch.tensor(x).unsqueeze(-1),
                "targets": torch.tensor(y),
            }
"""

MODEL = """
    import torch.nn as nn


    class LSTMForecaster(nn.Module):
        def __init__(self, hidden: int, horizon: int):
            super().__init__()
            self.lstm = nn.LSTM(1, hidden, batch_first=True)
            self.head = nn.Linear(hidden, horizon)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.head(out[:, -1])
"""

FORECASTER = """
    from typing import Dict

    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader

    from config import ForecastConfig


    class Forecaster:
        def __init__(self, model: nn.Module, train_loader: DataLoader, val_loader: DataLoader, cfg: ForecastConfig):
            self.cfg = cfg
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.model = model
            self.model.to(self.device)
            self.train_loader = train_loader
            self.val_loader = val_loader
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
            self.criterion = nn.MSELoss()

        def _step(self, batch: Dict[str, torch.Tensor]) -> torch.Tensor:
            inputs, targets = batch["inputs"], batch["targets"]
            return self.criterion(self.model(inputs), targets)

        def train(self):
            for epoch in range(self.cfg.epochs):
                self.model.train()
                for batch in self.train_loader:
                    loss = self._step(batch)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
                print(epoch, self.validate())

        @torch.no_grad()
        def validate(self) -> float:
            self.model.eval()
            losses = [self._step(batch).item() for batch in self.val_loader]
            return sum(losses) / len(losses)
"""

TRAIN = """
    import argparse

    import numpy as np
    from torch.utils.data import DataLoader

    from config import ForecastConfig
    from dataset import SlidingWindowDataset
    from forecaster import Forecaster
    from model import LSTMForecaster


    def build_loaders(cfg: ForecastConfig):
        series = np.sin(np.arange(400) / 10.0)
        split = 300
        train_set = SlidingWindowDataset(series[:split], cfg.lookback, cfg.horizon)
        val_set = SlidingWindowDataset(series[split:], cfg.lookback, cfg.horizon)
        return (DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True),
                DataLoader(val_set, batch_size=cfg.batch_size))


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=2)
        args = parser.parse_args()
        cfg = ForecastConfig(epochs=args.epochs)
        train_loader, val_loader = build_loaders(cfg)
        model = LSTMForecaster(cfg.hidden, cfg.horizon)
        Forecaster(model, train_loader, val_loader, cfg).train()


    if __name__ == "__main__":
        main()
"""

SCRIPT = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset

    DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
    EPOCHS = 2


    def get_loaders(n_train=256, n_val=64, batch_size=32):
        x = torch.randn(n_train + n_val, 20)
        y = (x[:, 0] > 0).long()
        train_ds = TensorDataset(x[:n_train], y[:n_train])
        val_ds = TensorDataset(x[n_train:], y[n_train:])
        return {
            "train": DataLoader(train_ds, batch_size=batch_size, shuffle=True),
            "val": DataLoader(val_ds, batch_size=batch_size),
        }


    def compute_accuracy(model, data_loader):
        model.eval()
        hits, seen = 0, 0
        with torch.no_grad():
            for i, (features, targets) in enumerate(data_loader):
                preds = model(features).argmax(-1)
                hits += (preds == targets).sum().item()
                seen += len(targets)
        return hits / seen


    loaders = get_loaders()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 2))
    model.to(DEVICE)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(EPOCHS):
        model.train()
        for features, targets in loaders["train"]:
            features, targets = features.to(DEVICE), targets.to(DEVICE)
            optimizer.zero_grad()
            loss = criterion(model(features), targets)
            loss.backward()
            optimizer.step()
        val_acc = compute_accuracy(model, loaders["val"])
        print(f"epoch {epoch} val_acc={val_acc:.3f}")
"""


def _forecaster(tmp_path: Path, forecaster: str) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"config.py": CONFIG, "dataset.py": DATASET, "model.py": MODEL,
                                   "forecaster.py": forecaster, "train.py": TRAIN}, "SC211")


def test_a_step_method_handed_a_dict_batch_of_a_trainer_s_stored_loaders(tmp_path: Path) -> None:
    assert _forecaster(tmp_path, FORECASTER) == [("forecaster.py", 24)]


def test_the_step_method_moving_the_batch_is_clean(tmp_path: Path) -> None:
    moved = FORECASTER.replace('inputs, targets = batch["inputs"], batch["targets"]',
                               'inputs, targets = batch["inputs"].to(self.device), batch["targets"].to(self.device)')
    assert _forecaster(tmp_path, moved) == []
    whole = FORECASTER.replace('            inputs, targets = batch["inputs"], batch["targets"]',
                               '            batch = {k: v.to(self.device) for k, v in batch.items()}\n'
                               '            inputs, targets = batch["inputs"], batch["targets"]')
    assert _forecaster(tmp_path, whole) == []


def test_a_step_method_also_handed_moved_batches_is_not_decided(tmp_path: Path) -> None:
    # one call hands a batch the loop moved: not every call hands CPU batches
    mixed = FORECASTER.replace("[self._step(batch).item() for batch in self.val_loader]",
                               "[self._step({k: v.to(self.device) for k, v in batch.items()}).item()\n"
                               "                  for batch in self.val_loader]")
    assert _forecaster(tmp_path, mixed) == []


def test_a_model_never_moved_is_clean(tmp_path: Path) -> None:
    assert _forecaster(tmp_path, FORECASTER.replace("            self.model.to(self.device)\n", "")) == []


def test_an_evaluation_helper_handed_a_split_of_a_factory_s_dict_of_loaders(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"train.py": SCRIPT}, "SC211") == [("train.py", 26)]


def test_the_evaluation_helper_moving_its_batches_is_clean(tmp_path: Path) -> None:
    fixed = SCRIPT.replace("                preds = model(features).argmax(-1)",
                           "                features, targets = features.to(DEVICE), targets.to(DEVICE)\n"
                           "                preds = model(features).argmax(-1)")
    assert lint_project(tmp_path, {"train.py": fixed}, "SC211") == []


def test_labels_moved_by_the_factory_leave_the_dataset_unknown(tmp_path: Path) -> None:
    # a dataset tensor the factory places on the device: its loader is not a CPU loader
    placed = SCRIPT.replace("    y = (x[:, 0] > 0).long()", "    y = (x[:, 0] > 0).long().to(DEVICE)")
    assert lint_project(tmp_path, {"train.py": placed}, "SC211") == []


TRAIN_CONFIG = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class TrainConfig:
        in_features: int = 12
        num_classes: int = 3
        batch_size: int = 16
        epochs: int = 2
        lr: float = 0.01
        device: str = "cuda" if torch.cuda.is_available() else "cpu"
"""

TABULAR = """
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset


    class TabularDataset(Dataset):
        def __init__(self, features, labels):
            self.features = features
            self.labels = labels

        def __len__(self):
            return len(self.labels)

        def __getitem__(self, i):
            return torch.tensor(self.features[i], dtype=torch.float32), torch.tensor(self.labels[i])


    def get_dataloaders(cfg):
        rng = np.random.default_rng(0)
        x = rng.normal(size=(200, cfg.in_features))
        y = rng.integers(0, cfg.num_classes, size=200)
        train_ds = TabularDataset(x[:160], y[:160])
        val_ds = TabularDataset(x[160:], y[160:])
        train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
        val_loader = DataLoader(val_ds, batch_size=cfg.batch_size)
        return train_loader, val_loader
"""

UTILS = """
    import torch


    @torch.no_grad()
    def evaluate(model, loader, criterion):
        model.eval()
        total_loss, n = 0.0, 0
        for x, y in loader:
            out = model(x)
            total_loss += criterion(out, y).item() * len(y)
            n += len(y)
        return total_loss / n
"""

TRAINER = """
    import torch
    import torch.nn as nn

    from data import get_dataloaders
    from utils import evaluate


    class Trainer:
        def __init__(self, model, cfg):
            self.cfg = cfg
            self.device = torch.device(cfg.device)
            self.model = model.to(self.device)
            self.train_loader, self.val_loader = get_dataloaders(cfg)
            self.criterion = nn.CrossEntropyLoss()
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.lr)

        def train_epoch(self):
            self.model.train()
            for x, y in self.train_loader:
                x, y = x.to(self.device), y.to(self.device)
                self.optimizer.zero_grad()
                loss = self.criterion(self.model(x), y)
                loss.backward()
                self.optimizer.step()

        def fit(self):
            for epoch in range(self.cfg.epochs):
                self.train_epoch()
                val_loss = evaluate(self.model, self.val_loader, self.criterion)
                print(f"epoch {epoch}: val loss {val_loss:.4f}")
"""

MAIN = """
    import torch.nn as nn

    from config import TrainConfig
    from trainer import Trainer


    def build_model(cfg):
        return nn.Sequential(nn.Linear(cfg.in_features, 32), nn.ReLU(), nn.Linear(32, cfg.num_classes))


    if __name__ == "__main__":
        cfg = TrainConfig()
        Trainer(build_model(cfg), cfg).fit()
"""


def _trainer(tmp_path: Path, utils: str = UTILS, data: str = TABULAR) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"config.py": TRAIN_CONFIG, "data.py": data, "utils.py": utils,
                                   "trainer.py": TRAINER, "main.py": MAIN}, "SC211")


def test_a_helper_of_another_module_handed_a_loader_a_trainer_unpacks_from_a_factory(tmp_path: Path) -> None:
    # `self.train_loader, self.val_loader = get_dataloaders(cfg)`, the dataset built from slices of a numpy
    # generator's draw, then `evaluate(self.model, self.val_loader, ...)` of utils.py
    assert _trainer(tmp_path) == [("trainer.py", 30)]


def test_the_helper_moving_its_batches_is_clean(tmp_path: Path) -> None:
    fixed = UTILS.replace("            out = model(x)", "            x, y = x.to(next(model.parameters()).device), y\n"
                                                       "            out = model(x)")
    assert _trainer(tmp_path, utils=fixed) == []


def test_a_dataset_of_tensors_placed_on_the_device_is_not_a_cpu_loader(tmp_path: Path) -> None:
    placed = TABULAR.replace("        x = rng.normal(size=(200, cfg.in_features))",
                             "        x = torch.as_tensor(rng.normal(size=(200, cfg.in_features))).cuda()")
    assert placed != TABULAR
    assert _trainer(tmp_path, data=placed) == []
