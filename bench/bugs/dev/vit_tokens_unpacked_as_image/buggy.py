import torch
import torch.nn as nn


class ConvStem(nn.Module):
    def __init__(self, dim=32, patch=4):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class TokenUpsampler(nn.Module):
    """Turns ViT tokens back into a feature map for a segmentation head."""

    def __init__(self, dim=32, classes=5):
        super().__init__()
        self.head = nn.Conv2d(dim, classes, 1)

    def forward(self, tokens, grid):
        B, C, H, W = tokens.shape
        fmap = tokens.transpose(1, 2).reshape(B, C, grid, grid)
        return nn.functional.interpolate(self.head(fmap), scale_factor=4, mode="bilinear")


stem, up = ConvStem(), TokenUpsampler()
images = torch.randn(2, 3, 32, 32)
masks = up(stem(images), grid=8)
print(masks.shape)
