import torch.nn as nn


class BaseComponent(nn.Module):
    """A model that computes its own loss: forward(*minibatch) -> scalar loss."""

    def __init__(self, name):
        super().__init__()
        self.name = name

    def compute_loss(self, *args):
        raise NotImplementedError

    def forward(self, *minibatch):
        return self.compute_loss(*minibatch)
