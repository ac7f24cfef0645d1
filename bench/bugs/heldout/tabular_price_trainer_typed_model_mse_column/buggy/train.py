import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import HousingTable
from model import PriceRegressor


def train_step(model: PriceRegressor, xb: torch.Tensor, yb: torch.Tensor, opt: torch.optim.Optimizer) -> float:
    model.train()
    pred = model(xb)
    loss = F.mse_loss(pred, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def fit(model: PriceRegressor, loader: DataLoader, epochs: int = 3, lr: float = 1e-2) -> list[float]:
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    for _ in range(epochs):
        losses = [train_step(model, xb, yb, opt) for xb, yb in loader]
        history.append(sum(losses) / len(losses))
    return history


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(HousingTable(), batch_size=16, shuffle=True)
    print(fit(PriceRegressor(), loader))
