import torch.nn as nn


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels, n_keywords, channels=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, channels, 5, padding=2), nn.ReLU(),
            nn.Conv1d(channels, channels, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(channels, n_keywords)

    def forward(self, mels):
        return self.fc(self.conv(mels).squeeze(-1))
