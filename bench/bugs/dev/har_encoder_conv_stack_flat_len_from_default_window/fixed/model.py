import torch.nn as nn

from config import EncoderConfig
from layers import ConvStack


class HAREncoder(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.conv = ConvStack(cfg)
        flat = cfg.channels[-1] * cfg.flat_len()
        self.mlp = nn.Identity() if cfg.dim == flat else nn.Linear(flat, cfg.dim)

    def forward(self, x):
        out = self.conv(x)
        out = out.reshape(out.size(0), -1)
        return self.mlp(out)


class HARClassifier(nn.Module):
    def __init__(self, cfg: EncoderConfig, n_classes: int):
        super().__init__()
        self.encoder = HAREncoder(cfg)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(cfg.dim, n_classes))

    def forward(self, x):
        return self.head(self.encoder(x))
