import math

import torch
import torch.nn as nn


class mLSTMCell(nn.Module):
    """Matrix-memory LSTM cell (xLSTM), one step at a time."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.W_q = nn.Linear(input_size, hidden_size)
        self.W_k = nn.Linear(input_size, hidden_size)
        self.W_v = nn.Linear(input_size, hidden_size)
        self.W_i = nn.Linear(input_size, 1)
        self.W_f = nn.Linear(input_size, 1)
        self.W_o = nn.Linear(input_size, hidden_size)

    def forward(self, x, state):
        C, n = state
        q, k, v = self.W_q(x), self.W_k(x) / math.sqrt(self.hidden_size), self.W_v(x)
        i, f = torch.exp(self.W_i(x)), torch.sigmoid(self.W_f(x))
        C = f.unsqueeze(-1) * C + i.unsqueeze(-1) * (v.unsqueeze(-1) @ k.unsqueeze(-2))
        n = f * n + i * k
        h_tilde = (C @ q.unsqueeze(-1)).squeeze(-1) / (n * q).sum(-1, keepdim=True).abs().clamp(min=1.0)
        return torch.sigmoid(self.W_o(x)) * h_tilde, (C, n)


class mLSTMRegressor(nn.Module):
    def __init__(self, input_size=1, hidden_size=8):
        super().__init__()
        self.cell = mLSTMCell(input_size, hidden_size)
        self.head = nn.Linear(hidden_size, 1)

    def forward(self, seq):
        # seq: (seq_len, input_size), one series at a time
        hs = self.cell.hidden_size
        state = (torch.zeros(1, hs, hs), torch.zeros(1, hs))
        outputs = []
        for x_t in seq:
            h, state = self.cell(x_t.unsqueeze(0), state)
            outputs.append(self.head(h))
        return torch.cat(outputs, dim=0)


def make_sine_windows(n=4, seq_len=10):
    t = torch.linspace(0, 8 * math.pi, n + seq_len + 1)
    series = torch.sin(t).unsqueeze(-1)
    return [(series[i:i + seq_len], series[i + seq_len].view(1, 1)) for i in range(n)]


def train(epochs=2):
    model = mLSTMRegressor()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    data = make_sine_windows()
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = 0.0
        for seq, y_true in data:
            y_pred = model(seq)
            loss += criterion(y_pred, y_true)
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    train()
