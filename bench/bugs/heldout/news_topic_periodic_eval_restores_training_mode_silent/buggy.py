"""News topic classification (fastText-style bag of n-grams) with evaluation every few hundred examples."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TOPICS = ["world", "sports", "business", "scitech"]


class BagOfNgrams(nn.Module):
    def __init__(self, n_buckets=2000, dim=48, n_classes=len(TOPICS), dropout=0.3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(n_buckets, dim, mode="mean")
        self.norm = nn.BatchNorm1d(dim)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.fc(self.dropout(self.norm(self.embedding(ids))))


@torch.no_grad()
def evaluate(model: nn.Module, loader) -> float:
    was_training = model.training
    model.eval()
    correct = total = 0
    for ids, label in loader:
        correct += (model(ids).argmax(1) == label).sum().item()
        total += len(label)
    model.train(was_training)
    return correct / total


def synthetic_news(n, length=30, n_buckets=2000, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, len(TOPICS), (n,), generator=g)
    ids = torch.randint(0, n_buckets, (n, length), generator=g)
    ids[:, :5] = labels[:, None] * 100 + torch.randint(0, 100, (n, 5), generator=g)
    return TensorDataset(ids, labels)


def main():
    train_loader = DataLoader(synthetic_news(256), batch_size=32, shuffle=True)
    val_loader = DataLoader(synthetic_news(64, seed=1), batch_size=64)
    model = BagOfNgrams()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    step = 0
    for epoch in range(2):
        model.train()
        for ids, label in train_loader:
            loss = F.cross_entropy(model(ids), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % 3 == 0:
                print(f"step {step} loss {loss.item():.3f} val acc {evaluate(model, val_loader):.2f}")


if __name__ == "__main__":
    main()
