import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FCN8Lite(nn.Module):
    def __init__(self, n_class=3, width=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2))
        self.block2 = nn.Sequential(nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(), nn.MaxPool2d(2))
        self.drop = nn.Dropout2d(0.5)
        self.score = nn.Conv2d(2 * width, n_class, 1)
        self.upscore = nn.ConvTranspose2d(n_class, n_class, 8, stride=4, padding=2, bias=False)

    def forward(self, x):
        h = self.drop(self.block2(self.block1(x)))
        return self.upscore(self.score(h))


def label_accuracy(pred, target, n_class):
    hist = torch.bincount(n_class * target.flatten() + pred.flatten(), minlength=n_class**2).reshape(n_class, n_class)
    return (hist.diag().sum() / hist.sum()).item()


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader, max_iter, interval_validate=4):
        self.model = model
        self.optim = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.max_iter = max_iter
        self.interval_validate = interval_validate
        self.iteration = 0
        self.best_acc = 0.0

    def validate(self):
        self.model.eval()
        n_class = self.model.score.out_channels
        accs = []
        with torch.no_grad():
            for data, target in self.val_loader:
                pred = self.model(data).argmax(dim=1)
                accs.append(label_accuracy(pred, target, n_class))
        acc = sum(accs) / len(accs)
        self.best_acc = max(self.best_acc, acc)
        return acc

    def train_epoch(self):
        self.model.train()
        for batch_idx, (data, target) in enumerate(self.train_loader):
            self.iteration += 1
            if self.iteration % self.interval_validate == 0:
                self.validate()
                self.model.train()
            self.optim.zero_grad()
            loss = F.cross_entropy(self.model(data), target)
            loss.backward()
            self.optim.step()
            if self.iteration >= self.max_iter:
                break

    def train(self):
        max_epoch = int(math.ceil(self.max_iter / len(self.train_loader)))
        for _ in range(max_epoch):
            self.train_epoch()
            if self.iteration >= self.max_iter:
                break
        print(f"best pixel accuracy {self.best_acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    images, masks = torch.randn(40, 3, 32, 32), torch.randint(0, 3, (40, 32, 32))
    train_loader = DataLoader(TensorDataset(images[:32], masks[:32]), batch_size=4, shuffle=True)
    val_loader = DataLoader(TensorDataset(images[32:], masks[32:]), batch_size=4)
    model = FCN8Lite()
    optim = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.99, weight_decay=5e-4)
    Trainer(model, optim, train_loader, val_loader, max_iter=12).train()
