import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, latent_dim, hidden, image_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(latent_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, image_dim)
        )

    def forward(self, z):
        return self.net(z)
