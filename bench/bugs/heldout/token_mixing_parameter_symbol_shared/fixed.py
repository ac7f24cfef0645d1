import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class LearnedTokenMixer(nn.Module):
    def __init__(self, num_tokens: int, dim: int) -> None:
        super().__init__()
        self.mix: Float[Tensor, "N N"] = nn.Parameter(torch.eye(num_tokens) + 0.01 * torch.randn(num_tokens, num_tokens))
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens: Float[Tensor, "B N D"]) -> Float[Tensor, "B N D"]:
        mixed = self.mix @ self.norm(tokens)
        return tokens + mixed


mixer = LearnedTokenMixer(num_tokens=16, dim=24)
out = mixer(torch.randn(2, 16, 24))
out.sum().backward()
print(out.shape, mixer.mix.grad.shape)
