import torch
import torch.nn as nn
from torch.utils.data import TensorDataset

from loaders import get_loaders
from runner import SupervisedRunner


def main():
    torch.manual_seed(42)
    x = torch.randn(120, 10)
    y = (x[:, :3].sum(1) > 0).long()
    loaders = get_loaders(TensorDataset(x[:96], y[:96]), TensorDataset(x[96:], y[96:]), batch_size=16)
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
    runner = SupervisedRunner(model, nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters(), lr=1e-2))
    runner.train(loaders, num_epochs=4)


if __name__ == "__main__":
    main()
