import argparse
import logging
import time

import torch
from torch.utils.data import DataLoader

from data import FundusPatches
from losses import calc_loss
from model import U_Net

logger = logging.getLogger("vessels")


def arguments():
    parser = argparse.ArgumentParser(description="U-Net vessel segmentation on fundus patches")
    parser.add_argument("--patch", type=int, default=80, help="side of the square training patches")
    parser.add_argument("--n-patches", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args()


def train_model(model: U_Net, loader, opt, epochs):
    for epoch in range(epochs):
        model.train()
        since, epoch_loss = time.time(), 0.0
        for x, y in loader:
            opt.zero_grad()
            pred = model(x)
            loss = calc_loss(pred, y)
            loss.backward()
            opt.step()
            epoch_loss += loss.item() * x.size(0)
        logger.info("epoch %d loss %.4f (%.1fs)", epoch, epoch_loss / len(loader.dataset), time.time() - since)
    return model


def main():
    args = arguments()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(FundusPatches(args.n_patches, args.patch), batch_size=args.batch_size, shuffle=True)
    model = U_Net(in_ch=1, out_ch=1)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    train_model(model, loader, opt, args.epochs)


if __name__ == "__main__":
    main()
