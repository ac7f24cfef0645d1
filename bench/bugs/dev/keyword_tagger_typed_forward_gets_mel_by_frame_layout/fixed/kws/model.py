import torch.nn as nn
from jaxtyping import Bool, Float
from torch import Tensor


class KeywordTagger(nn.Module):
    def __init__(self, n_mels: int = 40, d_model: int = 64, n_keywords: int = 8, dropout: float = 0.1):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(n_mels, d_model), nn.GELU(), nn.LayerNorm(d_model))
        self.score = nn.Linear(d_model, 1)
        self.classifier = nn.Sequential(nn.Dropout(dropout), nn.Linear(d_model, n_keywords))

    def forward(self, mels: Float[Tensor, "B T M"], mask: Bool[Tensor, "B T"]) -> Float[Tensor, "B K"]:
        h = self.proj(mels)
        scores = self.score(h).squeeze(-1).masked_fill(~mask, float("-inf"))
        weights = scores.softmax(dim=-1).unsqueeze(-1)
        return self.classifier((weights * h).sum(dim=1))
