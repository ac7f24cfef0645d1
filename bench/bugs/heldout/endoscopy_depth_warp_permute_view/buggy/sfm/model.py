import torch.nn as nn


class DepthNet(nn.Module):
    def __init__(self, base=8):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, base, 3, padding=1), nn.ReLU(),
            nn.Conv2d(base, base * 2, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Conv2d(base * 2, 1, 3, padding=1), nn.Softplus())

    def forward(self, img):
        return self.head(self.encoder(img)) + 0.1
