import argparse
import logging
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from phonenet import ConvFrontendClassifier, UtteranceDataset

log = logging.getLogger(__name__)


def parse_args():
    p = argparse.ArgumentParser(description="train the conv front-end phone classifier")
    p.add_argument("--n-mels", type=int, default=40)
    p.add_argument("--classes", type=int, default=6)
    p.add_argument("--items", type=int, default=24)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--lr", type=float, default=3e-4)
    return p.parse_args()


def run_epoch(model: ConvFrontendClassifier, loader, opt) -> float:
    model.train()
    seen, total = 0, 0.0
    for feats, target in loader:
        logits = model(feats)
        loss = F.cross_entropy(logits, target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        total += loss.item() * target.size(0)
        seen += target.size(0)
    return total / seen


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    ds = UtteranceDataset(args.items, args.classes, n_mels=args.n_mels)
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = ConvFrontendClassifier(args.n_mels, args.classes)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        t0 = time.time()
        loss = run_epoch(model, loader, opt)
        log.info("epoch %d loss %.3f (%.1fs)", epoch, loss, time.time() - t0)


if __name__ == "__main__":
    main()
