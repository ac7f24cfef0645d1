import math

import torch
import torch.nn.functional as F


def cross_entropy2d(score, target, size_average=True):
    loss = F.cross_entropy(score, target, reduction="sum")
    return loss / target.numel() if size_average else loss


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader, max_iter, interval_validate=None):
        self.model = model
        self.optim = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.interval_validate = interval_validate or len(train_loader)
        self.epoch = 0
        self.iteration = 0
        self.max_iter = max_iter
        self.best_mean_iu = 0.0

    def validate(self):
        self.model.eval()
        val_loss = 0.0
        hist = torch.zeros(3, 3)
        with torch.no_grad():
            for data, target in self.val_loader:
                score = self.model(data)
                val_loss += cross_entropy2d(score, target).item()
                pred = score.argmax(1)
                hist += torch.bincount(3 * target.flatten() + pred.flatten(), minlength=9).view(3, 3).float()
        iu = hist.diag() / (hist.sum(1) + hist.sum(0) - hist.diag()).clamp(min=1)
        mean_iu = iu.mean().item()
        self.best_mean_iu = max(self.best_mean_iu, mean_iu)
        print(f"iter {self.iteration} val loss {val_loss / len(self.val_loader):.4f} mean IU {mean_iu:.3f}")

    def train_epoch(self):
        self.model.train()
        for batch_idx, (data, target) in enumerate(self.train_loader):
            iteration = batch_idx + self.epoch * len(self.train_loader)
            if self.iteration != 0 and (iteration - 1) != self.iteration:
                continue
            self.iteration = iteration
            if self.iteration % self.interval_validate == 0:
                self.validate()

            self.optim.zero_grad()
            score = self.model(data)
            loss = cross_entropy2d(score, target)
            if math.isnan(loss.item()):
                raise ValueError("loss is nan while training")
            loss.backward()
            self.optim.step()
            if self.iteration >= self.max_iter:
                break

    def train(self):
        max_epoch = int(math.ceil(1.0 * self.max_iter / len(self.train_loader)))
        for epoch in range(max_epoch):
            self.epoch = epoch
            self.train_epoch()
            if self.iteration >= self.max_iter:
                break
