import argparse
import logging

import torch
from torch import optim
from torch.nn import functional as F

from data import MultiResolutionDataset, make_loader
from model import Discriminator, Generator

logger = logging.getLogger("train")


def requires_grad(model, flag=True):
    for p in model.parameters():
        p.requires_grad = flag


def d_logistic_loss(real_pred, fake_pred):
    return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()


def g_nonsaturating_loss(fake_pred):
    return F.softplus(-fake_pred).mean()


def train_epoch(args, loader, generator, discriminator, g_optim, d_optim, epoch):
    d_total, g_total, seen = 0.0, 0.0, 0
    for step, real_img in enumerate(loader):
        batch = real_img.size(0)

        requires_grad(generator, False)
        requires_grad(discriminator, True)
        fake_img = generator(torch.randn(batch, args.latent))
        d_loss = d_logistic_loss(discriminator(real_img), discriminator(fake_img))
        discriminator.zero_grad()
        d_loss.backward()
        d_optim.step()

        requires_grad(generator, True)
        requires_grad(discriminator, False)
        fake_img = generator(torch.randn(batch, args.latent))
        g_loss = g_nonsaturating_loss(discriminator(fake_img))
        generator.zero_grad()
        g_loss.backward()
        g_optim.step()

        d_total += d_loss.item()
        g_total += g_loss.item()
        seen += 1
        if step % args.log_every == 0:
            logger.debug("epoch %d step %d d %.4f g %.4f", epoch, step, d_loss.item(), g_loss.item())
    return d_total / max(seen, 1), g_total / max(seen, 1)


def main():
    parser = argparse.ArgumentParser(description="StyleGAN-style trainer")
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--latent", type=int, default=32)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--log_every", type=int, default=10)
    parser.add_argument("--local_rank", type=int, default=0)
    parser.add_argument("--world_size", type=int, default=1)
    args = parser.parse_args()

    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    generator = Generator(args.size, args.latent)
    discriminator = Discriminator(args.size)
    g_optim = optim.Adam(generator.parameters(), lr=args.lr, betas=(0.0, 0.99))
    d_optim = optim.Adam(discriminator.parameters(), lr=args.lr, betas=(0.0, 0.99))

    dataset = MultiResolutionDataset(length=48, resolution=args.size)
    loader = make_loader(dataset, args.batch, rank=args.local_rank, world_size=args.world_size)

    for epoch in range(args.epochs):
        d_loss, g_loss = train_epoch(args, loader, generator, discriminator, g_optim, d_optim, epoch)
        logger.info("epoch %d: d %.4f g %.4f", epoch, d_loss, g_loss)


if __name__ == "__main__":
    main()
