import math

import torch
import torch.nn as nn


class SinusoidalTimeEmbedding(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
        args = t.float()[:, None] * freqs[None, :]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, data_dim=2, dim=32):
        super().__init__()
        self.time = SinusoidalTimeEmbedding(dim)
        self.net = nn.Sequential(nn.Linear(data_dim + dim, 64), nn.SiLU(), nn.Linear(64, data_dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.time(t)], dim=-1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Denoiser().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x0 = torch.randn(64, 2, device=device)
t = torch.randint(0, 1000, (64,), device=device)
noise = torch.randn_like(x0)
loss = nn.functional.mse_loss(model(x0 + noise, t), noise)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
