import torch
import torch.nn as nn

from config import FusionConfig


def lengths_to_padding_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
    positions = torch.arange(max_len, device=lengths.device)
    return positions[None, :] >= lengths[:, None]


class CrossModalBlock(nn.Module):
    """Text tokens attend to audio frames."""

    def __init__(self, cfg: FusionConfig) -> None:
        super().__init__()
        self.text_proj = nn.Linear(cfg.text_dim, cfg.d_model)
        self.audio_proj = nn.Linear(cfg.audio_dim, cfg.d_model)
        self.attn = nn.MultiheadAttention(cfg.d_model, cfg.heads, batch_first=True)
        self.norm = nn.LayerNorm(cfg.d_model)

    def forward(self, text: torch.Tensor, audio: torch.Tensor, audio_lengths: torch.Tensor) -> torch.Tensor:
        q = self.text_proj(text)
        kv = self.audio_proj(audio)
        pad = lengths_to_padding_mask(audio_lengths, audio.size(1))
        fused, _ = self.attn(q, kv, kv, key_padding_mask=pad)
        return self.norm(q + fused)


class SentimentRegressor(nn.Module):
    def __init__(self, cfg: FusionConfig) -> None:
        super().__init__()
        self.block = CrossModalBlock(cfg)
        self.out = nn.Linear(cfg.d_model, 1)

    def forward(self, text, audio, audio_lengths):
        h = self.block(text, audio, audio_lengths)
        return self.out(h.mean(dim=1)).squeeze(-1)
