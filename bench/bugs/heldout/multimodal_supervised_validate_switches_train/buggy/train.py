import torch
import torch.nn as nn

from supervised import Concat, train


def mlp(in_dim, hidden, out_dim, dropout=0.3):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, out_dim))


def affect_batches(n_batches, batch_size=8):
    batches = []
    for _ in range(n_batches):
        text, audio, vision = torch.randn(batch_size, 30), torch.randn(batch_size, 12), torch.randn(batch_size, 20)
        batches.append([text, audio, vision, torch.randint(0, 2, (batch_size,))])
    return batches


if __name__ == "__main__":
    encoders = [mlp(30, 32, 16), mlp(12, 16, 8), mlp(20, 32, 16)]
    head = mlp(40, 32, 2, dropout=0.5)
    train(encoders, Concat(), head, affect_batches(4), affect_batches(2), total_epochs=2)
