import torch
from torch import nn


def train(model: nn.Module, optimizer: torch.optim.Optimizer, batches, epochs: int = 2) -> None:
    for epoch in range(epochs):
        optimizer.zero_grad()
        for x, y in batches:
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
batches = [(torch.randn(6, 3), torch.randn(6, 1)) for _ in range(4)]
train(model, torch.optim.SGD(model.parameters(), lr=0.05), batches)
