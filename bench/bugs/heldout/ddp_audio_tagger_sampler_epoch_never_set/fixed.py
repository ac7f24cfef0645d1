"""Audio tagging with a DistributedSampler (world size from the environment, 1 when run alone)."""
import logging
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

log = logging.getLogger("tagger")


class ClipDataset(Dataset):
    def __init__(self, n_clips=24, n_mels=16, frames=20, n_tags=5):
        g = torch.Generator().manual_seed(0)
        self.spec = torch.randn(n_clips, n_mels, frames, generator=g)
        self.tags = (torch.rand(n_clips, n_tags, generator=g) > 0.7).float()

    def __len__(self):
        return len(self.spec)

    def __getitem__(self, i):
        return self.spec[i], self.tags[i]


class Tagger(nn.Module):
    def __init__(self, n_mels=16, n_tags=5):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool1d(1))
        self.fc = nn.Linear(32, n_tags)

    def forward(self, x):
        return self.fc(self.conv(x).squeeze(-1))


def build_loader(dataset, batch_size, world_size, rank):
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=17)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=True), sampler


def main():
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    rank = int(os.environ.get("RANK", 0))
    torch.manual_seed(0)
    dataset = ClipDataset()
    loader, sampler = build_loader(dataset, batch_size=6, world_size=world_size, rank=rank)
    model = Tagger()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(3):
        sampler.set_epoch(epoch)
        model.train()
        for spec, tags in loader:
            opt.zero_grad()
            loss = criterion(model(spec), tags)
            loss.backward()
            opt.step()
        if rank == 0:
            log.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
