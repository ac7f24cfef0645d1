import torch
from torch import nn


class SentimentRNN(nn.Module):
    def __init__(self, vocab_size: int, output_size: int, embedding_dim: int, hidden_dim: int, n_layers: int, drop_prob: float = 0.5) -> None:
        super().__init__()
        self.output_size = output_size
        self.n_layers = n_layers
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, n_layers, dropout=drop_prob, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(hidden_dim, output_size)

    def forward(self, x: torch.Tensor, hidden):
        batch_size = x.size(0)
        lstm_out, hidden = self.lstm(self.embedding(x), hidden)
        lstm_out = lstm_out.contiguous().view(-1, self.hidden_dim)
        out = self.fc(self.dropout(lstm_out))
        out = out.view(batch_size, -1, self.output_size)[:, -1]
        return out, hidden

    def init_hidden(self, batch_size: int):
        weight = next(self.parameters()).data
        return (weight.new_zeros(self.n_layers, batch_size, self.hidden_dim),
                weight.new_zeros(self.n_layers, batch_size, self.hidden_dim))
