"""SC211 on a forecaster class that moves its typed model to `self.device` in `__init__` (`self.model: nn.Module =
model.to(self.device)`) and feeds it the batches of a dict-yielding Dataset of another module, built in a script
that imports the class, unmoved."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project
from tests.test_input_not_on_model_device import LOADERS

DATA = """
    import torch
    from torch.utils.data import Dataset


    class WindowDataset(Dataset):
        def __init__(self, series, past=24, horizon=6):
            self.series = torch.as_tensor(series, dtype=torch.float32)
            self.past, self.horizon = past, horizon

        def __len__(self):
            return len(self.series) - self.past - self.horizon + 1

        def __getitem__(self, i):
            window = self.series[i:i + self.past + self.horizon]
            return {"past": window[:self.past].unsqueeze(-1), "future": window[self.past:]}
"""

FORECASTER = """
    import torch
    import torch.nn as nn


    class Forecaster:
        def __init__(self, model: nn.Module, lr: float = 1e-3, device: str = "cuda"):
            self.device = torch.device(device if torch.cuda.is_available() else "cpu")
            self.model: nn.Module = model.to(self.device)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
            self.loss_fn = nn.MSELoss()

        def fit(self, loader, epochs: int = 2):
            for epoch in range(epochs):
                self.model.train()
                for batch in loader:
                    BATCH
                    loss = self.loss_fn(self.model(past), future)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
            return self
"""

RUN = """
    import math

    import torch.nn as nn
    from torch.utils.data import DataLoader

    from data import WindowDataset
    from forecaster import Forecaster

    if __name__ == "__main__":
        series = [math.sin(t / 5) for t in range(200)]
        loader = DataLoader(WindowDataset(series), batch_size=8, shuffle=True)
        Forecaster(nn.Sequential(nn.Flatten(), nn.Linear(24, 6))).fit(loader)
"""


def test_a_typed_model_moved_in_init_fed_a_dict_dataset_s_batches(tmp_path: Path) -> None:
    def run(batch: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"data.py": DATA, "forecaster.py": FORECASTER.replace("BATCH", batch),
                                       "run.py": RUN}, "SC211")

    assert run('past, future = batch["past"], batch["future"]') == [("forecaster.py", 18)]
    assert run('past = batch["past"]\n                    future = batch["future"]') == [("forecaster.py", 19)]
    assert run('past, future = batch["past"].to(self.device), batch["future"].to(self.device)') == []
    assert run('batch = {k: v.to(self.device) for k, v in batch.items()}\n'
               '                    past, future = batch["past"], batch["future"]') == []


EVALUATE = """
    import torch


    def evaluate(model, loader):
        model.eval()
        correct = 0
        with torch.no_grad():
            for batch in loader:
                FED
                correct += (logits.argmax(1) == batch[1]).sum().item()
        return correct / len(loader.dataset)
"""

MAIN = """
    import argparse

    import torch
    import torch.nn as nn

    from data import make_loaders
    IMPORT


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
        args = parser.parse_args()
        device = torch.device(args.device)
        train_loader, val_loader = make_loaders(16)
        model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(2):
            model.train()
            for features, labels in train_loader:
                features, labels = features.to(device), labels.to(device)
                loss = nn.functional.cross_entropy(model(features), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(epoch, evaluate(model, val_loader))
"""


def test_an_evaluation_helper_feeding_a_moved_model_a_part_of_each_batch(tmp_path: Path) -> None:
    def run(fed: str, same_file: bool) -> list[tuple[str, int]]:
        helper = EVALUATE.replace("FED", fed)
        if same_file:
            main = MAIN.replace("    IMPORT\n", "").replace("\n\n\n    def main():", "\n\n" + helper.replace(
                "    import torch\n", "") + "\n\n    def main():")
            return lint_project(tmp_path, {"data.py": LOADERS, "train.py": main}, "SC211")
        return lint_project(tmp_path, {"data.py": LOADERS, "engine.py": helper,
                                       "train.py": MAIN.replace("IMPORT", "from engine import evaluate")}, "SC211")

    same = run("logits = model(batch[0])", same_file=True)
    assert len(same) == 1 and same[0][0] == "train.py"
    assert run("logits = model(batch[0].to(next(model.parameters()).device))", same_file=True) == []
    assert run("logits = model(batch[0])", same_file=False) == [("train.py", 27)]
    assert run("logits = model(batch[0].to(next(model.parameters()).device))", same_file=False) == []
