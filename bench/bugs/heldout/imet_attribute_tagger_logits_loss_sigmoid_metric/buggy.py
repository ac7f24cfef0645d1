"""Multi-label attribute tagging (iMet-style): the loss takes logits, the sigmoid is only used for the F2 metric
and the binarised predictions."""
import argparse

import torch
import torch.nn as nn


def fbeta_score(probs, targets, threshold=0.1, beta=2, eps=1e-9):
    preds = (probs > threshold).float()
    tp = (preds * targets).sum(1)
    precision = tp / (preds.sum(1) + eps)
    recall = tp / (targets.sum(1) + eps)
    return ((1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall + eps)).mean()


class AttributeHead(nn.Module):
    def __init__(self, in_features, n_attrs):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(in_features, n_attrs)

    def forward(self, feats):
        return self.fc(self.pool(feats).flatten(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--attrs", type=int, default=12)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args([])
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
    head = AttributeHead(32, args.attrs)
    criterion = nn.BCEWithLogitsLoss()
    params = list(backbone.parameters()) + list(head.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    for step in range(args.steps):
        images = torch.randn(8, 3, 32, 32)
        targets = (torch.rand(8, args.attrs) < 0.2).float()
        outputs = head(backbone(images))
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        probs = torch.sigmoid(outputs.detach())
        print(f"step {step} loss {loss.item():.4f} f2 {fbeta_score(probs, targets).item():.3f}")


if __name__ == "__main__":
    main()
