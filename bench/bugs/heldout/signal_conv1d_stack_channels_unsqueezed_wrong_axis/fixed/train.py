import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from net import NeuralNet

config = [10, 64, 64, 64]
batch_size = 4
epochs = 2
learning_rate = 0.001


def loader(train_data, batch_size):
    inps = torch.tensor(train_data[0], dtype=torch.float32)
    tgts = torch.tensor(train_data[1], dtype=torch.float32)
    inps = torch.unsqueeze(inps, 2)
    dataset = TensorDataset(inps, tgts)
    return DataLoader(dataset, batch_size=batch_size, shuffle=True)


def make_signals(n, rng):
    """n signals of 10 samples each, and 3 regression targets per signal."""
    x = rng.normal(size=(n, 10))
    y = np.stack([x.mean(1), x.std(1), x.max(1)], axis=1)
    return x, y


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    train_dataloader = loader(make_signals(40, rng), batch_size)
    model = NeuralNet(config)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    criterion = nn.MSELoss()
    for epoch in range(epochs):
        total = 0.0
        for signals, targets in train_dataloader:
            optimizer.zero_grad()
            outputs = model(signals)
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(train_dataloader):.4f}")


if __name__ == "__main__":
    main()
