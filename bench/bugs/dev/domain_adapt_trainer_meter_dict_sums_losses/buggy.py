import argparse
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        feats = self.backbone(x)
        return feats, self.head(feats)


def entropy_loss(logits):
    p = F.softmax(logits, dim=1)
    return -(p * F.log_softmax(logits, dim=1)).sum(1).mean()


class Phase1Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
        self.meters = defaultdict(float)

    def step(self, src_img, src_lbl, tgt_img):
        _, src_logits = self.model(src_img)
        _, tgt_logits = self.model(tgt_img)
        loss_seg = F.cross_entropy(src_logits, src_lbl)
        loss_ent = entropy_loss(tgt_logits) * self.args.lambda_ent
        loss = loss_seg + loss_ent
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.meters["seg"] += loss_seg.item()
        self.meters["ent"] += loss_ent.item()
        self.meters["total"] += loss

    def summary(self, n):
        return {k: float(v) / n for k, v in self.meters.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--lambda-ent", dest="lambda_ent", type=float, default=0.1)
    parser.add_argument("--iters", type=int, default=8)
    args = parser.parse_args([])
    trainer = Phase1Trainer(SegNet(), args)
    for it in range(args.iters):
        src = torch.randn(2, 3, 16, 16)
        lbl = torch.randint(0, 4, (2, 16, 16))
        trainer.step(src, lbl, torch.randn(2, 3, 16, 16))
    print(trainer.summary(args.iters))


if __name__ == "__main__":
    main()
