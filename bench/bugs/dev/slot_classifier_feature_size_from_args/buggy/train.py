import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import SlotModel


def get_args_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser("slot classifier", add_help=False)
    parser.add_argument("--img_size", default=40, type=int)
    parser.add_argument("--channel", default=16, type=int)
    parser.add_argument("--hidden_dim", default=12, type=int)
    parser.add_argument("--num_classes", default=5, type=int)
    parser.add_argument("--batch_size", default=4, type=int)
    parser.add_argument("--epochs", default=1, type=int)
    return parser


class FolderLike(Dataset):
    def __init__(self, n: int = 8, num_classes: int = 5, resize: int = 64) -> None:
        self.images = torch.rand(n, 3, 80, 80)
        self.labels = torch.randint(0, num_classes, (n,))
        self.resize = resize

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        img = F.interpolate(self.images[i : i + 1], size=(self.resize, self.resize), mode="bilinear", align_corners=False)
        return img[0], self.labels[i]


def train_one_epoch(model, data_loader, optimizer) -> float:
    model.train()
    for inputs, labels in data_loader:
        logits, loss_list = model(inputs, labels)
        loss = sum(loss_list)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main(args) -> None:
    model = SlotModel(args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = DataLoader(FolderLike(num_classes=args.num_classes), batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        print(epoch, train_one_epoch(model, loader, optimizer))


if __name__ == "__main__":
    main(get_args_parser().parse_args([]))
