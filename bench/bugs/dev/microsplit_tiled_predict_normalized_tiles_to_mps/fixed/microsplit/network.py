from torch import nn


class UNetLite(nn.Module):
    """Unmixes one superimposed channel into N structures (a tiny stand-in for the LVAE)."""

    def __init__(self, n_out=2, width=16):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(width, n_out, 3, padding=1))

    def forward(self, x):
        return self.up(self.mid(self.down(x)))
