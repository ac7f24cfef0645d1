import argparse

import torch
import torch.nn.functional as F
from torch.utils import data

from model import TinyDiscriminator, TinyGenerator


class ImageFolderStub(data.Dataset):
    def __init__(self, n=16, size=8):
        self.images = torch.rand(n, 3, size, size) * 2 - 1

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index]


def data_sampler(dataset, shuffle, distributed, world_size=1, rank=0):
    if distributed:
        return data.distributed.DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=shuffle)
    if shuffle:
        return data.RandomSampler(dataset)
    return data.SequentialSampler(dataset)


def make_loader(dataset, args):
    sampler = data_sampler(dataset, shuffle=True, distributed=args.distributed)
    return data.DataLoader(dataset, batch_size=args.batch, sampler=sampler, drop_last=True)


def train(args, loader, generator, discriminator, g_optim, d_optim):
    for epoch in range(args.epochs):
        for real_img in loader:
            noise = torch.randn(real_img.size(0), 8)
            fake_img = generator(noise)
            d_loss = F.softplus(discriminator(fake_img.detach())).mean() + F.softplus(-discriminator(real_img)).mean()
            d_optim.zero_grad()
            d_loss.backward()
            d_optim.step()

            g_loss = F.softplus(-discriminator(generator(noise))).mean()
            g_optim.zero_grad()
            g_loss.backward()
            g_optim.step()
        print(f"epoch {epoch}: d {d_loss.item():.3f} g {g_loss.item():.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--distributed", action="store_true")
    args = parser.parse_args(["--distributed"])
    generator, discriminator = TinyGenerator(), TinyDiscriminator()
    g_optim = torch.optim.Adam(generator.parameters(), lr=2e-3, betas=(0.0, 0.99))
    d_optim = torch.optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.0, 0.99))
    train(args, make_loader(ImageFolderStub(), args), generator, discriminator, g_optim, d_optim)
