import torch
import torch.nn as nn


class SetAttentionBlock(nn.Module):
    def __init__(self, d_model: int = 32, nhead: int = 4, dropout: float = 0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor) -> torch.Tensor:
        h, _ = self.attn(x, x, x, key_padding_mask=pad_mask)
        x = self.norm1(x + h)
        return self.norm2(x + self.ff(x))


class PointSetClassifier(nn.Module):
    def __init__(self, in_dim: int = 3, d_model: int = 32, nhead: int = 4, num_classes: int = 5):
        super().__init__()
        self.embed = nn.Linear(in_dim, d_model)
        self.block = SetAttentionBlock(d_model, nhead)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, points: torch.Tensor, pad_mask: torch.Tensor) -> torch.Tensor:
        h = self.block(self.embed(points), pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1.0)
        return self.head(pooled)
