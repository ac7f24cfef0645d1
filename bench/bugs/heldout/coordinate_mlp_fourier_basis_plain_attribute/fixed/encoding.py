import math

import torch
import torch.nn as nn


def sample_b(sigma, size):
    return torch.randn(size) * sigma


class GaussianEncoding(nn.Module):
    """Random Fourier features: gamma(v) = [cos(2 pi B v), sin(2 pi B v)]."""

    def __init__(self, sigma, input_size, encoded_size):
        super().__init__()
        self.register_buffer("b", sample_b(sigma, (encoded_size, input_size)))

    def forward(self, v):
        vp = 2 * math.pi * v @ self.b.T
        return torch.cat([torch.cos(vp), torch.sin(vp)], dim=-1)
