import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, patch=4, in_ch=3, dim=32):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(patch * patch * in_ch, dim)

    def forward(self, images):
        B, C, H, W = images.shape
        p = self.patch
        patches = images.unfold(2, p, p).unfold(3, p, p)
        patches = patches.permute(0, 2, 3, 1, 4, 5).reshape(B, -1, -1)
        return self.proj(patches)


embed = PatchEmbedding()
tokens = embed(torch.randn(2, 3, 16, 16))
print(tokens.shape)
