"""Keyword spotting on MFCC frames; validation runs every `val_interval` optimizer steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class DSCNN(nn.Module):
    """Depthwise-separable CNN for keyword spotting."""

    def __init__(self, n_classes: int = 12, width: int = 32, dropout: float = 0.2):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, width, (5, 3), padding=(2, 1)), nn.BatchNorm2d(width), nn.ReLU())
        blocks = []
        for _ in range(2):
            blocks += [nn.Conv2d(width, width, 3, padding=1, groups=width), nn.BatchNorm2d(width), nn.ReLU(),
                       nn.Conv2d(width, width, 1), nn.BatchNorm2d(width), nn.ReLU()]
        self.blocks = nn.Sequential(*blocks)
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(width, n_classes)

    def forward(self, mfcc):
        x = self.blocks(self.stem(mfcc.unsqueeze(1)))
        return self.fc(self.drop(x.mean(dim=(2, 3))))


class KWSTrainer:
    def __init__(self, model: DSCNN, train_loader, val_loader, val_interval: int = 5):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.val_interval = val_interval
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.step = 0
        self.best_acc = 0.0

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        correct = total = 0
        for mfcc, label in self.val_loader:
            correct += (self.model(mfcc).argmax(-1) == label).sum().item()
            total += len(label)
        acc = correct / total
        self.best_acc = max(self.best_acc, acc)
        return acc

    def train_epoch(self, epoch: int):
        self.model.train()
        for mfcc, label in self.train_loader:
            loss = F.cross_entropy(self.model(mfcc), label, label_smoothing=0.1)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.step += 1
            if self.step % self.val_interval == 0:
                acc = self.validate()
                print(f"epoch {epoch} step {self.step} loss {loss.item():.3f} val acc {acc:.2f}")


def fake_mfcc(n: int, n_classes: int = 12, frames: int = 49, coeffs: int = 10):
    g = torch.Generator().manual_seed(n)
    labels = torch.randint(0, n_classes, (n,), generator=g)
    x = torch.randn(n, frames, coeffs, generator=g) + labels[:, None, None].float() / n_classes
    return TensorDataset(x, labels)


if __name__ == "__main__":
    train_loader = DataLoader(fake_mfcc(160), batch_size=16, shuffle=True)
    val_loader = DataLoader(fake_mfcc(48), batch_size=16)
    trainer = KWSTrainer(DSCNN(), train_loader, val_loader)
    for epoch in range(2):
        trainer.train_epoch(epoch)
