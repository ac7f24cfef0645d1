import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class Conv1dSubsampling(nn.Module):
    """Two strided 1-d convs over (batch, n_mels, frames): 4x fewer frames, d_model channels."""

    def __init__(self, n_mels: int, d_model: int):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, d_model, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv1d(d_model, d_model, 3, stride=2, padding=1), nn.GELU(),
        )

    def forward(self, feats: Float[Tensor, "batch n_mels frames"]) -> Float[Tensor, "batch time d_model"]:
        return self.conv(feats).transpose(1, 2)


class Encoder(nn.Module):
    def __init__(self, n_mels: int = 40, d_model: int = 32, n_layers: int = 2, vocab: int = 30):
        super().__init__()
        self.subsample = Conv1dSubsampling(n_mels, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 4, 64, dropout=0.1, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.ctc_head = nn.Linear(d_model, vocab)

    def forward(self, feats: Float[Tensor, "batch n_mels frames"]) -> Float[Tensor, "batch time vocab"]:
        return self.ctc_head(self.layers(self.subsample(feats)))
