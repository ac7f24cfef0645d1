import torch
import torch.nn as nn


class MultiTaskNet(nn.Module):
    """Shared trunk and one softmax classifier per task."""

    def __init__(self, input_features: int, num_classes: list[int], hidden: int = 64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(input_features, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.classifiers = []
        for n in num_classes:
            self.classifiers.append(nn.Linear(hidden, n))

    def forward(self, batch_in: torch.Tensor) -> list[torch.Tensor]:
        shared = self.trunk(batch_in)
        return [clf(shared) for clf in self.classifiers]
