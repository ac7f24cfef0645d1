import torch.nn as nn


class CompactSR(nn.Module):
    def __init__(self, scale=2, feat=16, n_body=3):
        super().__init__()
        body = [nn.Conv2d(3, feat, 3, padding=1), nn.PReLU(feat)]
        for _ in range(n_body):
            body += [nn.Conv2d(feat, feat, 3, padding=1), nn.PReLU(feat)]
        body += [nn.Conv2d(feat, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale)]
        self.body = nn.Sequential(*body)
        self.up = nn.Upsample(scale_factor=scale, mode="nearest")

    def forward(self, x):
        return self.body(x) + self.up(x)
