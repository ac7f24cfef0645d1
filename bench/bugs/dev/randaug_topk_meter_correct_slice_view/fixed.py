import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def update(self, value: float, n: int = 1) -> None:
        self.total += value * n
        self.count += n

    @property
    def avg(self) -> float:
        return self.total / max(self.count, 1)


def accuracy(output: torch.Tensor, target: torch.Tensor, topk=(1,)) -> list:
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    res = []
    for k in topk:
        correct_k = correct[:k].reshape(-1).float().sum(0)
        res.append(correct_k.mul_(100.0 / batch_size))
    return res


def wide_block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


def build_model(num_classes: int) -> nn.Module:
    return nn.Sequential(
        wide_block(3, 16), nn.MaxPool2d(2), wide_block(16, 32),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, num_classes),
    )


def run_epoch(model, loader, optimizer, criterion) -> dict:
    top1, top5, losses = AverageMeter(), AverageMeter(), AverageMeter()
    model.train()
    for images, labels in loader:
        logits = model(images)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc1, acc5 = accuracy(logits.detach(), labels, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        top1.update(acc1.item(), images.size(0))
        top5.update(acc5.item(), images.size(0))
    return {"loss": losses.avg, "top1": top1.avg, "top5": top5.avg}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args([])
    data = TensorDataset(torch.randn(32, 3, 16, 16), torch.randint(0, 10, (32,)))
    loader = DataLoader(data, batch_size=args.batch, shuffle=True)
    model = build_model(10)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        print(epoch, run_epoch(model, loader, optimizer, nn.CrossEntropyLoss()))


if __name__ == "__main__":
    main()
