"""A list holding a tensor of each batch of a loader whose last batch is short, stacked: the full batches' tensors
and the last one's differ ("stack expects each tensor to be equal size, but got [32, 64] at entry 0 and [4, 64] at
entry 3", checked in torch 2.13). Each project keeps features of every batch in a helper of another module, the way
prototype, retrieval and evaluation code gathers them; concatenated along the batch, they stay clean."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project, project_findings

# an encoder's embeddings of every batch gathered by a helper of `utils/`, the rows and the batch size the
# script's options on their defaults (100 in batches of 32: 32, 32, 32 and 4)
_HELPER = '''
import torch


@torch.no_grad()
def embed_all(model, loader):
    model.eval()
    feats, labels = [], []
    for images, targets in loader:
        feats.append(model(images))
        labels.append(targets)
    return torch.%s(feats), torch.cat(labels)
'''
_TRAIN = '''
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from utils.features import embed_all


class Encoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Linear(16, dim))

    def forward(self, x):
        return self.body(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    data = TensorDataset(torch.randn(args.samples, 3, 16, 16), torch.randint(0, 5, (args.samples,)))
    loader = DataLoader(data, batch_size=args.batch_size%s)
    feats, labels = embed_all(Encoder(64), loader)
    prototypes = torch.stack([feats[labels == c].mean(0) for c in range(5)])


if __name__ == "__main__":
    main()
'''


def _project(join: str, loader: str = "") -> dict[str, str]:
    return {"utils/__init__.py": "", "utils/features.py": _HELPER % join, "train.py": _TRAIN % loader}


def test_features_of_every_batch_stacked_when_the_last_batch_is_short(tmp_path: Path) -> None:
    found = project_findings(tmp_path, _project("stack"), "SC105")
    assert [(name, finding.location.row) for name, finding in found] == [("train.py", 28)]
    assert "(batch, 64) of the full batches, (4, 64) of the last" in found[0][1].message


def test_features_concatenated_or_of_full_batches_only_stay_clean(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _project("cat"), "SC105") == []
    assert lint_project(tmp_path, _project("stack", ", drop_last=True"), "SC105") == []
    # 100 rows in batches of 25: every batch full
    assert lint_project(tmp_path, {"train.py": (_TRAIN % "").replace("default=32", "default=25")}, "SC105") == []
