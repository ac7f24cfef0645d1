import logging

import torch
import torch.nn.functional as F

import config
from detector import SimpleDetector

logger = logging.getLogger("det")


def main():
    torch.manual_seed(0)
    cfg = config.train
    detector = SimpleDetector(**config.model)
    optimizer = torch.optim.AdamW(detector.parameters(), lr=cfg["lr"])
    num_classes = config.model["head"]["num_classes"]
    for it in range(cfg["iters"]):
        imgs = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"])
        cls_scores = detector(imgs)
        loss = 0.0
        for score in cls_scores:
            target = torch.randint(0, num_classes, (score.size(0), score.size(2), score.size(3)))
            loss = loss + F.cross_entropy(score, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.warning("iter %d loss %.4f", it, loss.item())


if __name__ == "__main__":
    main()
