import torch.nn as nn


class TinyCodec(nn.Module):
    """Strided conv encoder and transposed-conv decoder, a toy stand-in for a neural audio codec."""

    def __init__(self, channels=16, latent=8, stride=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(1, channels, 7, padding=3),
            nn.ELU(),
            nn.Conv1d(channels, latent, 2 * stride, stride=stride, padding=stride // 2),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose1d(latent, channels, 2 * stride, stride=stride, padding=stride // 2),
            nn.ELU(),
            nn.Conv1d(channels, 1, 7, padding=3),
            nn.Tanh(),
        )

    def forward(self, audio):
        return self.decoder(self.encoder(audio))
