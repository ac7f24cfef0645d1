import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from config import CONFIG
from segnet import TinyUNet

logger = logging.getLogger(__name__)


class BlobDataset(Dataset):
    def __init__(self, n, size, num_classes):
        g = torch.Generator().manual_seed(1)
        self.images = torch.randn(n, 1, size, size, generator=g)
        self.masks = torch.randint(0, num_classes, (n, size, size), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.masks[idx]


def run(cfg):
    torch.manual_seed(0)
    model = TinyUNet(cfg["in_channels"], cfg["num_classes"], cfg["widths"])
    loader = DataLoader(
        BlobDataset(cfg["n_samples"], cfg["image_size"], cfg["num_classes"]),
        batch_size=cfg["batch_size"],
        shuffle=True,
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    criterion = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        running = 0.0
        for images, masks in loader:
            optimizer.zero_grad()
            logits = model(images)
            loss = criterion(logits, masks)
            loss.backward()
            optimizer.step()
            running += loss.item()
        logger.info("epoch %d: %.4f", epoch, running / len(loader))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    run(CONFIG)
