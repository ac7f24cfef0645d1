import argparse

import torch
import torch.nn.functional as F

from sfm.geometry import depth_warping
from sfm.model import DepthNet


def parse_args():
    p = argparse.ArgumentParser(description="self-supervised depth from endoscopic video")
    p.add_argument("--height", type=int, default=24)
    p.add_argument("--width", type=int, default=32)
    p.add_argument("--batch_size", type=int, default=2)
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-4)
    return p.parse_args([])


def synthetic_pair(args, generator):
    src = torch.rand(args.batch_size, 3, args.height, args.width, generator=generator)
    tgt = torch.rand(args.batch_size, 3, args.height, args.width, generator=generator)
    intr = torch.tensor([[20.0, 0.0, args.width / 2], [0.0, 20.0, args.height / 2], [0.0, 0.0, 1.0]])
    intrinsics = intr.unsqueeze(0).repeat(args.batch_size, 1, 1)
    rotation = torch.eye(3).unsqueeze(0).repeat(args.batch_size, 1, 1)
    translation = 0.01 * torch.randn(args.batch_size, 3, generator=generator)
    return src, tgt, intrinsics, rotation, translation


def main():
    args = parse_args()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = DepthNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    for step in range(args.iterations):
        src, tgt, intrinsics, rotation, translation = synthetic_pair(args, g)
        depth = net(src)
        grid = depth_warping(depth, intrinsics, rotation, translation)
        warped = F.grid_sample(tgt, grid, align_corners=True)
        loss = (warped - src).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} photometric loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
