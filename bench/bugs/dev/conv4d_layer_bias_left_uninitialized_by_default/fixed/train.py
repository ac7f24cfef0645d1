import argparse
import logging

import torch
import torch.nn.functional as F

from model import LightFieldDenoiser

log = logging.getLogger("lf")


def synthetic_light_field(n, ang, size, generator):
    base = torch.rand(n, 1, 1, 1, size, size, generator=generator)
    shifts = torch.arange(ang, dtype=torch.float32) - ang // 2
    lf = base.expand(n, 1, ang, ang, size, size).clone()
    lf += 0.02 * (shifts[:, None, None, None] + shifts[None, :, None, None])
    return lf


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--sigma", type=float, default=0.1)
    args = parser.parse_args([])
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = LightFieldDenoiser()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        clean = synthetic_light_field(2, 3, 8, gen)
        noisy = clean + args.sigma * torch.randn(clean.shape, generator=gen)
        loss = F.mse_loss(model(noisy), clean)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.info("step %d loss %.5f", step, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
