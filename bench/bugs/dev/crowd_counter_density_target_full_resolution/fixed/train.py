import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import CrowdScenes
from model import DensityNet


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="train a density-map crowd counter")
    p.add_argument("--crop", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--lr", type=float, default=1e-4)
    return p.parse_args([])


def evaluate_counts(pred: torch.Tensor, density: torch.Tensor) -> float:
    return (pred.sum(dim=(1, 2, 3)) - density.sum(dim=(1, 2, 3))).abs().mean().item()


def main() -> None:
    args = parse_args()
    torch.manual_seed(0)
    loader = DataLoader(CrowdScenes(8, args.crop), batch_size=args.batch_size, shuffle=True)
    net = DensityNet()
    optim = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.95)
    for epoch in range(args.epochs):
        for images, density in loader:
            pred = net(images)
            loss = F.mse_loss(pred, density, reduction="sum")
            optim.zero_grad()
            loss.backward()
            optim.step()
            print(f"epoch {epoch} loss {loss.item():.4f} mae {evaluate_counts(pred.detach(), density):.2f}")


if __name__ == "__main__":
    main()
