import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def run_epoch(net: nn.Module, optim: torch.optim.Optimizer, loader: DataLoader, log_every: int = 4) -> None:
    net.train()
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        optim.step()
        if i % log_every == 0:
            print(f"batch {i}: {loss.item():.4f}")
            optim.zero_grad()


net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,))), batch_size=8)
run_epoch(net, torch.optim.Adam(net.parameters(), lr=1e-3), loader)
