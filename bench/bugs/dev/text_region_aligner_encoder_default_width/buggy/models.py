import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    """Bag-of-tokens text tower: mean of token embeddings through a small MLP."""

    def __init__(self, vocab_size=500, width=512, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab_size, width, padding_idx=pad_id)
        self.mlp = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.LayerNorm(width))

    def forward(self, tokens):
        keep = (tokens != self.pad_id).unsqueeze(-1).float()
        summed = (self.embed(tokens) * keep).sum(1)
        return self.mlp(summed / keep.sum(1).clamp(min=1.0))


class RegionTextAligner(nn.Module):
    def __init__(self, text_width, region_dim, embed_dim, temperature=0.07):
        super().__init__()
        self.text_proj = nn.Linear(text_width, embed_dim)
        self.region_proj = nn.Linear(region_dim, embed_dim)
        self.logit_scale = nn.Parameter(torch.tensor(1.0 / temperature).log())

    def forward(self, text_feats, region_feats):
        t = F.normalize(self.text_proj(text_feats), dim=-1)
        r = F.normalize(self.region_proj(region_feats), dim=-1)
        return self.logit_scale.exp() * r @ t.t()
