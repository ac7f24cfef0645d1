import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from engine import Evaluator, Trainer


def make_split(n):
    pts = torch.randn(n, 3, 16).flatten(1)
    normals = torch.randn(n, 3)
    return DataLoader(TensorDataset(pts, normals), batch_size=4)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(48, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 3))
    trainer = Trainer(model, make_split(16), Evaluator(make_split(8)))
    print(trainer.fit(epochs=2))
