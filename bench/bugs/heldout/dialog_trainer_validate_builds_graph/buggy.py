import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ResponseRanker(nn.Module):
    def __init__(self, vocab=300, dim=32, dropout=0.2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.ctx = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Dropout(dropout))
        self.resp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Dropout(dropout))

    def forward(self, context, response):
        c = self.ctx(self.embed(context))
        r = self.resp(self.embed(response))
        return (c * r).sum(-1)


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr=1e-3):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self):
        self.model.train()
        for ctx, resp, label in self.train_loader:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(ctx, resp), label)
            loss.backward()
            self.optimizer.step()

    def validate(self):
        self.model.eval()
        total, n = 0.0, 0
        for ctx, resp, label in self.val_loader:
            scores = self.model(ctx, resp)
            total += self.criterion(scores, label).item() * len(label)
            n += len(label)
        return total / n

    def run(self, epochs):
        for epoch in range(epochs):
            self.train_epoch()
            print(epoch, self.validate())


def toy_split(n):
    return DataLoader(
        TensorDataset(torch.randint(0, 300, (n, 12)), torch.randint(0, 300, (n, 6)), torch.randint(0, 2, (n,)).float()),
        batch_size=4,
    )


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(ResponseRanker(), toy_split(12), toy_split(8)).run(epochs=2)
