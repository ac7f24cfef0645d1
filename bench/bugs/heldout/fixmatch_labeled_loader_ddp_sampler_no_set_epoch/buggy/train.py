"""FixMatch-style semi-supervised training; run with world_size 1 here (the code path used under torchrun)."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from data import get_loaders

logger = logging.getLogger(__name__)


def build_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_classes),
    )


def train_one_epoch(args, model, labeled_loader, unlabeled_loader, optimizer, epoch):
    model.train()
    unlabeled_iter = iter(unlabeled_loader)
    for inputs_x, targets_x in labeled_loader:
        inputs_u, _ = next(unlabeled_iter)
        inputs_u_s = inputs_u + 0.1 * torch.randn_like(inputs_u)
        logits = model(torch.cat([inputs_x, inputs_u, inputs_u_s]))
        logits_x = logits[:len(inputs_x)]
        logits_u_w, logits_u_s = logits[len(inputs_x):].chunk(2)
        lx = F.cross_entropy(logits_x, targets_x)
        probs = torch.softmax(logits_u_w.detach() / args.T, dim=-1)
        max_probs, targets_u = probs.max(dim=-1)
        mask = max_probs.ge(args.threshold).float()
        lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
        loss = lx + args.lambda_u * lu
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    logger.info("epoch %d loss %.4f mask %.2f", epoch, loss.item(), mask.mean().item())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-labeled", dest="num_labeled", type=int, default=32)
    parser.add_argument("--batch-size", dest="batch_size", type=int, default=8)
    parser.add_argument("--mu", type=int, default=2)
    parser.add_argument("--T", type=float, default=1.0)
    parser.add_argument("--threshold", type=float, default=0.95)
    parser.add_argument("--lambda-u", dest="lambda_u", type=float, default=1.0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--local_rank", type=int, default=0)
    parser.add_argument("--world-size", dest="world_size", type=int, default=1)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    labeled_loader, unlabeled_loader = get_loaders(args)
    model = build_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for epoch in range(args.epochs):
        train_one_epoch(args, model, labeled_loader, unlabeled_loader, optimizer, epoch)


if __name__ == "__main__":
    main()
