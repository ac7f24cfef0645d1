import argparse

import torch
from torch.utils.data import DataLoader

from dataset import NucleiDataset
from loss import CrossEntropy2d
from model import BiONet


def train(args):
    torch.manual_seed(0)
    model = BiONet(iterations=args.iter)
    criterion = CrossEntropy2d()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loader = DataLoader(NucleiDataset(), batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            output = model(x)
            l = criterion(output, y.long())
            optimizer.zero_grad()
            l.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {l.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--iter", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    train(parser.parse_args([]))
