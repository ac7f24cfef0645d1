import argparse
import os

import torch

from data import loaders
from losses import DiceBCELoss
from networks import ERNet

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--batch_size", type=int, default=4)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--ckpt_dir", type=str, default="checkpoints")
args = parser.parse_args([])


def train():
    torch.manual_seed(2023)
    net = ERNet(channels=1, classes=1)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=5e-4)
    criterion = DiceBCELoss()
    train_loader = loaders(args.batch_size)

    for epoch in range(args.epochs):
        net.train()
        epoch_loss = 0.0
        for idx, (image, label) in enumerate(train_loader):
            optimizer.zero_grad()
            pred = net(image)
            loss = criterion(pred, label)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}: loss {epoch_loss / (idx + 1):.4f}")

    os.makedirs(args.ckpt_dir, exist_ok=True)
    torch.save(net.state_dict(), os.path.join(args.ckpt_dir, "ernet_last.pth"))


if __name__ == "__main__":
    train()
