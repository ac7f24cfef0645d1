import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class HistopathologyNet(nn.Module):
    """Tumour / no tumour on 32x32 patches: one logit per patch."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 8 * 8, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.features(x))


class Trainer:
    def __init__(self, model: nn.Module, lr: float = 1e-3, pos_weight: float = 1.0) -> None:
        self.model = model
        self.criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(pos_weight))
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, loader: DataLoader) -> float:
        self.model.train()
        train_loss = 0.0
        for data, target in loader:
            self.optimizer.zero_grad()
            output = self.model(data)
            loss = self.criterion(output, target)
            loss.backward()
            self.optimizer.step()
            train_loss += loss.item() * data.size(0)
        return train_loss / len(loader.dataset)


if __name__ == "__main__":
    patches = torch.randn(48, 3, 32, 32)
    targets = torch.randint(0, 2, (48,)).float()
    loader = DataLoader(TensorDataset(patches, targets), batch_size=16, shuffle=True)
    trainer = Trainer(HistopathologyNet(), pos_weight=1.5)
    for epoch in range(2):
        print(f"epoch {epoch}: {trainer.train_epoch(loader):.4f}")
