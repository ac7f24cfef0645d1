import torch
import torch.nn as nn

from config import EmbedderConfig


class FrameEncoder(nn.Module):
    def __init__(self, n_mels: int, d_model: int) -> None:
        super().__init__()
        self.proj = nn.Linear(n_mels, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.norm(torch.relu(self.proj(feats)))


class AttentivePool(nn.Module):
    """Pools a variable number of frames into one vector with a learned query."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.query = nn.Parameter(torch.randn(1, 1, d_model) * 0.02)
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)

    def forward(self, frames: torch.Tensor) -> torch.Tensor:
        query = self.query.expand(frames.size(0), -1, -1)
        pooled, _ = self.attn(query, frames, frames, need_weights=False)
        return pooled.squeeze(1)


class SpeakerEmbedder(nn.Module):
    def __init__(self, cfg: EmbedderConfig) -> None:
        super().__init__()
        self.encoder = FrameEncoder(cfg.n_mels, cfg.d_model)
        self.pool = AttentivePool(cfg.d_model, cfg.n_heads, cfg.dropout)
        self.classifier = nn.Linear(cfg.d_model, cfg.n_speakers)

    def embed(self, feats: torch.Tensor) -> torch.Tensor:
        return self.pool(self.encoder(feats))

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.embed(feats))
