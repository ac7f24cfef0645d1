import torch
import torch.nn as nn


class Polynomial(nn.Module):
    """y = sum_k c_k x^k with the coefficients as one learnable vector."""

    def __init__(self, degree=3):
        super().__init__()
        self.degree = degree
        self.coeffs = nn.Parameter(torch.zeros(degree + 1))

    def features(self, x):
        return torch.stack([x ** k for k in range(self.degree + 1)], dim=-1)

    def forward(self, x):
        return self.features(x) @ self.coeffs

    def extra_repr(self):
        return f"degree={self.degree}"
