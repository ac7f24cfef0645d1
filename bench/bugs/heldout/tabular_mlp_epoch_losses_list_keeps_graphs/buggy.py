import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_model(n_in: int, hidden: int = 64) -> nn.Module:
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def main():
    torch.manual_seed(0)
    x = torch.randn(256, 10)
    y = (x[:, :3].sum(dim=1, keepdim=True) > 0).float()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = build_model(10)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    history = []
    for epoch in range(3):
        epoch_losses = []
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
            epoch_losses.append(loss)
        mean_loss = torch.stack(epoch_losses).mean().item()
        history.append(mean_loss)
        print(f"epoch {epoch}: loss {mean_loss:.4f}")
    return history


if __name__ == "__main__":
    main()
