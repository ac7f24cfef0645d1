import torch
from torch import nn


def train_epoch(model: nn.Module, batches, optimizer: torch.optim.Optimizer, scheduler) -> float:
    model.train()
    scheduler.step()
    for x, y in batches:
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=5)
batches = [(torch.randn(10, 4), torch.randn(10, 1)) for _ in range(4)]
for epoch in range(3):
    print(epoch, train_epoch(model, batches, optimizer, scheduler))
