import torch
import torch.nn as nn


class MultiHorizonForecaster(nn.Module):
    def __init__(self, n_features=8, hidden=32, horizons=(1, 7, 28)):
        super().__init__()
        self.encoder = nn.GRU(n_features, hidden, batch_first=True)
        self.heads = [nn.Linear(hidden, 1) for _ in horizons]

    def forward(self, history):
        _, h = self.encoder(history)
        return torch.cat([head(h[-1]) for head in self.heads], dim=1)


model = MultiHorizonForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
history = torch.randn(16, 30, 8)
targets = torch.randn(16, 3)
for epoch in range(2):
    loss = nn.functional.mse_loss(model(history), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(sum(p.numel() for p in model.parameters()), "trainable parameters")
