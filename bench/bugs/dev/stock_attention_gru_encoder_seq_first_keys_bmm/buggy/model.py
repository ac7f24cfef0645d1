import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUEncoder(nn.Module):
    def __init__(self, n_features: int, hidden: int, num_layers: int = 1, dropout: float = 0.0):
        super().__init__()
        self.input_proj = nn.Linear(n_features, hidden)
        self.rnn = nn.GRU(hidden, hidden, num_layers=num_layers, dropout=dropout if num_layers > 1 else 0.0)

    def forward(self, x):
        # x: (batch, window, n_features); the GRU runs time-major
        x = torch.tanh(self.input_proj(x)).permute(1, 0, 2)
        outputs, h_n = self.rnn(x)
        return outputs, h_n


class LuongAttention(nn.Module):
    """General (bilinear) attention of a query over the encoder states."""

    def __init__(self, hidden: int):
        super().__init__()
        self.W = nn.Linear(hidden, hidden, bias=False)

    def forward(self, query, keys):
        # query: (batch, hidden), keys: (batch, window, hidden)
        scores = torch.bmm(keys, self.W(query).unsqueeze(2)).squeeze(2)
        weights = F.softmax(scores, dim=1)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)
        return context, weights


class StockForecaster(nn.Module):
    def __init__(self, n_features: int, hidden: int, num_layers: int = 1, dropout: float = 0.0):
        super().__init__()
        self.encoder = GRUEncoder(n_features, hidden, num_layers, dropout)
        self.attention = LuongAttention(hidden)
        self.head = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        enc_out, h_n = self.encoder(x)
        query = h_n[-1]
        context, _ = self.attention(query, enc_out)
        return self.head(torch.cat([context, query], dim=1)).squeeze(1)
