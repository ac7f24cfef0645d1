import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, random_split

from recsys.data import RatingsDataset, synthetic_ratings
from recsys.metrics import rmse
from recsys.models import BiasedMF

logger = logging.getLogger("mf")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--factors", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--wd", type=float, default=1e-5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    n_users, n_items = 50, 40
    table = synthetic_ratings(n_users, n_items, 640)
    dataset = RatingsDataset(table)
    train_set, valid_set = random_split(dataset, [512, 128], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True)
    valid_loader = DataLoader(valid_set, batch_size=256)

    model = BiasedMF(n_users, n_items, args.factors, global_mean=float(dataset.ratings.mean()))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=args.wd)
    for epoch in range(args.epochs):
        for users, items, ratings in train_loader:
            pred = model(users, items)
            loss = F.mse_loss(pred, ratings)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d valid rmse %.4f", epoch, rmse(model, valid_loader))


if __name__ == "__main__":
    main()
