import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from daisy.model import NeuMF
from daisy.utils.sampler import implicit_pairs


def parse():
    parser = argparse.ArgumentParser(description="Point-wise NeuMF recommender")
    parser.add_argument("--factors", type=int, default=8)
    parser.add_argument("--num_ng", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--loss_type", type=str, default="CL")
    return parser.parse_args([])


def fit(model, loader, args):
    if args.loss_type == "CL":
        criterion = nn.BCEWithLogitsLoss(reduction="sum")
    else:
        criterion = nn.MSELoss(reduction="sum")
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        model.train()
        current_loss = 0.0
        for user, item, label in loader:
            model.zero_grad()
            prediction = model(user, item)
            loss = criterion(prediction, label)
            loss.backward()
            optimizer.step()
            current_loss += loss.item()
        print(f"[Epoch {epoch:03d}] loss: {current_loss:.4f}")


if __name__ == "__main__":
    args = parse()
    torch.manual_seed(0)
    u, i, r = implicit_pairs(30, 50, 40, args.num_ng, torch.Generator().manual_seed(0))
    loader = DataLoader(TensorDataset(u, i, r), batch_size=args.batch_size, shuffle=True)
    fit(NeuMF(30, 50, args.factors), loader, args)
