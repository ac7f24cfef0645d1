import argparse
import logging

import torch

from diffusion import GaussianDiffusion
from ema import EMA
from model import Denoiser
from sample import ancestral_sample

log = logging.getLogger("ddpm")


def two_moons(n, generator):
    theta = torch.rand(n, generator=generator) * torch.pi
    upper = torch.rand(n, generator=generator) > 0.5
    x = torch.where(upper, torch.cos(theta), 1 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2, generator=generator)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--sample-every", type=int, default=3)
    args = parser.parse_args([])

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = Denoiser()
    ema = EMA(model, beta=0.99)
    diffusion = GaussianDiffusion(timesteps=20)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)

    model.train()
    for step in range(1, args.steps + 1):
        loss = diffusion.training_loss(model, two_moons(args.batch_size, gen))
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update()

        if step % args.sample_every == 0:
            samples = ancestral_sample(ema.forward_eval, diffusion, 64, generator=gen)
            log.info("step %d loss %.4f sample mean %s", step, loss.item(), samples.mean(0).tolist())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
