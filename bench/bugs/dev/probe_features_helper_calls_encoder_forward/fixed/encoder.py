import torch.nn as nn


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=16, dim=32, n_layers=3):
        super().__init__()
        self.proj = nn.Linear(n_mels, dim)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)
            for _ in range(n_layers)
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, mels):
        h = self.proj(mels)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)
