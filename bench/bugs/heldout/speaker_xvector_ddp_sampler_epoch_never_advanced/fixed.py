"""x-vector speaker embedding training, written for torchrun (one process per GPU; here a single rank)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class Utterances(Dataset):
    def __init__(self, n_speakers=6, per_speaker=8, frames=60, feats=24):
        g = torch.Generator().manual_seed(0)
        centers = torch.randn(n_speakers, feats, generator=g)
        self.labels = torch.arange(n_speakers).repeat_interleave(per_speaker)
        self.feats = centers[self.labels][:, None, :] + torch.randn(len(self.labels), frames, feats, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.feats[i], self.labels[i]


class XVector(nn.Module):
    def __init__(self, feats=24, channels=64, emb=32, n_speakers=6):
        super().__init__()
        self.tdnn = nn.Sequential(
            nn.Conv1d(feats, channels, 5, dilation=1), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, 3, dilation=2), nn.ReLU(), nn.BatchNorm1d(channels),
        )
        self.segment = nn.Linear(2 * channels, emb)
        self.classifier = nn.Linear(emb, n_speakers)

    def forward(self, x):
        h = self.tdnn(x.transpose(1, 2))
        stats = torch.cat([h.mean(-1), h.std(-1)], dim=-1)
        return self.classifier(F.relu(self.segment(stats)))


def build_loader(dataset, batch_size, world_size, rank):
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=1234)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=True), sampler


def main():
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    rank = int(os.environ.get("RANK", 0))
    loader, sampler = build_loader(Utterances(), batch_size=8, world_size=world_size, rank=rank)
    model = XVector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for epoch in range(3):
        model.train()
        sampler.set_epoch(epoch)
        total = 0.0
        for feats, labels in loader:
            loss = F.cross_entropy(model(feats), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        if rank == 0:
            print(f"epoch {epoch} loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
