"""SC104 on losses and targets, on values that come through calls: a trainer's step on a loader's batches, a dataset
whose `__init__` builds its samples in a loop, an unreduced loss weighted per sample. Each program has its fixed
look-alike, which stays silent."""

from __future__ import annotations

import pytest

from tests.helpers import lint

# a trainer weights an unreduced BCE by per-sample weights; the dataset keeps its samples as dicts appended in its
# `__init__` (more than are run one by one), the labels as one-element arrays of a spelling the analysis can't read:
# the unreduced loss is the logits' (B, 1) all the same; `%s` is the weighting
WEIGHTED_TRAINER = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Claims(Dataset):
    def __init__(self, n: int = 300, n_features: int = 10, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.samples = []
        for _ in range(n):
            x = rng.normal(size=n_features).astype(np.float32)
            self.samples.append({"x": x, "y": np.float32([x[0] > 0]), "w": float(rng.uniform(0.5, 2.0))})

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        s = self.samples[i]
        return {"x": torch.from_numpy(s["x"]), "y": torch.from_numpy(s["y"]), "w": torch.tensor(s["w"])}


class RiskModel(nn.Module):
    def __init__(self, n_features: int = 10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x)


class WeightedTrainer:
    def __init__(self, model: RiskModel, lr: float = 1e-3):
        self.model = model
        self.criterion = nn.BCEWithLogitsLoss(reduction="none")
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, batch):
        feats, target, weight = batch["x"], batch["y"], batch["w"]
        loss = self.criterion(self.model(feats), target)
        loss = (%s).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, loader, epochs: int = 1):
        for _ in range(epochs):
            for batch in loader:
                self.step(batch)


trainer = WeightedTrainer(RiskModel())
trainer.fit(DataLoader(Claims(), batch_size=20, shuffle=True), epochs=2)
'''


@pytest.mark.parametrize(("weighting", "rows"), [("weight * loss", [42]), ("weight.unsqueeze(1) * loss", []),
                                                  ("weight * loss.squeeze(1)", [])])
def test_per_sample_weights_against_an_unreduced_binary_loss(weighting: str, rows: list[int]) -> None:
    found = lint(WEIGHTED_TRAINER % weighting, "SC104").findings
    assert [f.location.row for f in found] == rows
    if rows:
        assert "`weight` is (20,) and `loss` is (20, 1)" in found[0].message


# a regression set made by a factory: the targets a comprehension over the feature rows (as many as the rows); an
# rmse() helper right in the training step (the predictions squeezed) and wrong in the evaluation; `%s` is what the
# evaluation scores
RMSE_HELPER = '''
import numpy as np
import torch
import torch.nn as nn


def make_dataset(n_nodes: int = 80, n_features: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(n_nodes, n_features)).astype(np.float32)
    targets = [float(row.sum()) for row in feats]
    return torch.from_numpy(feats), torch.tensor(targets)


def rmse(pred, target):
    return ((pred - target) ** 2).mean().sqrt()


class Trainer:
    def __init__(self, model: nn.Module):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters())

    def train_step(self, x, y):
        loss = rmse(self.model(x).squeeze(-1), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    @torch.no_grad()
    def evaluate(self, x, y):
        return rmse(%s, y).item()


def main():
    x, y = make_dataset()
    trainer = Trainer(nn.Sequential(nn.Linear(x.shape[1], 16), nn.ReLU(), nn.Linear(16, 1)))
    for _ in range(10):
        trainer.train_step(x, y)
    print(trainer.evaluate(x, y))


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize(("scored", "rows"), [("self.model(x)", [15]), ("self.model(x).squeeze(-1)", []),
                                              ("self.model(x)[:, 0]", [])])
def test_a_helper_called_right_in_one_place_and_wrong_in_another(scored: str, rows: list[int]) -> None:
    """The targets' count is the comprehension's rows: (80,) against the (80, 1) predictions of the evaluation."""
    found = lint(RMSE_HELPER % scored, "SC104").findings
    assert [f.location.row for f in found] == rows
    if rows:
        assert "`pred` is (80, 1) and `target` is (80,)" in found[0].message
