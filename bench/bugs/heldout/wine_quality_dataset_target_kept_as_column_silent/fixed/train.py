import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import FEATURES, WineDataset, synthetic_wines
from model import QualityRegressor


def fit(model: QualityRegressor, train_loader, val_loader, epochs=3, lr=1e-3):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for x, quality in train_loader:
            pred = model(x)
            loss = criterion(pred, quality)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val_mae = sum((model(x) - q).abs().sum().item() for x, q in val_loader) / len(val_loader.dataset)
        print(f"epoch {epoch} train mse {loss.item():.3f} val mae {val_mae:.3f}")


if __name__ == "__main__":
    x, q = synthetic_wines(300)
    train_set = WineDataset(x[:240], q[:240])
    val_set = WineDataset(x[240:], q[240:], stats=(train_set.mean, train_set.std))
    fit(QualityRegressor(len(FEATURES)), DataLoader(train_set, batch_size=32, shuffle=True),
        DataLoader(val_set, batch_size=60))
