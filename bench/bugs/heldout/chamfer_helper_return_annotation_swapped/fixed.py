import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


def pairwise_distances(x: Float[Tensor, "n d"], y: Float[Tensor, "m d"]) -> Float[Tensor, "n m"]:
    return torch.cdist(x, y)


def chamfer(pred: Float[Tensor, "n 3"], target: Float[Tensor, "m 3"]) -> Float[Tensor, ""]:
    d = pairwise_distances(pred, target)
    return d.min(dim=1).values.mean() + d.min(dim=0).values.mean()


class PointDecoder(nn.Module):
    def __init__(self, latent=16, n_points=24):
        super().__init__()
        self.n_points = n_points
        self.net = nn.Sequential(nn.Linear(latent, 64), nn.ReLU(), nn.Linear(64, n_points * 3))

    def forward(self, z: Float[Tensor, "latent"]) -> Float[Tensor, "p 3"]:
        return self.net(z).view(self.n_points, 3)


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = PointDecoder()
    opt = torch.optim.Adam(decoder.parameters(), lr=1e-2)
    target = torch.rand(40, 3)
    z = torch.randn(16)
    for step in range(3):
        loss = chamfer(decoder(z), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
