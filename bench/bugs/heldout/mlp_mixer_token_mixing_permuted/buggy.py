import torch
from torch import nn


class TokenMLP(nn.Module):
    """Mixes along the last axis of a (batch, channels, tokens) input, one channel row at a time."""

    def __init__(self, num_tokens: int, hidden: int) -> None:
        super().__init__()
        self.num_tokens = num_tokens
        self.mlp = nn.Sequential(nn.Linear(num_tokens, hidden), nn.GELU(), nn.Linear(hidden, num_tokens))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.view(-1, self.num_tokens)
        return self.mlp(rows).view_as(x)


class MixerBlock(nn.Module):
    def __init__(self, num_tokens: int = 16, dim: int = 32) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mix = TokenMLP(num_tokens, 64)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mix = nn.Sequential(nn.Linear(dim, 128), nn.GELU(), nn.Linear(128, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm1(x).permute(0, 2, 1)
        x = x + self.token_mix(y).permute(0, 2, 1)
        return x + self.channel_mix(self.norm2(x))


class TinyMixer(nn.Module):
    def __init__(self, patch: int = 8, dim: int = 32, num_classes: int = 10) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.Sequential(MixerBlock(16, dim), MixerBlock(16, dim))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.stem(images).flatten(2).transpose(1, 2)
        return self.head(self.blocks(x).mean(dim=1))


if __name__ == "__main__":
    model = TinyMixer()
    print(model(torch.randn(2, 3, 32, 32)).shape)
