import torch
from torch import nn

from model import GruRNN

CHARS = "abcdefghijklmnopqrstuvwxyz "
PUNCTUATION = ["<nop>", ",", ".", "?"]


def random_batch(batch_size: int, seq_len: int):
    text = torch.randint(0, len(CHARS), (batch_size, seq_len))
    marks = torch.randint(0, len(PUNCTUATION), (batch_size, seq_len))
    return text, marks


def train(steps: int = 3, batch_size: int = 4, seq_len: int = 30) -> None:
    model = GruRNN(len(CHARS), 32, len(PUNCTUATION), layers=2)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.CrossEntropyLoss()
    for step in range(steps):
        text, marks = random_batch(batch_size, seq_len)
        logits = model(text)
        loss = criterion(logits.reshape(-1, len(PUNCTUATION)), marks.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: {loss.item():.4f}")


if __name__ == "__main__":
    train()
