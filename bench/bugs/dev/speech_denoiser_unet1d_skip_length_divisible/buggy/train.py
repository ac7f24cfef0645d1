import argparse
import math

import torch
import torch.nn.functional as F

from unet1d import WaveUNet


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segment", type=int, default=1024, help="samples per training segment (multiple of 2**depth)")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--steps", type=int, default=3)
    return ap.parse_args([])


def noisy_pairs(batch: int, length: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    t = torch.arange(length) / 8000.0
    freqs = 200 + 300 * torch.rand(batch, 1, generator=gen)
    clean = 0.5 * torch.sin(2 * math.pi * freqs * t)[:, None]
    noise = 0.1 * torch.randn(batch, 1, length, generator=gen)
    return clean + noise, clean


def main() -> None:
    args = parse()
    if args.segment % 2 ** args.depth:
        raise SystemExit("--segment must be a multiple of 2**depth")
    gen = torch.Generator().manual_seed(4)
    torch.manual_seed(4)
    model = WaveUNet(depth=args.depth)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    for step in range(args.steps):
        noisy, clean = noisy_pairs(args.batch, args.segment, gen)
        enhanced = model(noisy)
        loss = F.l1_loss(enhanced, clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} l1 {loss.item():.4f}")


if __name__ == "__main__":
    main()
