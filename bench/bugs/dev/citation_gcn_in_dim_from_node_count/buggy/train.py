import argparse
import logging

import torch
import torch.nn.functional as F

from gnn.graph import load_synthetic_citations, normalized_adjacency
from gnn.model import GCN
from utils import accuracy, split_masks

log = logging.getLogger("gcn")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--weight-decay", type=float, default=5e-4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    feats, edges, field = load_synthetic_citations()
    features = torch.from_numpy(feats)
    labels = torch.from_numpy(field).long()
    adj = normalized_adjacency(edges, features.shape[0])
    train_mask, val_mask, test_mask = split_masks(features.shape[0])

    model = GCN(in_dim=features.shape[0], hidden=args.hidden, n_classes=int(labels.max()) + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    for epoch in range(args.epochs):
        model.train()
        out = model(features, adj)
        loss = F.cross_entropy(out[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                out = model(features, adj)
            log.info("epoch %d loss %.4f val acc %.3f", epoch, loss.item(), accuracy(out[val_mask], labels[val_mask]))
    log.info("test acc %.3f", accuracy(out[test_mask], labels[test_mask]))


if __name__ == "__main__":
    main()
