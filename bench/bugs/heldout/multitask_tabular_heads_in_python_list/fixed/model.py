import torch.nn as nn


class MultiTaskNet(nn.Module):
    def __init__(self, n_features, task_sizes, hidden=(64, 32), dropout=0.1):
        super().__init__()
        layers, width = [], n_features
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.task_names = list(task_sizes)
        self.heads = nn.ModuleList(nn.Linear(width, n) for n in task_sizes.values())

    def forward(self, x):
        z = self.trunk(x)
        return {name: head(z) for name, head in zip(self.task_names, self.heads)}


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def multitask_loss(outputs, targets):
    return sum(nn.functional.cross_entropy(outputs[k], targets[k]) for k in outputs)


def make_model(cfg):
    return MultiTaskNet(cfg["n_features"], cfg["tasks"])

