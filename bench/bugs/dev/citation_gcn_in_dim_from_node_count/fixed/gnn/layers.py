import math

import torch
import torch.nn as nn


class GraphConvolution(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias: bool = True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None
        bound = 1.0 / math.sqrt(out_features)
        nn.init.uniform_(self.weight, -bound, bound)

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        support = x @ self.weight
        out = adj @ support
        return out + self.bias if self.bias is not None else out
