import argparse

import torch
import torch.nn.functional as F

from det.backbone import TinyBackbone
from det.neck import Detector


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="train a small detector on aerial tiles")
    parser.add_argument("--img-size", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--num-classes", type=int, default=5)
    parser.add_argument("--iters", type=int, default=2)
    return parser.parse_args(argv)


def classification_loss(cls_maps, num_classes):
    losses = []
    for cls_map in cls_maps:
        b, _, h, w = cls_map.shape
        logits = cls_map.view(b, -1, num_classes, h, w)
        target = torch.zeros_like(logits)
        losses.append(F.binary_cross_entropy_with_logits(logits, target))
    return sum(losses) / len(losses)


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(0)
    model = Detector(TinyBackbone(), args.num_classes)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for it in range(args.iters):
        images = torch.randn(args.batch_size, 3, args.img_size, args.img_size)
        cls_maps = model(images)
        loss = classification_loss(cls_maps, args.num_classes)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main([])
