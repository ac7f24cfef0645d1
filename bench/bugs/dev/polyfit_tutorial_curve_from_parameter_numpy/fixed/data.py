import math

import torch


def noisy_sine(n=64, noise=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(-math.pi, math.pi, n)
    y = torch.sin(x) + noise * torch.randn(n, generator=g)
    return x, y
