import argparse
import logging

import torch
import torch.nn as nn

from data import loaders
from model import R3Lite

log = logging.getLogger("r3")


def evaluate(net, val_loader):
    net.eval()
    mae, n = 0.0, 0
    with torch.no_grad():
        for images, masks in val_loader:
            saliency = net(images)
            mae += (saliency - masks).abs().mean(dim=(1, 2, 3)).sum().item()
            n += len(images)
    net.train()
    return mae / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iter-num", type=int, default=6)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch-size", type=int, default=4)
    args = parser.parse_args([])

    torch.manual_seed(2018)
    gen = torch.Generator().manual_seed(2018)
    train_loader, val_loader = loaders(16, 8, 24, args.batch_size, gen)
    net = R3Lite()
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    criterion = nn.BCEWithLogitsLoss()

    net.train()
    curr_iter = 0
    while curr_iter < args.iter_num:
        for images, masks in train_loader:
            coarse, refined = net(images)
            loss0 = criterion(coarse, masks)
            loss1 = criterion(refined, masks)
            loss = loss0 + loss1
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            curr_iter += 1
            log.info("iter %d loss %.4f (coarse %.4f refined %.4f)", curr_iter, loss.item(), loss0.item(),
                     loss1.item())
            if curr_iter == args.iter_num:
                break
    log.info("val MAE %.4f", evaluate(net, val_loader))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
