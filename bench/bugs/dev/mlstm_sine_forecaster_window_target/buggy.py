import math

import torch
from torch import nn


class mLSTMForecaster(nn.Module):
    """One sequence at a time: input (seq_len, 1, input_size), output one value per step."""

    def __init__(self, input_size: int = 1, hidden_size: int = 16, num_layers: int = 1) -> None:
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size, num_layers)
        self.head = nn.Linear(hidden_size, 1)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(seq)
        return self.head(out).squeeze(1)


def create_windows(series: torch.Tensor, seq_length: int):
    xs, ys = [], []
    for i in range(len(series) - seq_length):
        xs.append(series[i : i + seq_length].view(seq_length, 1, 1))
        ys.append(series[i + seq_length].view(1, 1))
    return xs, ys


def train(seq_length: int = 10, epochs: int = 2) -> None:
    t = torch.linspace(0, 4 * math.pi, 60)
    series = torch.sin(t)
    xs, ys = create_windows(series, seq_length)
    model = mLSTMForecaster()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = 0.0
        for x_seq, y_true in zip(xs, ys):
            y_pred = model(x_seq)
            loss += criterion(y_pred, y_true)
        loss = loss / len(xs)
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    train()
