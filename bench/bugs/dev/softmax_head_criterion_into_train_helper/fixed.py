import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ActivityNet(nn.Module):
    def __init__(self, n_features=36, n_classes=6):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def train(model, loader, criterion, optimizer, epochs=2):
    for epoch in range(epochs):
        model.train()
        for features, labels in loader:
            outputs = model(features)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    data = TensorDataset(torch.randn(120, 36), torch.randint(0, 6, (120,)))
    model = ActivityNet()
    train(model, DataLoader(data, batch_size=30, shuffle=True), nn.CrossEntropyLoss(),
          torch.optim.Adam(model.parameters(), lr=1e-3))
