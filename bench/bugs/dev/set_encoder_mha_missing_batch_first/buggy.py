import torch
import torch.nn as nn


class SetEncoder(nn.Module):
    """Encodes a padded set of point features with self-attention, then pools."""

    def __init__(self, in_dim=3, d_model=32, heads=4):
        super().__init__()
        self.embed = nn.Linear(in_dim, d_model)
        self.attn = nn.MultiheadAttention(d_model, heads, dropout=0.0)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, points, padding_mask):
        x = self.embed(points)
        attended, _ = self.attn(x, x, x, key_padding_mask=padding_mask)
        x = self.norm(x + attended)
        keep = (~padding_mask).unsqueeze(-1).float()
        return (x * keep).sum(1) / keep.sum(1)


encoder = SetEncoder()
points = torch.randn(4, 10, 3)
padding_mask = torch.zeros(4, 10, dtype=torch.bool)
padding_mask[:, 7:] = True
print(encoder(points, padding_mask).shape)
