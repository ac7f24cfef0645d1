"""Face verification embeddings trained with a batch-hard triplet loss weighted by pair difficulty."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value: float, n: int = 1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class EmbeddingNet(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, dim)

    def forward(self, x):
        return F.normalize(self.fc(self.backbone(x).flatten(1)), dim=-1)


class TripletFaces(Dataset):
    def __init__(self, n_ids: int = 8, per_id: int = 6):
        g = torch.Generator().manual_seed(0)
        protos = torch.randn(n_ids, 3, 24, 24, generator=g)
        self.images = protos.repeat_interleave(per_id, 0) + 0.3 * torch.randn(n_ids * per_id, 3, 24, 24, generator=g)
        self.ids = torch.arange(n_ids).repeat_interleave(per_id)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        same = (self.ids == self.ids[i]).nonzero().flatten()
        other = (self.ids != self.ids[i]).nonzero().flatten()
        return self.images[i], self.images[same[(i + 1) % len(same)]], self.images[other[i % len(other)]]


def train_epoch(model, loader, optimizer, criterion, meter):
    model.train()
    for anchor, positive, negative in loader:
        a, p, n = model(anchor), model(positive), model(negative)
        per_triplet = criterion(a, p, n)
        weights = torch.softmax(per_triplet.detach(), dim=0) * len(per_triplet)
        optimizer.zero_grad()
        (weights * per_triplet).mean().backward()
        optimizer.step()
        meter.update(per_triplet.mean().item(), len(anchor))


if __name__ == "__main__":
    model = EmbeddingNet()
    criterion = nn.TripletMarginLoss(margin=0.3, reduction="none")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(TripletFaces(), batch_size=12, shuffle=True)
    for epoch in range(2):
        meter = AverageMeter()
        train_epoch(model, loader, optimizer, criterion, meter)
        print(f"epoch {epoch} triplet loss {meter.avg:.4f}")
