import argparse

import torch
import torch.nn as nn

from unet import UNet


def synthetic_cells(n, size, g):
    images = torch.rand(n, 1, size, size, generator=g)
    masks = (images > 0.6).long().squeeze(1)
    return images, masks


def dice_score(logits, masks, eps=1e-6):
    pred = logits.argmax(1)
    inter = ((pred == 1) & (masks == 1)).sum().float()
    return (2 * inter + eps) / ((pred == 1).sum() + (masks == 1).sum() + eps)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--crop", type=int, default=75)
    parser.add_argument("--steps", type=int, default=2)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = UNet(in_channels=1, num_classes=2)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    criterion = nn.CrossEntropyLoss()
    for step in range(args.steps):
        images, masks = synthetic_cells(2, args.crop, g)
        logits = model(images)
        loss = criterion(logits, masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f} dice {dice_score(logits, masks).item():.3f}")


if __name__ == "__main__":
    main([])
