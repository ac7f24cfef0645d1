import torch
import torch.nn as nn
from jaxtyping import Bool, Float
from torch import Tensor


class FrameEncoder(nn.Module):
    """Encodes (batch, frames, coefficients) MFCC sequences into one vector per utterance."""

    def __init__(self, n_mfcc: int = 13, d_model: int = 32):
        super().__init__()
        self.proj = nn.Linear(n_mfcc, d_model)
        self.rnn = nn.GRU(d_model, d_model, batch_first=True)

    def forward(self, feats: Float[Tensor, "B T F"], mask: Bool[Tensor, "B T"]) -> Float[Tensor, "B D"]:
        h, _ = self.rnn(torch.relu(self.proj(feats)))
        keep = mask.unsqueeze(-1).float()
        return (h * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1.0)


class SpeakerHead(nn.Module):
    def __init__(self, d_model: int = 32, num_speakers: int = 6):
        super().__init__()
        self.fc = nn.Linear(d_model, num_speakers)

    def forward(self, emb: Float[Tensor, "B D"]) -> Float[Tensor, "B S"]:
        return self.fc(emb)
