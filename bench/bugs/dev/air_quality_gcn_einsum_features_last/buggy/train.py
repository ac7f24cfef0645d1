import torch
import torch.nn as nn

from data import N_FEATURES, distance_adjacency, get_loaders
from model import StationForecaster


def evaluate(model, loader, adj):
    model.eval()
    err, n = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            err += (model(x, adj) - y).abs().sum().item()
            n += y.numel()
    return err / n


def main():
    torch.manual_seed(0)
    train_loader, val_loader = get_loaders()
    adj = distance_adjacency()
    model = StationForecaster(N_FEATURES)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.MSELoss()
    for epoch in range(2):
        model.train()
        for x, y in train_loader:
            pred = model(x, adj)
            loss = loss_fn(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: val mae {evaluate(model, val_loader, adj):.3f}")


if __name__ == "__main__":
    main()
