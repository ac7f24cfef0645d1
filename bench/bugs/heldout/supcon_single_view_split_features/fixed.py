import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TwoCropTransform:
    """Create two crops of the same image."""

    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        return [self.transform(x), self.transform(x)]


def augment(img):
    flipped = img.flip(-1) if torch.rand(()) < 0.5 else img
    return (flipped + 0.05 * torch.randn_like(flipped)).clamp(0, 1)


class CifarLike(Dataset):
    def __init__(self, n=32, transform=None):
        self.images = torch.rand(n, 3, 16, 16)
        self.labels = torch.randint(0, 4, (n,))
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i]
        return (self.transform(img) if self.transform else img), self.labels[i]


class SupConResNet(nn.Module):
    def __init__(self, feat_dim=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, feat_dim))

    def forward(self, x):
        return F.normalize(self.head(self.encoder(x)), dim=1)


def supcon_loss(features, labels, temperature=0.07):
    # features: (bsz, n_views, dim)
    bsz, n_views = features.shape[:2]
    contrast = torch.cat(torch.unbind(features, dim=1), dim=0)
    logits = contrast @ contrast.t() / temperature
    labels = labels.repeat(n_views)
    self_mask = torch.eye(bsz * n_views, dtype=torch.bool)
    pos = (labels[:, None] == labels[None, :]) & ~self_mask
    log_prob = logits - torch.logsumexp(logits.masked_fill(self_mask, float("-inf")), dim=1, keepdim=True)
    return -(log_prob * pos).sum(1).div(pos.sum(1).clamp(min=1)).mean()


def train(loader, model, optimizer, epoch):
    model.train()
    for idx, (images, labels) in enumerate(loader):
        if isinstance(images, list):
            images = torch.cat([images[0], images[1]], dim=0)
        bsz = labels.shape[0]
        features = model(images)
        f1, f2 = torch.split(features, [bsz, bsz], dim=0)
        features = torch.cat([f1.unsqueeze(1), f2.unsqueeze(1)], dim=1)
        loss = supcon_loss(features, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")


def main():
    train_dataset = CifarLike(transform=TwoCropTransform(augment))
    loader = DataLoader(train_dataset, batch_size=8, shuffle=True, drop_last=True)
    model = SupConResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        train(loader, model, optimizer, epoch)


if __name__ == "__main__":
    main()
