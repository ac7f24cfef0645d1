import argparse
from collections import Counter

import torch
from torch import nn, optim
from torch.utils.data import DataLoader, Dataset

JOKES = "what did the ocean say to the beach nothing it just waved why do bees hum they forgot the words " * 8


class Words(Dataset):
    def __init__(self, text, sequence_length):
        words = text.split()
        counts = Counter(words)
        self.uniq_words = sorted(counts, key=counts.get, reverse=True)
        self.word_to_index = {w: i for i, w in enumerate(self.uniq_words)}
        self.words_indexes = [self.word_to_index[w] for w in words]
        self.sequence_length = sequence_length

    def __len__(self):
        return len(self.words_indexes) - self.sequence_length

    def __getitem__(self, index):
        window = self.words_indexes[index:index + self.sequence_length + 1]
        return torch.tensor(window[:-1]), torch.tensor(window[1:])


class Model(nn.Module):
    def __init__(self, n_vocab, lstm_size=32, num_layers=2):
        super().__init__()
        self.lstm_size = lstm_size
        self.num_layers = num_layers
        self.embedding = nn.Embedding(n_vocab, lstm_size)
        self.lstm = nn.LSTM(lstm_size, lstm_size, num_layers=num_layers, dropout=0.2)
        self.fc = nn.Linear(lstm_size, n_vocab)

    def forward(self, x, prev_state):
        embed = self.embedding(x.t())
        output, state = self.lstm(embed, prev_state)
        return self.fc(output).transpose(0, 1), state

    def init_state(self, batch_size):
        return (torch.zeros(self.num_layers, batch_size, self.lstm_size),
                torch.zeros(self.num_layers, batch_size, self.lstm_size))


def train(dataset, model, args):
    model.train()
    dataloader = DataLoader(dataset, batch_size=args.batch_size, drop_last=True)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    for epoch in range(args.max_epochs):
        state_h, state_c = model.init_state(args.batch_size)
        for batch, (x, y) in enumerate(dataloader):
            optimizer.zero_grad()
            y_pred, (state_h, state_c) = model(x, (state_h, state_c))
            loss = criterion(y_pred.transpose(1, 2), y)
            state_h, state_c = state_h.detach(), state_c.detach()
            loss.backward()
            optimizer.step()
        print({"epoch": epoch, "loss": loss.item()})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--sequence-length", type=int, default=6)
    args = parser.parse_args([])
    torch.manual_seed(0)
    dataset = Words(JOKES, args.sequence_length)
    train(dataset, Model(len(dataset.uniq_words)), args)
