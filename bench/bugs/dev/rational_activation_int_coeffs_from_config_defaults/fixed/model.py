from torch import nn

from layers import RationalActivation


class RationalMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        layers, width = [], cfg["in_features"]
        for _ in range(cfg["depth"]):
            layers.append(nn.Linear(width, cfg["hidden"]))
            layers.append(RationalActivation(cfg["numerator"], cfg["denominator"]))
            width = cfg["hidden"]
        layers.append(nn.Linear(width, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)
