import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from unet import UNet


class CellDataset(Dataset):
    def __init__(self, n, size):
        self.images = torch.rand(n, 1, size, size)
        self.masks = (self.images[:, 0] > 0.5).long()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--img-size", type=int, default=48)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=1)
    return parser.parse_args([])


def main():
    args = parse_args()
    loader = DataLoader(CellDataset(4, args.img_size), batch_size=args.batch_size)
    model = UNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for images, masks in loader:
            outputs = model(images)
            loss = F.cross_entropy(outputs, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
