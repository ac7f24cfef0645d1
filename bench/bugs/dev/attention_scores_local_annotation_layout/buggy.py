import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class MultiHead(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def attention_map(self, x: Float[Tensor, "B T D"]) -> Tensor:
        b, t, _ = x.shape
        q = self.q(x).view(b, t, self.heads, self.head_dim)
        k = self.k(x).view(b, t, self.heads, self.head_dim)
        scores: Float[Tensor, "B H T T"] = q @ k.transpose(-1, -2) / self.head_dim ** 0.5
        return scores.softmax(dim=-1)


layer = MultiHead()
maps = layer.attention_map(torch.randn(2, 6, 32))
print(maps.shape)
