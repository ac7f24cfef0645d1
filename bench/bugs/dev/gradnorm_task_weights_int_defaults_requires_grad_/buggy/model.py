from torch import nn


class HardSharingNet(nn.Module):
    def __init__(self, in_features, shared_dim, tasks):
        super().__init__()
        self.shared = nn.Linear(in_features, shared_dim)
        self.act = nn.ReLU()
        self.heads = nn.ModuleDict({t: nn.Linear(shared_dim, 1) for t in tasks})

    def forward(self, x):
        h = self.act(self.shared(x))
        return {t: head(h) for t, head in self.heads.items()}
