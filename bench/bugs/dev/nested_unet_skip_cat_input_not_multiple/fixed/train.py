from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import U_Net


@dataclass
class Config:
    image_size: int = 64
    batch_size: int = 2
    epochs: int = 1
    lr: float = 1e-3


class SegmentationData(Dataset):
    def __init__(self, cfg: Config, n: int = 6) -> None:
        self.images = torch.rand(n, 3, cfg.image_size, cfg.image_size)
        self.masks = (torch.rand(n, 1, cfg.image_size, cfg.image_size) > 0.5).float()

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        return self.images[i], self.masks[i]


def dice_loss(logits: torch.Tensor, target: torch.Tensor, eps: float = 1.0) -> torch.Tensor:
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum()
    return 1 - (2 * inter + eps) / (prob.sum() + target.sum() + eps)


def train(cfg: Config) -> None:
    model = U_Net(3, 1)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(SegmentationData(cfg), batch_size=cfg.batch_size, shuffle=True)
    for epoch in range(cfg.epochs):
        for x, y in loader:
            y_pred = model(x)
            loss = F.binary_cross_entropy_with_logits(y_pred, y) + dice_loss(y_pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(Config())
