import torch
import torch.nn as nn


class TDNNClassifier(nn.Module):
    """x-vector style: dilated Conv1d frames, statistics pooling, classifier."""

    def __init__(self, in_channels: int, channels: int, embedding: int, num_classes: int):
        super().__init__()
        self.frames = nn.Sequential(
            nn.Conv1d(in_channels, channels, kernel_size=5, dilation=1), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, kernel_size=3, dilation=2), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, kernel_size=3, dilation=3), nn.ReLU(), nn.BatchNorm1d(channels),
        )
        self.embed = nn.Linear(2 * channels, embedding)
        self.classifier = nn.Linear(embedding, num_classes)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        h = self.frames(feats)
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)
        return self.classifier(torch.relu(self.embed(stats)))
