import torch
import torch.nn as nn


class M5(nn.Module):
    """Raw-waveform CNN (Dai et al. 2017, 'M5')."""

    def __init__(self, n_classes: int, width: int = 32, stride: int = 16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, width, kernel_size=80, stride=stride), nn.BatchNorm1d(width), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(width, width, 3), nn.BatchNorm1d(width), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(width, 2 * width, 3), nn.BatchNorm1d(2 * width), nn.ReLU(), nn.MaxPool1d(4),
        )
        self.fc = nn.Linear(2 * width, n_classes)

    def forward(self, wave: torch.Tensor) -> torch.Tensor:
        h = self.features(wave)
        return self.fc(h.mean(dim=-1))
