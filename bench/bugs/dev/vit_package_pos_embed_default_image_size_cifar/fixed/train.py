import argparse
import logging
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import SyntheticCifar
from vit import ViTConfig, VisionTransformer

logger = logging.getLogger("train")


def parse_args():
    p = argparse.ArgumentParser("ViT from scratch on CIFAR-10")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--patch-size", type=int, default=16)
    return p.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    cfg = ViTConfig(image_size=32, patch_size=args.patch_size, num_classes=10)
    model = VisionTransformer(cfg)
    logger.info("ViT with %d params, %d patches", sum(p.numel() for p in model.parameters()), cfg.num_patches)

    loader = DataLoader(SyntheticCifar(), batch_size=args.batch_size, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

    for epoch in range(args.epochs):
        model.train()
        start, correct, seen = time.time(), 0, 0
        for images, labels in loader:
            logits = model(images)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == labels).sum().item()
            seen += labels.numel()
        logger.info("epoch %d acc %.3f (%.1fs)", epoch, correct / seen, time.time() - start)


if __name__ == "__main__":
    main()
