import torch
import torch.nn as nn


class Conv1dSubsampler(nn.Module):
    """Two strided convolutions over time: (batch, n_mels, frames) -> (batch, d_model, frames / 4)."""

    def __init__(self, n_mels, d_model):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv1d(n_mels, d_model, 3, stride=2, padding=1), nn.GLU(dim=1),
            nn.Conv1d(d_model // 2, d_model, 3, stride=2, padding=1), nn.GLU(dim=1),
        )
        self.proj = nn.Conv1d(d_model // 2, d_model, 1)

    def forward(self, mels):
        return self.proj(self.layers(mels))

    @staticmethod
    def output_lengths(lengths):
        for _ in range(2):
            lengths = torch.div(lengths - 1, 2, rounding_mode="floor") + 1
        return lengths
