import torch
from torch import nn


class SentimentLSTM(nn.Module):
    def __init__(self, vocab_size: int, embed_dim: int, hidden_dim: int, batch_size: int, n_layers: int = 1) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.batch_size = batch_size
        self.n_layers = n_layers
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, 2)

    def init_hidden(self):
        shape = (self.n_layers, self.batch_size, self.hidden_dim)
        return torch.zeros(shape), torch.zeros(shape)

    def forward(self, text: torch.Tensor) -> torch.Tensor:
        hidden = self.init_hidden()
        out, _ = self.lstm(self.embedding(text), hidden)
        return self.fc(out[:, -1])
