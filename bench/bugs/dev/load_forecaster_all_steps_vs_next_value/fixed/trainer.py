import time

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=5e-3, clip=0.7):
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.clip = clip

    def train_epoch(self, loader, epoch):
        self.model.train()
        total_loss, start = 0.0, time.time()
        for batch, (data, targets) in enumerate(loader):
            self.optimizer.zero_grad()
            output = self.model(data)
            loss = self.criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.optimizer.step()
            total_loss += loss.item()
        print(f"| epoch {epoch:3d} | {len(loader):5d} batches | {time.time() - start:5.2f} s | loss {total_loss / len(loader):5.5f}")

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        total = 0.0
        for data, targets in loader:
            total += self.criterion(self.model(data), targets).item() * len(data)
        return total / len(loader.dataset)
