"""Environmental sound classification (ESC-style): log-mel clips, a small CNN, top-1/top-5 accuracy."""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class MelCNN(nn.Module):
    def __init__(self, n_classes=50, n_mels=40):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, mel):
        return self.classifier(self.features(mel).flatten(1))


def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions for the specified values of k."""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].view(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


def train(loader, model, criterion, optimizer, epoch, print_freq=2):
    top1, top5, losses = AverageMeter("Acc@1"), AverageMeter("Acc@5"), AverageMeter("Loss")
    model.train()
    end = time.time()
    for i, (mel, target) in enumerate(loader):
        output = model(mel)
        loss = criterion(output, target)
        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss.item(), mel.size(0))
        top1.update(acc1[0].item(), mel.size(0))
        top5.update(acc5[0].item(), mel.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % print_freq == 0:
            print(f"[{epoch}][{i}] {time.time() - end:.2f}s loss {losses.avg:.3f} top1 {top1.avg:.1f} top5 {top5.avg:.1f}")


def synthetic_loader(n_batches, batch_size, n_classes, n_mels, frames, generator):
    for _ in range(n_batches):
        mel = torch.randn(batch_size, 1, n_mels, frames, generator=generator)
        target = torch.randint(0, n_classes, (batch_size,), generator=generator)
        yield mel, target


def main():
    parser = argparse.ArgumentParser(description="ESC-50 training")
    parser.add_argument("--epochs", default=1, type=int)
    parser.add_argument("--lr", default=0.01, type=float)
    parser.add_argument("--batch-size", default=8, type=int)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = MelCNN()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9)
    g = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        train(synthetic_loader(3, args.batch_size, 50, 40, 64, g), model, criterion, optimizer, epoch)


if __name__ == "__main__":
    main()
