import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class ImageFolderLike(Dataset):
    def __init__(self, n=24, size=16):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i]


class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=32, dim=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, dim, 4, stride=2, padding=1), nn.ReLU(), nn.Conv2d(dim, num_tokens, 1))
        self.codebook = nn.Embedding(num_tokens, dim)
        self.decoder = nn.Sequential(nn.ConvTranspose2d(dim, dim, 4, stride=2, padding=1), nn.ReLU(), nn.Conv2d(dim, 3, 1))

    def forward(self, img, temp=0.9):
        logits = self.encoder(img)
        soft_one_hot = F.gumbel_softmax(logits, tau=temp, dim=1)
        sampled = torch.einsum("bnhw,nd->bdhw", soft_one_hot, self.codebook.weight)
        return F.mse_loss(self.decoder(sampled), img)


class Backend:
    """Single-process stand-in for the distributed backend wrapper (world of one)."""

    def __init__(self, world_size=1, rank=0):
        self.world_size, self.rank = world_size, rank

    def get_world_size(self):
        return self.world_size

    def get_rank(self):
        return self.rank


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    args = parser.parse_args([])
    distr_backend = Backend()
    ds = ImageFolderLike()
    data_sampler = DistributedSampler(ds, num_replicas=distr_backend.get_world_size(), rank=distr_backend.get_rank())
    dl = DataLoader(ds, args.batch_size, shuffle=not data_sampler, sampler=data_sampler)
    vae = DiscreteVAE()
    opt = torch.optim.Adam(vae.parameters(), lr=args.learning_rate)
    for epoch in range(args.epochs):
        if data_sampler:
            data_sampler.set_epoch(epoch)
        for i, images in enumerate(dl):
            loss = vae(images)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
