from torch import nn


class SpamDetector(nn.Module):
    def __init__(self, n_features: int = 50) -> None:
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_features, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.layers(x)
