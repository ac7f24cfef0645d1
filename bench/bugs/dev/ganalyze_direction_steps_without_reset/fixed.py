import argparse

import torch
import torch.nn as nn


class OneDirection(nn.Module):
    """Moves a latent code along a single learned direction by alpha."""

    def __init__(self, dim_z):
        super().__init__()
        self.w = nn.Parameter(torch.randn(1, dim_z) * 0.01)

    def forward(self, z, alpha):
        return z + alpha.unsqueeze(1) * self.w


def frozen(module):
    for p in module.parameters():
        p.requires_grad_(False)
    return module.eval()


def make_generator(dim_z, size=16):
    return nn.Sequential(nn.Linear(dim_z, 3 * size * size), nn.Tanh(), nn.Unflatten(1, (3, size, size)))


def make_assessor(size=16):
    return nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * (size // 2) ** 2, 1))


def train_transformer(transformer, generator, assessor, args):
    optimizer = torch.optim.Adam(transformer.parameters(), lr=args.lr)
    criterion = nn.MSELoss()
    for batch_start in range(0, args.num_samples, args.batch_size):
        z = torch.randn(args.batch_size, args.dim_z)
        alpha = (torch.rand(args.batch_size) * 2 - 1) * args.alpha_scale
        with torch.no_grad():
            target = assessor(generator(z)).squeeze(1) + alpha
        z_moved = transformer(z, alpha)
        score = assessor(generator(z_moved)).squeeze(1)
        loss = criterion(score, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if batch_start % (args.batch_size * 4) == 0:
            print(f"[{batch_start}/{args.num_samples}] loss {loss.item():.4f}")
    return transformer


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim-z", type=int, default=32)
    parser.add_argument("--num-samples", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--alpha-scale", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=2e-3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    generator = frozen(make_generator(args.dim_z))
    assessor = frozen(make_assessor())
    train_transformer(OneDirection(args.dim_z), generator, assessor, args)
