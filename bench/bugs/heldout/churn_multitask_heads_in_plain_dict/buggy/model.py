import torch.nn as nn


def mlp(widths, dropout=0.1):
    layers = []
    for a, b in zip(widths[:-1], widths[1:]):
        layers += [nn.Linear(a, b), nn.ReLU(), nn.Dropout(dropout)]
    return nn.Sequential(*layers)


class MultiTaskNet(nn.Module):
    def __init__(self, n_features, shared, tasks):
        super().__init__()
        self.trunk = mlp([n_features] + list(shared))
        self.heads = {}
        for name, n_classes in tasks.items():
            self.heads[name] = nn.Linear(shared[-1], n_classes)

    def forward(self, x):
        h = self.trunk(x)
        return {name: head(h) for name, head in self.heads.items()}
