import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class SegTrainer:
    def __init__(self, model: nn.Module, loader: DataLoader, lr: float = 1e-3) -> None:
        self.model = model
        self.loader = loader
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=1, gamma=0.5)

    @staticmethod
    def iou(logits: torch.Tensor, mask: torch.Tensor) -> float:
        pred = (logits.sigmoid() > 0.5).float()
        inter = (pred * mask).sum()
        union = pred.sum() + mask.sum() - inter
        return (inter / union.clamp(min=1)).item()

    def train_one_epoch(self, epoch: int) -> None:
        self.model.train()
        for batch in self.loader:
            logits = self.model(batch["image"])
            loss = self.criterion(logits, batch["mask"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.scheduler.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
