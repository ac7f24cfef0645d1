import torch
import torch.nn as nn

from data import LABELS, N_MFCC


class KWSNet(nn.Module):
    """1-d conv keyword spotter over MFCC frames: input (batch, n_mfcc, frames)."""

    def __init__(self, n_mfcc: int = N_MFCC, channels: int = 64, n_classes: int = len(LABELS)):
        super().__init__()
        self.norm = nn.LayerNorm(n_mfcc)
        self.conv = nn.Sequential(
            nn.Conv1d(n_mfcc, channels, kernel_size=3, padding=1),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
            nn.Conv1d(channels, channels, kernel_size=3, padding=1, stride=2),
            nn.ReLU(),
        )
        self.fc = nn.Linear(channels, n_classes)

    def forward(self, mfcc: torch.Tensor) -> torch.Tensor:
        # per-frame normalisation of the cepstral coefficients
        feats = self.norm(mfcc.transpose(1, 2)).transpose(1, 2)
        out = self.conv(feats)
        return self.fc(out.mean(dim=-1))
