import torch
from torch import nn


class RationalActivation(nn.Module):
    """Learnable rational function P(x) / (1 + |Q(x)|), initialised from the config's coefficients."""

    def __init__(self, numerator, denominator):
        super().__init__()
        self.numerator = nn.Parameter(torch.tensor(numerator))
        self.denominator = nn.Parameter(torch.tensor(denominator, dtype=torch.float32))

    @staticmethod
    def _poly(x, coeffs):
        out = torch.zeros_like(x)
        for c in reversed(coeffs):
            out = out * x + c
        return out

    def forward(self, x):
        p = self._poly(x, self.numerator)
        q = self._poly(x, self.denominator) * x
        return p / (1.0 + q.abs())

    def extra_repr(self):
        return f"degree=({len(self.numerator) - 1}, {len(self.denominator)})"
