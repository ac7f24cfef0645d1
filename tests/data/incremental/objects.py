"""Shapes that cross function and class boundaries: constructor defaults, a config object, layers from a helper
and a loop, a method called on an attribute, a model handed to a function typed with its class."""

from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 100
    width: int = 32
    depth: int = 2
    classes: int = 10


def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers.append(nn.Linear(a, b))
        layers.append(nn.ReLU())
    return nn.Sequential(*layers[:-1])


class Head(nn.Module):
    def __init__(self, width, classes):
        super().__init__()
        self.proj = nn.Linear(width, classes)

    def forward(self, h):
        return self.proj(h)

    def loss(self, h, target):
        return F.cross_entropy(self(h), target)


class Model(nn.Module):
    def __init__(self, config=Config()):
        super().__init__()
        self.embed = nn.Embedding(config.vocab, config.width)
        self.blocks = nn.ModuleList([nn.Linear(config.width, config.width) for _ in range(config.depth)])
        self.head = Head(config.width, config.classes)

    def forward(self, tokens):
        h = self.embed(tokens)
        for block in self.blocks:
            h = torch.relu(block(h))
        return self.head(h.mean(dim=1))


def evaluate(model: Model, tokens):
    logits = model(tokens)
    return logits.argmax(dim=-1)


def features(x):
    return x.transpose(1, 2).view(x.shape[0], -1)


model = Model()
tokens = torch.randint(0, 100, (4, 16))
logits = model(tokens)
predicted = evaluate(model, tokens)
wrong = model.head(torch.randn(4, 16))
loss = model.head.loss(torch.randn(4, 32), torch.randint(0, 10, (4,)))
net = mlp([8, 16, 4])
out = net(torch.randn(2, 6))
flat = features(torch.randn(2, 3, 5))
