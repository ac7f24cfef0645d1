import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from lincoln import HousePriceMLP, PyTorchTrainer


def boston_like(n, seed):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 13, generator=g)
    y = X[:, :3].sum(1) + 0.1 * torch.randn(n, generator=g)
    return X, y


if __name__ == "__main__":
    torch.manual_seed(20190325)
    X_train, y_train = boston_like(64, 0)
    X_test, y_test = boston_like(16, 1)
    model = HousePriceMLP()
    trainer = PyTorchTrainer(model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9), nn.MSELoss())
    loader = DataLoader(TensorDataset(X_train, y_train), batch_size=16, shuffle=True)
    trainer.fit(loader, (X_test, y_test), epochs=3, eval_every=1)
