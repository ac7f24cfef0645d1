import argparse

import torch
import torch.nn.functional as F

from netlib import build_model


def get_args():
    p = argparse.ArgumentParser("multitask road segmentation")
    p.add_argument("-c", "--compound_coef", type=int, default=1)
    p.add_argument("--num_classes", type=int, default=3)
    p.add_argument("--epochs", type=int, default=1)
    return p.parse_args([])


def synthetic_batch(n=2, h=64, w=96, num_classes=3):
    return torch.rand(n, 3, h, w), torch.randint(0, num_classes, (n, h, w))


def main():
    opt = get_args()
    cfg = {"backbone_coef": opt.compound_coef, "num_classes": opt.num_classes}
    model = build_model(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(opt.epochs):
        for _ in range(2):
            imgs, masks = synthetic_batch(num_classes=opt.num_classes)
            seg = model(imgs)
            loss = F.cross_entropy(seg, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
