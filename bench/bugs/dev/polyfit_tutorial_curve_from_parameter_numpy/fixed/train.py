import argparse

import numpy as np
import torch
import torch.nn.functional as F

from data import noisy_sine
from models import Polynomial
from report import write_snapshot


def parse():
    p = argparse.ArgumentParser(description="fit a cubic to a noisy sine with gradient descent")
    p.add_argument("--degree", type=int, default=3)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--snapshot-every", type=int, default=20)
    p.add_argument("--out", default="snapshots")
    return p.parse_args([])


def main():
    args = parse()
    torch.manual_seed(0)
    x, y = noisy_sine()
    model = Polynomial(args.degree)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    powers = model.features(x)

    for step in range(1, args.steps + 1):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()

        if step % args.snapshot_every == 0:
            fitted = powers @ model.coeffs.detach()
            path = write_snapshot(args.out, step, x.numpy(), y.numpy(), fitted.numpy())
            print(f"step {step}: loss {loss.item():.4f}  coeffs {np.round(model.coeffs.tolist(), 3)} -> {path}")


if __name__ == "__main__":
    main()
