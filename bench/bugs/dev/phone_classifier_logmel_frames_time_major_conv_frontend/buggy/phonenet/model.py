import torch
import torch.nn as nn


class ConvFrontendClassifier(nn.Module):
    """Conv1d front end over (batch, n_mels, frames), statistics pooling over time, linear classifier."""

    def __init__(self, n_mels: int, n_classes: int, channels: int = 64, kernel: int = 5):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(n_mels, channels, kernel, padding=kernel // 2),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
            nn.Conv1d(channels, channels, kernel, padding=kernel // 2, dilation=1),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
        )
        self.classifier = nn.Linear(2 * channels, n_classes)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        h = self.frontend(feats)
        stats = torch.cat([h.mean(dim=-1), h.std(dim=-1)], dim=1)
        return self.classifier(stats)
