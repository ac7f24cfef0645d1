import torch
import torch.nn as nn
import torch.nn.functional as F

from config import InpaintConfig


class GatedConv(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, 2 * cout, 3, stride=stride, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feat, gate = self.conv(x).chunk(2, dim=1)
        return F.elu(feat) * torch.sigmoid(gate)


class ContextualAttention(nn.Module):
    """Fills the hole by attending to known background features (dense, patch size 1 for brevity)."""

    def __init__(self, cfg: InpaintConfig) -> None:
        super().__init__()
        self.size = cfg.image_size
        self.scale = cfg.softmax_scale

    def forward(self, feats: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        b, c, h, w = feats.shape
        if mask is None:
            mask = torch.zeros(b, 1, h, w, device=feats.device)
        known = 1.0 - mask
        keys = F.normalize((feats * known).flatten(2), dim=1)
        queries = F.normalize(feats.flatten(2), dim=1)
        scores = torch.einsum("bcq,bck->bqk", queries, keys) * self.scale
        attn = scores.softmax(dim=-1)
        filled = torch.einsum("bqk,bck->bcq", attn, feats.flatten(2)).view(b, c, h, w)
        return feats * known + filled * mask


class CoarseToFineGenerator(nn.Module):
    def __init__(self, cfg: InpaintConfig) -> None:
        super().__init__()
        ch = cfg.base_channels
        self.down = nn.Sequential(GatedConv(4, ch), GatedConv(ch, 2 * ch, 2), GatedConv(2 * ch, 4 * ch, 2))
        self.attention = ContextualAttention(cfg)
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2), GatedConv(4 * ch, 2 * ch),
            nn.Upsample(scale_factor=2), GatedConv(2 * ch, ch),
            nn.Conv2d(ch, 3, 3, padding=1),
        )

    def forward(self, image: torch.Tensor, hole: torch.Tensor) -> torch.Tensor:
        x = torch.cat([image * (1 - hole), hole], dim=1)
        feats = self.down(x)
        feats = self.attention(feats)
        return torch.tanh(self.up(feats))
