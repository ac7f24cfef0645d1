import argparse
import logging

import torch
from torch.utils.data import DataLoader, random_split

from data import CHANNELS, TwoViews, synthetic_recordings
from moco import MoCo, Encoder

log = logging.getLogger("pretrain")


def main():
    parser = argparse.ArgumentParser(description="MoCo pretraining on unlabeled accelerometer windows")
    parser.add_argument("--windows", type=int, default=150)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    dataset = TwoViews(synthetic_recordings(args.windows))
    train_len = int(0.8 * len(dataset))
    train_set, _ = random_split(dataset, [train_len, len(dataset) - train_len],
                                generator=torch.Generator().manual_seed(0))
    loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, drop_last=True)

    # one queue slot per training window, so each negative is a distinct recording; whole batches only
    model = MoCo(Encoder(CHANNELS, args.dim), args.dim, queue_size=train_len - train_len % args.batch_size)
    optimizer = torch.optim.SGD(model.query_encoder.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)
    for epoch in range(args.epochs):
        losses = []
        for x_q, x_k in loader:
            loss = model(x_q, x_k)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        log.info("epoch %d contrastive loss %.4f", epoch, sum(losses) / len(losses))


if __name__ == "__main__":
    main()
