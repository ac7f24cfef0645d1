import argparse
import logging

import torch
from torch.utils.data import DataLoader

from seqrec.evaluate import hit_rate
from seqrec.losses import bpr_loss, sample_negatives
from seqrec.model import GRURecommender
from seqrec.sessions import NextClickDataset, simulate_sessions

logger = logging.getLogger("gru4rec")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-items", type=int, default=120)
    parser.add_argument("--negatives", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)

    sessions = simulate_sessions(150, args.n_items)
    train_ds, test_ds = NextClickDataset(sessions[:120]), NextClickDataset(sessions[120:])
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
    test_loader = DataLoader(test_ds, batch_size=64)

    model = GRURecommender(args.n_items)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        for prefixes, next_items in train_loader:
            scores = model(prefixes)
            negatives = sample_negatives(len(next_items), args.n_items, args.negatives, gen)
            loss = bpr_loss(scores, next_items.unsqueeze(1), negatives)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f HR@10 %.3f", epoch, loss.item(), hit_rate(model, test_loader))


if __name__ == "__main__":
    main()
