import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self, n_features=1, hidden=32, horizon=1):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.out = nn.Linear(hidden, horizon)

    def forward(self, window):
        out, _ = self.lstm(window)
        return self.out(out[:, -1])


def make_windows(series, length=24):
    xs = torch.stack([series[i:i + length] for i in range(len(series) - length)])
    ys = series[length:, 0:1]
    return xs, ys


series = torch.randn(200, 5)
x, y = make_windows(series)
model = Forecaster(n_features=series.size(1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    pred = model(x)
    loss = nn.functional.l1_loss(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
