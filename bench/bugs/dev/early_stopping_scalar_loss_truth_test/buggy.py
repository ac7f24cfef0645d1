import copy

import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience: int = 3, min_delta: float = 0.0) -> None:
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.best_state = None
        self.bad_epochs = 0

    def step(self, val_loss: torch.Tensor, model: nn.Module) -> bool:
        if torch.isnan(val_loss):
            return True
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.best_state = copy.deepcopy(model.state_dict())
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


def evaluate(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    model.eval()
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y)


def fit(epochs: int = 5) -> None:
    torch.manual_seed(0)
    x_train, x_val = torch.randn(64, 4), torch.randn(16, 4)
    w = torch.randn(4, 1)
    y_train, y_val = x_train @ w, x_val @ w
    model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    stopper = EarlyStopping(patience=2)
    for epoch in range(epochs):
        model.train()
        loss = nn.functional.mse_loss(model(x_train), y_train)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        val_loss = evaluate(model, x_val, y_val)
        print(f"epoch {epoch}: train {loss.item():.4f} val {val_loss.item():.4f}")
        if stopper.step(val_loss, model):
            break
    model.load_state_dict(stopper.best_state)


if __name__ == "__main__":
    fit()
