import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import SegList
from drn import DRNSeg

FORMAT = "[%(asctime)-15s %(filename)s:%(lineno)d %(funcName)s] %(message)s"
logger = logging.getLogger(__name__)


def segmentation_loss(output, target, ignore_index=255):
    return F.cross_entropy(output, target, ignore_index=ignore_index)


def train(train_loader, model, optimizer, epoch):
    model.train()
    for i, (image, target) in enumerate(train_loader):
        output = model(image)
        loss = segmentation_loss(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.info("Epoch: [%d][%d/%d] Loss %.4f", epoch, i, len(train_loader), loss.item())


def main():
    parser = argparse.ArgumentParser(description="DRN segmentation")
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = DRNSeg(args.classes)
    loader = DataLoader(SegList(num_classes=args.classes), batch_size=args.batch_size, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    for epoch in range(args.epochs):
        train(loader, model, optimizer, epoch)


if __name__ == "__main__":
    logging.basicConfig(format=FORMAT, level=logging.INFO)
    main()
