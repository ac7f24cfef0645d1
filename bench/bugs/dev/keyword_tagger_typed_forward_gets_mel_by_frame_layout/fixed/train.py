import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from kws.data import KeywordClips, pad_collate
from kws.model import KeywordTagger

logger = logging.getLogger("kws")


def evaluate(model: KeywordTagger, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for mels, mask, labels in loader:
            correct += (model(mels.transpose(1, 2), mask).argmax(-1) == labels).sum().item()
            total += labels.numel()
    model.train()
    return correct / max(total, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-mels", type=int, default=40)
    parser.add_argument("--keywords", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(1)

    train_set = KeywordClips(48, args.n_mels, args.keywords, seed=1)
    val_set = KeywordClips(16, args.n_mels, args.keywords, seed=2)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, collate_fn=pad_collate)
    val_loader = DataLoader(val_set, batch_size=args.batch_size, collate_fn=pad_collate)

    model = KeywordTagger(n_mels=args.n_mels, n_keywords=args.keywords)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for mels, mask, labels in train_loader:
            logits = model(mels.transpose(1, 2), mask)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f val acc %.3f", epoch, loss.item(), evaluate(model, val_loader))


if __name__ == "__main__":
    main()
