import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, in_dim=64, latent=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, latent))

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, latent=8, out_dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, z):
        return self.net(z)
