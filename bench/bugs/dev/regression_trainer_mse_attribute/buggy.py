import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class HousePriceModel(nn.Module):
    def __init__(self, n_features: int = 8) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class Trainer:
    def __init__(self, model: nn.Module, lr: float = 1e-2) -> None:
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, features: torch.Tensor, prices: torch.Tensor) -> float:
        self.optimizer.zero_grad()
        preds = self.model(features)
        loss = self.criterion(preds, prices)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader: DataLoader, epochs: int = 2) -> None:
        for epoch in range(epochs):
            losses = [self.training_step(x, y) for x, y in loader]
            print(f"epoch {epoch}: mse {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    features = torch.randn(64, 8)
    prices = features @ torch.randn(8) + 0.1 * torch.randn(64)
    loader = DataLoader(TensorDataset(features, prices), batch_size=16, shuffle=True)
    Trainer(HousePriceModel()).fit(loader)
