import torch
import torch.nn as nn
import torch.nn.functional as F


class ProjectionHead(nn.Sequential):
    def __init__(self, in_dim, hidden_dim=512, out_dim=128):
        super().__init__(
            nn.Linear(in_dim, hidden_dim),
            nn.BatchNorm1d(hidden_dim),
            nn.ReLU(inplace=True),
            nn.Linear(hidden_dim, out_dim),
        )


class SmallEncoder(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.BatchNorm2d(width * 2), nn.ReLU(),
            nn.Conv2d(width * 2, width * 4, 3, stride=2, padding=1), nn.BatchNorm2d(width * 4), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )

    def forward(self, x):
        return self.body(x).flatten(1)


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    n = z1.size(0)
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def augment(x):
    return x.flip(-1) + 0.05 * torch.randn_like(x)


encoder = SmallEncoder(width=64)
projector = ProjectionHead(in_dim=256)
params = list(encoder.parameters()) + list(projector.parameters())
optimizer = torch.optim.SGD(params, lr=0.3, momentum=0.9)

images = torch.rand(16, 3, 32, 32)
for step in range(2):
    h1, h2 = encoder(augment(images)), encoder(augment(images))
    z1 = projector(h1)
    z2 = projector(h2)
    loss = nt_xent(z1, z2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
