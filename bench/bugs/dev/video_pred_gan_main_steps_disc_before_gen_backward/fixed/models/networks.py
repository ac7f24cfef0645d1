import torch
import torch.nn as nn


class FramePredictor(nn.Module):
    """Encodes the observed frames, rolls a latent state forward, decodes the future frames."""

    def __init__(self, channels=1, hidden=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(channels, hidden, 3, 2, 1), nn.LeakyReLU(0.2))
        self.dynamics = nn.Conv2d(hidden, hidden, 3, 1, 1)
        self.decoder = nn.Sequential(nn.ConvTranspose2d(hidden, channels, 4, 2, 1), nn.Tanh())

    def forward(self, observed, n_future):
        h = self.encoder(observed[:, -1])
        frames = []
        for _ in range(n_future):
            h = h + 0.1 * torch.tanh(self.dynamics(h))
            frames.append(self.decoder(h))
        return torch.stack(frames, dim=1)


class SeqDiscriminator(nn.Module):
    """Scores a clip (B, T, C, H, W) as real or predicted, patch-wise over time and space."""

    def __init__(self, channels=1, hidden=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv3d(channels, hidden, (3, 4, 4), (1, 2, 2), (1, 1, 1)), nn.LeakyReLU(0.2),
            nn.Conv3d(hidden, 1, (3, 4, 4), (1, 2, 2), (1, 1, 1)),
        )

    def forward(self, clip):
        return self.net(clip.transpose(1, 2))
