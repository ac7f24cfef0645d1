import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ACCUMULATION_STEPS = 4


def make_model():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 8 * 8, 10))


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 1, 16, 16)
    y = torch.randint(0, 10, (64,))
    loader = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True)
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for i, (xb, yb) in enumerate(loader):
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb) / ACCUMULATION_STEPS
            loss.backward()
            if (i + 1) % ACCUMULATION_STEPS == 0:
                opt.step()
        print(f"epoch {epoch}: last loss {loss.item() * ACCUMULATION_STEPS:.3f}")


if __name__ == "__main__":
    main()
