import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train_epoch(self, batches):
        for x, y in batches:
            loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        hits = sum((self.model(x).argmax(1) == y).sum().item() for x, y in batches)
        return hits / sum(len(y) for _, y in batches)
