import torch.nn as nn

from encoding import GaussianEncoding


class CoordinateMLP(nn.Module):
    def __init__(self, sigma=10.0, encoded_size=32, hidden=64, out_channels=3):
        super().__init__()
        self.encoding = GaussianEncoding(sigma, input_size=2, encoded_size=encoded_size)
        self.mlp = nn.Sequential(
            nn.Linear(2 * encoded_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out_channels), nn.Sigmoid()
        )

    def forward(self, coords):
        return self.mlp(self.encoding(coords))
