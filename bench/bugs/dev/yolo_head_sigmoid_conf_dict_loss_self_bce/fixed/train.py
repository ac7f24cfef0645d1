import logging

import torch
from torch.utils.data import DataLoader

from dataset import RandomBoxes
from loss import YoloLoss
from model import TinyYolo

NUM_CLASSES = 4
EPOCHS = 2

log = logging.getLogger("yolo")


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = TinyYolo(num_classes=NUM_CLASSES)
    criterion = YoloLoss(NUM_CLASSES)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    loader = DataLoader(RandomBoxes(num_classes=NUM_CLASSES), batch_size=8, shuffle=True)

    for epoch in range(EPOCHS):
        model.train()
        for i, (images, targets) in enumerate(loader):
            preds = model(images)
            loss, parts = criterion(preds, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % 2 == 0:
                log.info("epoch %d iter %d loss %.4f %s", epoch, i, loss.item(), parts)


if __name__ == "__main__":
    main()
