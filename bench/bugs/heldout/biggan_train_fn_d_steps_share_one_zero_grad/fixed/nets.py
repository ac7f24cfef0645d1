import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, dim_z=16, n_classes=4, out_dim=32):
        super().__init__()
        self.shared = nn.Embedding(n_classes, dim_z)
        self.net = nn.Sequential(nn.Linear(2 * dim_z, 64), nn.ReLU(), nn.Linear(64, out_dim), nn.Tanh())
        self.optim = torch.optim.Adam(self.parameters(), lr=1e-4, betas=(0.0, 0.999))

    def forward(self, z, y):
        return self.net(torch.cat([z, self.shared(y)], dim=1))


class Discriminator(nn.Module):
    def __init__(self, n_classes=4, in_dim=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU())
        self.linear = nn.Linear(64, 1)
        self.embed = nn.Embedding(n_classes, 64)
        self.optim = torch.optim.Adam(self.parameters(), lr=4e-4, betas=(0.0, 0.999))

    def forward(self, x, y):
        h = self.body(x)
        return self.linear(h) + (self.embed(y) * h).sum(1, keepdim=True)
