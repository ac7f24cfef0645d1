import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

TEXT = "the quick brown fox jumps over the lazy dog and keeps running far away " * 20


class CharDataset(Dataset):
    def __init__(self, text, seq_len):
        chars = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(chars)}
        self.vocab_size = len(chars)
        self.data = torch.tensor([self.stoi[c] for c in text], dtype=torch.long)
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.data) - 1) // self.seq_len

    def __getitem__(self, idx):
        start = idx * self.seq_len
        chunk = self.data[start:start + self.seq_len + 1]
        return chunk[:-1], chunk[1:]


class WordLSTM(nn.Module):
    def __init__(self, n_vocab, embedding_dim=32, lstm_size=64, num_layers=2):
        super().__init__()
        self.lstm_size = lstm_size
        self.num_layers = num_layers
        self.embedding = nn.Embedding(n_vocab, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, lstm_size, num_layers=num_layers, batch_first=True, dropout=0.2)
        self.fc = nn.Linear(lstm_size, n_vocab)

    def forward(self, x, state):
        embed = self.embedding(x)
        output, state = self.lstm(embed, state)
        return self.fc(output), state

    def init_state(self, batch_size):
        return (torch.zeros(self.num_layers, batch_size, self.lstm_size),
                torch.zeros(self.num_layers, batch_size, self.lstm_size))


def train(dataset, model, args):
    model.train()
    loader = DataLoader(dataset, batch_size=args.batch_size, drop_last=True)
    loss_func = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.max_epochs):
        sh, sc = model.init_state(args.batch_size)
        for batch, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            output, (sh, sc) = model(inputs, (sh, sc))
            loss = loss_func(output, targets)
            sh, sc = sh.detach(), sc.detach()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        print({"epoch": epoch, "loss": loss.item()})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--sequence-length", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.003)
    args = parser.parse_args([])
    torch.manual_seed(0)
    dataset = CharDataset(TEXT, args.sequence_length)
    train(dataset, WordLSTM(dataset.vocab_size), args)
