from typing import Dict

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_dataloaders(rank: int, world_size: int) -> Dict[str, DataLoader]:
    train_set = TensorDataset(torch.randn(48, 16), torch.randint(0, 2, (48,)))
    val_set = TensorDataset(torch.randn(16, 16), torch.randint(0, 2, (16,)))
    train_sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank)
    return {
        "train": DataLoader(train_set, batch_size=6, sampler=train_sampler),
        "val": DataLoader(val_set, batch_size=8),
    }


def run(rank: int = 1, world_size: int = 2, epochs: int = 3) -> None:
    loaders = build_dataloaders(rank, world_size)
    model = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for features, labels in loaders["train"]:
            loss = nn.functional.cross_entropy(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            acc = sum((model(f).argmax(1) == l).float().mean().item() for f, l in loaders["val"]) / len(loaders["val"])
        print(f"epoch {epoch}: val acc {acc:.3f}")


if __name__ == "__main__":
    run()
