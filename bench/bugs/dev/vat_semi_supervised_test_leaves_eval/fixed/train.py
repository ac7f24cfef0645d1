import argparse
import itertools

import torch
import torch.nn.functional as F

from model import SmallConvNet
from utils import make_loaders, test
from vat import VATLoss


def parse_args():
    p = argparse.ArgumentParser(description="VAT semi-supervised training")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(0)
    labeled, unlabeled, test_loader = make_loaders()
    model = SmallConvNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    vat_loss = VATLoss(xi=10.0, eps=1.0, ip=1)

    for epoch in range(args.epochs):
        model.train()
        for (x_l, y_l), (x_ul, _) in zip(itertools.cycle(labeled), unlabeled):
            optimizer.zero_grad()
            lds = vat_loss(model, x_ul)
            cross_entropy = F.cross_entropy(model(x_l), y_l)
            loss = cross_entropy + args.alpha * lds
            loss.backward()
            optimizer.step()
        acc = test(model, test_loader)
        print(f"epoch {epoch}: ce {cross_entropy.item():.3f} lds {lds.item():.3f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
