import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from evaluate import evaluate
from model import BiLSTMTagger

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]


def synthetic_conll(n: int, seq_len: int, vocab: int):
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(1, vocab, (n, seq_len), generator=g)
    labels = torch.where(tokens % 5 == 0, tokens % len(LABELS), torch.zeros_like(tokens))
    lengths = torch.randint(seq_len // 2, seq_len + 1, (n,), generator=g)
    pad = torch.arange(seq_len)[None, :] >= lengths[:, None]
    return tokens.masked_fill(pad, 0), labels.masked_fill(pad, -100)


def main():
    vocab = 400
    train_set = TensorDataset(*synthetic_conll(96, 20, vocab))
    dev_set = TensorDataset(*synthetic_conll(48, 20, vocab))
    train_loader = DataLoader(train_set, batch_size=16, shuffle=True)
    dev_loader = DataLoader(dev_set, batch_size=16)
    model = BiLSTMTagger(vocab, len(LABELS))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=-100)
    best = 0.0
    for epoch in range(2):
        model.train()
        for tokens, labels in train_loader:
            logits = model(tokens)
            loss = criterion(logits.reshape(-1, len(LABELS)), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        f1 = evaluate(model, dev_loader)
        best = max(best, f1)
        print(f"epoch {epoch} loss {loss.item():.3f} dev f1 {f1:.3f} best {best:.3f}")


if __name__ == "__main__":
    main()
