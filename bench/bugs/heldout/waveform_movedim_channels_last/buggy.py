import torch
from torch import nn


class KeywordSpotter(nn.Module):
    def __init__(self, channels: int = 2, classes: int = 10) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(channels, 16, 9, stride=4), nn.ReLU(),
            nn.Conv1d(16, 32, 9, stride=4), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(32, classes),
        )

    def forward(self, wave: torch.Tensor) -> torch.Tensor:
        # the decoder hands us (batch, samples, channels)
        wave = torch.movedim(wave, 3, 1)
        return self.net(wave)


model = KeywordSpotter()
clips = torch.randn(4, 1600, 2)
print(model(clips).argmax(-1))
