import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    """Kim (2014): parallel 1D convolutions of several widths over word vectors, max-pooled over time."""

    def __init__(self, vocab_size, word_vec_size, kernel_sizes, num_filters, num_classes, dropout):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, word_vec_size)
        self.convs = [nn.Conv1d(word_vec_size, num_filters, k) for k in kernel_sizes]
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(num_filters * len(kernel_sizes), num_classes)

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        pooled = [F.relu(conv(x)).max(dim=2).values for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel-sizes", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--num-filters", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = TextCNN(500, 24, args.kernel_sizes, args.num_filters, num_classes=2, dropout=0.5)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        tokens, labels = torch.randint(0, 500, (16, 20)), torch.randint(0, 2, (16,))
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item(), sum(p.numel() for p in model.parameters()))


if __name__ == "__main__":
    main()
