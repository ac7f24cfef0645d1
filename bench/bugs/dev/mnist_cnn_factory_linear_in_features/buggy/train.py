import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import build_model


def fake_mnist(n: int = 64) -> TensorDataset:
    return TensorDataset(torch.rand(n, 1, 28, 28), torch.randint(0, 10, (n,)))


def train(epochs: int = 1, batch_size: int = 16) -> None:
    cnn = build_model("cnn")
    optimizer = torch.optim.Adam(cnn.parameters(), lr=1e-3)
    loss_func = nn.CrossEntropyLoss()
    loader = DataLoader(fake_mnist(), batch_size=batch_size, shuffle=True)
    for epoch in range(epochs):
        for step, (b_x, b_y) in enumerate(loader):
            output = cnn(b_x)[0]
            loss = loss_func(output, b_y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 2 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
