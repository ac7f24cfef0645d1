import torch.nn as nn


class ShallowNet(nn.Module):
    """One hidden tanh layer and a single logit, as in the course's planar classification exercise."""

    def __init__(self, n_x: int = 2, n_h: int = 4):
        super().__init__()
        self.hidden = nn.Linear(n_x, n_h)
        self.out = nn.Linear(n_h, 1)
        nn.init.normal_(self.hidden.weight, std=0.01)
        nn.init.zeros_(self.hidden.bias)

    def forward(self, x):
        return self.out(self.hidden(x).tanh())
