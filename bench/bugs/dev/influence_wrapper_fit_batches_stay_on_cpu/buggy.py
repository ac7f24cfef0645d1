from typing import Optional

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TorchModel:
    """A thin fit/predict wrapper, as data-valuation libraries use around a torch network."""

    def __init__(self, model: nn.Module, loss: nn.Module, lr: float = 1e-2, device: Optional[str] = None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model
        self.loss = loss
        self.lr = lr

    def fit(self, loader: DataLoader, epochs: int = 3) -> list:
        self.model.to(self.device)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        history = []
        for _ in range(epochs):
            epoch_loss = 0.0
            for x, y in loader:
                pred = self.model(x)
                batch_loss = self.loss(pred, y)
                optimizer.zero_grad()
                batch_loss.backward()
                optimizer.step()
                epoch_loss += batch_loss.item()
            history.append(epoch_loss / len(loader))
        return history

    @torch.no_grad()
    def score(self, x: torch.Tensor, y: torch.Tensor) -> float:
        self.model.eval()
        pred = self.model(x.to(self.device))
        return self.loss(pred, y.to(self.device)).item()


def make_mlp(in_dim: int, hidden: int, out_dim: int) -> nn.Module:
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, out_dim))


if __name__ == "__main__":
    x = torch.randn(64, 5)
    y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
    wrapper = TorchModel(make_mlp(5, 16, 1), nn.MSELoss())
    print(wrapper.fit(loader))
    print("test mse", wrapper.score(x[:16], y[:16]))
