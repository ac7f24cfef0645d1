import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train_one_epoch(model: nn.Module, loader: DataLoader, optimizer: torch.optim.Optimizer, device: torch.device) -> float:
    model.train()
    total = 0.0
    for x, y in loader:
        x = x.to(device)
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * x.size(0)
    return total / len(loader.dataset)


def main() -> None:
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    data = TensorDataset(torch.randn(80, 30), torch.randint(0, 5, (80,)))
    loader = DataLoader(data, batch_size=20, shuffle=True)
    for epoch in range(2):
        print(epoch, train_one_epoch(model, loader, optimizer, device))


if __name__ == "__main__":
    main()
