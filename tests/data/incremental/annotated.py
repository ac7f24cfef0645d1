import torch
from jaxtyping import Float
from torch import Tensor

WIDTH = 16
OUT = 8
weights = torch.randn(WIDTH, OUT)


def project(a: Float[Tensor, "batch 16"]) -> Float[Tensor, "batch 8"]:
    return a @ weights


def widen(a: Float[Tensor, "batch 8"]) -> Float[Tensor, "batch 32"]:
    grown = torch.cat([a, a], dim=1)
    return grown


def pipeline(x: Float[Tensor, "batch 16"]) -> Float[Tensor, "batch 16"]:
    y = project(x)
    z = widen(y)
    return z


def mismatched(x: Float[Tensor, "batch 16"]):
    w = torch.randn(OUT, WIDTH)
    return x @ w


result = project(torch.randn(4, WIDTH))
wrong = project(torch.randn(4, OUT))
