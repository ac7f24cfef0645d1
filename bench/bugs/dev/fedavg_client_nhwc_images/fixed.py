import copy

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class CifarCNN(nn.Module):
    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 8 * 8, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))


def client_loaders(images: np.ndarray, labels: np.ndarray, n_clients: int, batch_size: int) -> list:
    """Split a numpy CIFAR array (N, 32, 32, 3) uint8 across clients, iid."""
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float() / 255.0
    y = torch.from_numpy(labels).long()
    shards = torch.randperm(len(x)).chunk(n_clients)
    return [DataLoader(TensorDataset(x[idx], y[idx]), batch_size=batch_size, shuffle=True) for idx in shards]


def local_update(model: nn.Module, loader: DataLoader, epochs: int = 1, lr: float = 0.01) -> dict:
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            out = model(x)
            loss = F.cross_entropy(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return model.state_dict()


def fed_avg(states: list) -> dict:
    avg = copy.deepcopy(states[0])
    for key in avg:
        avg[key] = torch.stack([s[key].float() for s in states]).mean(0).to(avg[key].dtype)
    return avg


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(64, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, size=64)
    loaders = client_loaders(images, labels, n_clients=4, batch_size=8)
    global_model = CifarCNN()
    for rnd in range(2):
        states = [local_update(copy.deepcopy(global_model), loader) for loader in loaders]
        global_model.load_state_dict(fed_avg(states))
        print(f"round {rnd} done")
