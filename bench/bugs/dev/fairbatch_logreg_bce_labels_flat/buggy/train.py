import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import LogisticRegression, weights_init_normal


def synthetic_fairness_data(n: int = 200, d: int = 3, seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=gen)
    z = (torch.rand(n, generator=gen) > 0.5).float()
    y = ((x[:, 0] + 0.5 * z + 0.1 * torch.randn(n, generator=gen)) > 0).float()
    return x, y, z


def group_losses(model, x, y, z, criterion) -> dict:
    with torch.no_grad():
        out = model(x)
        return {int(g): criterion(out[z == g].squeeze(1), y[z == g]).item() for g in (0, 1)}


def train_model(model, loader, optimizer, criterion, num_epochs: int) -> list:
    losses = []
    for epoch in range(num_epochs):
        for batch_x, batch_y, _ in loader:
            optimizer.zero_grad()
            output = model(batch_x)
            loss = criterion(output, batch_y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses


def main() -> None:
    x, y, z = synthetic_fairness_data()
    model = LogisticRegression(x.size(1), 1)
    model.apply(weights_init_normal)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, betas=(0.5, 0.999))
    criterion = nn.BCELoss()
    loader = DataLoader(TensorDataset(x, y, z), batch_size=32, shuffle=True)
    losses = train_model(model, loader, optimizer, criterion, num_epochs=2)
    print(losses[-1], group_losses(model, x, y, z, criterion))


if __name__ == "__main__":
    main()
