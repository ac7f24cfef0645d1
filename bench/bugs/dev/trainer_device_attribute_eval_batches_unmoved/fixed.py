import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, train_batches, val_batches):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.train_batches, self.val_batches = train_batches, val_batches
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def train_epoch(self):
        self.model.train()
        for x, y in self.train_batches:
            x, y = x.to(self.device), y.to(self.device)
            loss = nn.functional.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        correct = 0
        for x, y in self.val_batches:
            x, y = x.to(self.device), y.to(self.device)
            correct += (self.model(x).argmax(1) == y).sum().item()
        return correct / sum(len(y) for _, y in self.val_batches)


def batches(n):
    return [(torch.randn(8, 6), torch.randint(0, 2, (8,))) for _ in range(n)]


trainer = Trainer(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)), batches(3), batches(2))
trainer.train_epoch()
print(trainer.evaluate())
