from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    vocab_size: int = 3000
    embed_dim: int = 48
    hidden_size: int = 40
    num_layers: int = 2
    num_classes: int = 5
    max_len: int = 10
    batch_size: int = 4
    drop_out: float = 0.1


class ReviewDataset(Dataset):
    def __init__(self, n, cfg):
        g = torch.Generator().manual_seed(0)
        self.tokens = torch.randint(1, cfg.vocab_size, (n, cfg.max_len), generator=g)
        self.stars = torch.randint(0, cfg.num_classes, (n,), generator=g)

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, i):
        return self.tokens[i], self.stars[i]


class BiLSTMClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_layers = config.num_layers
        self.hidden_size = config.hidden_size
        self.embedding = nn.Embedding(config.vocab_size, config.embed_dim, padding_idx=0)
        self.bilstm = nn.LSTM(
            input_size=config.embed_dim,
            hidden_size=config.hidden_size,
            num_layers=config.num_layers,
            bidirectional=True,
            batch_first=True,
            dropout=config.drop_out,
        )
        self.out = nn.Linear(2 * config.hidden_size, config.num_classes)

    def init_state(self, x):
        shape = (self.num_layers * 2, x.size(0), self.hidden_size)
        return x.new_zeros(shape), x.new_zeros(shape)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        h0, c0 = self.init_state(emb)
        output, (hn, cn) = self.bilstm(emb, (h0, c0))
        return self.out(output[:, -1])


def train(cfg):
    loader = DataLoader(ReviewDataset(16, cfg), batch_size=cfg.batch_size, shuffle=True)
    model = BiLSTMClassifier(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for tokens, stars in loader:
        optimizer.zero_grad()
        loss = criterion(model(tokens), stars)
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    print(train(Config()))
