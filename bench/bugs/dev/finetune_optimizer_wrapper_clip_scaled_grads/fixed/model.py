import torch
import torch.nn as nn


class TinyDenoiser(nn.Module):
    """Predicts the noise added to a latent, conditioned on a timestep embedding."""

    def __init__(self, channels=4, hidden=32, t_dim=16):
        super().__init__()
        self.t_embed = nn.Sequential(nn.Linear(1, t_dim), nn.SiLU(), nn.Linear(t_dim, hidden))
        self.inp = nn.Conv2d(channels, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, x, t):
        h = torch.relu(self.inp(x)) + self.t_embed(t[:, None].float())[:, :, None, None]
        return self.out(torch.relu(self.mid(h)))
