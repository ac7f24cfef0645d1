import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(dim_in, hidden, dim_out):
    return nn.Sequential(nn.Linear(dim_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, dim_out))


class BYOL(nn.Module):
    def __init__(self, feat_dim=32, proj_dim=16, momentum=0.99):
        super().__init__()
        self.online_encoder = nn.Sequential(nn.Linear(48, feat_dim), nn.ReLU(), mlp(feat_dim, 64, proj_dim))
        self.predictor = mlp(proj_dim, 64, proj_dim)
        self.target_encoder = copy.deepcopy(self.online_encoder)
        for p in self.target_encoder.parameters():
            p.requires_grad_(False)
        self.momentum = momentum

    @torch.no_grad()
    def update_target(self):
        for po, pt in zip(self.online_encoder.parameters(), self.target_encoder.parameters()):
            pt.mul_(self.momentum).add_(po, alpha=1 - self.momentum)

    def forward(self, v1, v2):
        p1 = self.predictor(self.online_encoder(v1))
        p2 = self.predictor(self.online_encoder(v2))
        with torch.no_grad():
            z1, z2 = self.target_encoder(v1), self.target_encoder(v2)
        return p1, p2, z1, z2


def regression_loss(p, z):
    p = F.normalize(p, dim=-1)
    z = F.normalize(z, dim=-1)
    return 2 - 2 * (p * z).sum(dim=-1)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def train_epoch(model, optimizer, batches):
    for x in batches:
        p1, p2, z1, z2 = model(augment(x), augment(x))
        loss = regression_loss(p1, z2) + regression_loss(p2, z1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.update_target()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BYOL()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_epoch(model, optimizer, [torch.randn(8, 48) for _ in range(3)])
    print("done")
