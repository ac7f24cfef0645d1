import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import StoreWeekDataset
from model import DemandMLP


def recency_weights(week: torch.Tensor, half_life: float = 26.0) -> torch.Tensor:
    """Recent weeks count more: weight halves every `half_life` weeks back from the latest week."""
    age = week.max() - week
    w = 0.5 ** (age / half_life)
    return w / w.mean()


def weighted_huber(pred, target, weights, delta: float = 1.0):
    per_row = F.huber_loss(pred, target, reduction="none", delta=delta)
    return (weights * per_row).mean()


def main():
    loader = DataLoader(StoreWeekDataset(), batch_size=32, shuffle=True)
    model = DemandMLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        total = 0.0
        for lags, target, week in loader:
            pred = model(lags)
            loss = weighted_huber(pred, target, recency_weights(week))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} weighted huber {total / len(loader):.4f}")


if __name__ == "__main__":
    main()
