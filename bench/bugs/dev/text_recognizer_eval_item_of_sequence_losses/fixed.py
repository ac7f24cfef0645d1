"""Small attention-free text recogniser: a conv feature extractor over a word crop, one prediction per
character slot, masked cross-entropy over the word's length."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

VOCAB = "abcdefghijklmnopqrstuvwxyz0123456789"
PAD = len(VOCAB)


class CropRecognizer(nn.Module):
    def __init__(self, max_len=8, hidden=64):
        super().__init__()
        self.max_len = max_len
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, max_len)),
        )
        self.proj = nn.Linear(32, hidden)
        self.head = nn.Linear(hidden, len(VOCAB) + 1)

    def forward(self, crops):
        f = self.features(crops).squeeze(2).transpose(1, 2)  # (B, max_len, 32)
        return self.head(torch.relu(self.proj(f)))

    def compute_loss(self, logits, targets, seq_len):
        # per-word loss, averaged over the characters of each word; the caller reduces over the batch
        cce = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")  # (B, max_len)
        mask = torch.arange(self.max_len)[None, :] >= seq_len[:, None]
        cce = cce.masked_fill(mask, 0.0)
        return cce.sum(1) / seq_len.float()


def make_words(n, max_len, seed):
    g = torch.Generator().manual_seed(seed)
    crops = torch.randn(n, 1, 16, 64, generator=g)
    seq_len = torch.randint(3, max_len + 1, (n,), generator=g)
    targets = torch.full((n, max_len), PAD, dtype=torch.long)
    for i, length in enumerate(seq_len.tolist()):
        targets[i, :length] = torch.randint(0, len(VOCAB), (length,), generator=g)
    return TensorDataset(crops, targets, seq_len)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    val_loss, batches = 0.0, 0
    for crops, targets, seq_len in loader:
        logits = model(crops)
        val_loss += model.compute_loss(logits, targets, seq_len).mean().item()
        batches += 1
    model.train()
    return val_loss / batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--bs", type=int, default=16)
    args = parser.parse_args([])
    torch.manual_seed(0)

    model = CropRecognizer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = DataLoader(make_words(96, model.max_len, 1), batch_size=args.bs, shuffle=True)
    val_loader = DataLoader(make_words(32, model.max_len, 2), batch_size=args.bs)

    for epoch in range(args.epochs):
        model.train()
        for crops, targets, seq_len in train_loader:
            word_losses = model.compute_loss(model(crops), targets, seq_len)
            loss = word_losses.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: val loss {evaluate(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
