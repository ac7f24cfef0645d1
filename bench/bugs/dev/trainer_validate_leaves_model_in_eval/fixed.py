import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 4)
        )

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model, train_data, val_data):
        self.model = model
        self.train_data, self.val_data = train_data, val_data
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train_epoch(self):
        self.model.train()
        for x, y in self.train_data:
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        correct = total = 0
        for x, y in self.val_data:
            correct += (self.model(x).argmax(1) == y).sum().item()
            total += len(y)
        return correct / total

    def fit(self, epochs=3):
        self.model.train()
        for epoch in range(epochs):
            loss = self.train_epoch()
            acc = self.validate()
            print(f"epoch {epoch}: loss {loss:.3f}, val acc {acc:.3f}")


def batches(n, size=16):
    return [(torch.randn(size, 20), torch.randint(0, 4, (size,))) for _ in range(n)]


if __name__ == "__main__":
    Trainer(Classifier(), batches(4), batches(2)).fit()
