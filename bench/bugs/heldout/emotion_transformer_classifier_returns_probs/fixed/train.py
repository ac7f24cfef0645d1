import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import EmotionClassifier

EMOTIONS = ["anger", "fear", "joy", "love", "sadness", "surprise"]


class TweetDataset(Dataset):
    def __init__(self, n: int, vocab_size: int, max_len: int = 24):
        g = torch.Generator().manual_seed(0)
        self.labels = torch.randint(0, len(EMOTIONS), (n,), generator=g)
        lengths = torch.randint(6, max_len, (n,), generator=g)
        self.tokens = torch.zeros(n, max_len, dtype=torch.long)
        for i, length in enumerate(lengths):
            words = torch.randint(1, vocab_size, (int(length),), generator=g)
            words[0] = 1 + int(self.labels[i])
            self.tokens[i, :length] = words

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.tokens[i], self.labels[i]


def run_epoch(model, loader, criterion, optimizer=None):
    training = optimizer is not None
    model.train(training)
    correct, total_loss = 0, 0.0
    with torch.set_grad_enabled(training):
        for tokens, labels in loader:
            outputs = model(tokens)
            loss = criterion(outputs, labels)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total_loss += loss.item() * len(labels)
            correct += (outputs.argmax(-1) == labels).sum().item()
    return total_loss / len(loader.dataset), correct / len(loader.dataset)


def main():
    vocab = 300
    train_loader = DataLoader(TweetDataset(160, vocab), batch_size=32, shuffle=True)
    val_loader = DataLoader(TweetDataset(64, vocab), batch_size=32)
    model = EmotionClassifier(vocab, len(EMOTIONS))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    for epoch in range(2):
        train_loss, train_acc = run_epoch(model, train_loader, criterion, optimizer)
        val_loss, val_acc = run_epoch(model, val_loader, criterion)
        print(f"epoch {epoch} train {train_loss:.3f}/{train_acc:.2f} val {val_loss:.3f}/{val_acc:.2f}")


if __name__ == "__main__":
    main()
