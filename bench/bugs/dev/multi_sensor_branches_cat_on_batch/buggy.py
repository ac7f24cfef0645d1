import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

N_SENSORS = 6
WINDOW = 50
N_CLASSES = 5


class SensorWindows(Dataset):
    """One window of readings per sensor (accelerometers, gyroscopes, ...) and the activity label."""

    def __init__(self, n: int) -> None:
        self.signals = [torch.randn(n, 1, WINDOW) for _ in range(N_SENSORS)]
        self.labels = torch.randint(0, N_CLASSES, (n,))

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        return tuple(s[i] for s in self.signals), self.labels[i]


class Branch(nn.Module):
    def __init__(self, out_dim: int = 32) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 16, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(16, out_dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class MultiSensorNet(nn.Module):
    def __init__(self, dim: int = 32) -> None:
        super().__init__()
        self.branches = nn.ModuleList(Branch(dim) for _ in range(N_SENSORS))
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(dim, N_CLASSES))

    def forward(self, *signals: torch.Tensor) -> torch.Tensor:
        feats = [branch(s) for branch, s in zip(self.branches, signals)]
        fused = torch.cat(feats)
        return self.head(fused)


def train(model: nn.Module, loader: DataLoader, epochs: int = 1) -> None:
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for signals, y in loader:
            y_pred = model(*signals)
            loss = loss_fn(y_pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    train(MultiSensorNet(), DataLoader(SensorWindows(40), batch_size=10, shuffle=True))
