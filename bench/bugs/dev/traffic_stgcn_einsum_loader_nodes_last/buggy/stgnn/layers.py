import torch
import torch.nn as nn

from stgnn.graph import propagate


class GraphConv(nn.Module):
    def __init__(self, c_in: int, c_out: int, order: int = 2) -> None:
        super().__init__()
        self.order = order
        self.mlp = nn.Conv2d(c_in * (order + 1), c_out, kernel_size=1)

    def forward(self, x: torch.Tensor, support: torch.Tensor) -> torch.Tensor:
        out = [x]
        h = x
        for _ in range(self.order):
            h = propagate(h, support)
            out.append(h)
        return self.mlp(torch.cat(out, dim=1))


class STBlock(nn.Module):
    def __init__(self, c_in: int, c_hidden: int) -> None:
        super().__init__()
        self.temporal = nn.Conv2d(c_in, c_hidden, kernel_size=(3, 1), padding=(1, 0))
        self.gconv = GraphConv(c_hidden, c_hidden)
        self.norm = nn.BatchNorm2d(c_hidden)

    def forward(self, x: torch.Tensor, support: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.temporal(x))
        return self.norm(self.gconv(h, support))
