import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, padding=1),
        )

    def forward(self, x):
        return x + self.body(x)


class Any2Any(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.encoder = nn.Conv2d(3, channels, 3, padding=1)
        self.bottleneck1 = nn.Sequential(ResBlock(channels), ResBlock(channels))
        self.bottleneck2 = nn.Sequential(ResBlock(channels), ResBlock(channels))
        self.bottleneck3 = nn.Sequential(ResBlock(channels), ResBlock(channels))
        self.decoder = nn.Conv2d(channels, 3, 3, padding=1)

    def forward(self, x):
        return self.decoder(self.bottleneck3(self.bottleneck2(self.bottleneck1(self.encoder(x)))))


model = Any2Any()
relit = model(torch.rand(1, 3, 32, 32))
print(relit.shape, sum(p.numel() for p in model.parameters()))
