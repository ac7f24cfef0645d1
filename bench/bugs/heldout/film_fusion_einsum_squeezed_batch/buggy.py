import torch
from torch import nn


class AudioVisualFusion(nn.Module):
    """Scales every visual channel by an audio-derived weight."""

    def __init__(self, visual_channels: int = 32, audio_dim: int = 16) -> None:
        super().__init__()
        self.audio_proj = nn.Linear(audio_dim, visual_channels)

    def forward(self, feature_map: torch.Tensor, audio_feat: torch.Tensor) -> torch.Tensor:
        weights = torch.sigmoid(self.audio_proj(audio_feat))
        return torch.einsum("bchw,bc->bchw", feature_map, weights.squeeze())


fusion = AudioVisualFusion()
frames = torch.randn(1, 32, 14, 14)
audio = torch.randn(1, 1, 16)
print(fusion(frames, audio).shape)
