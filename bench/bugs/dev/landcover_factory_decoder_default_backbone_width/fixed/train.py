import argparse

import torch
import torch.nn as nn

from models import build_segmenter


def get_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser("land-cover segmentation")
    ap.add_argument("--backbone", default="lite", help="lite fits on the edge device")
    ap.add_argument("--classes", type=int, default=6)
    ap.add_argument("--tile", type=int, default=48)
    ap.add_argument("--iters", type=int, default=3)
    return ap.parse_args([])


def random_tiles(n: int, size: int, classes: int) -> tuple[torch.Tensor, torch.Tensor]:
    rgbn = torch.rand(n, 4, size, size)
    mask = torch.randint(0, classes, (n, size, size))
    return rgbn, mask


def main() -> None:
    args = get_args()
    torch.manual_seed(0)
    net = build_segmenter(args.backbone, num_classes=args.classes)
    criterion = nn.CrossEntropyLoss(ignore_index=255)
    optimizer = torch.optim.AdamW(net.parameters(), lr=6e-4)
    for it in range(args.iters):
        tiles, masks = random_tiles(4, args.tile, args.classes)
        out = net(tiles)
        loss = criterion(out, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
