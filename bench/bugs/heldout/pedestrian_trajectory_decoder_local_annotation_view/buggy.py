"""Pedestrian trajectory forecasting: an LSTM encodes 8 observed steps, an MLP decodes 12 future offsets."""
import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor

OBS_LEN, PRED_LEN = 8, 12


class TrajectoryForecaster(nn.Module):
    def __init__(self, hidden: int = 64, pred_len: int = PRED_LEN):
        super().__init__()
        self.pred_len = pred_len
        self.embed = nn.Linear(2, 32)
        self.encoder = nn.LSTM(32, hidden, batch_first=True)
        self.decoder = nn.Sequential(nn.Linear(hidden, 128), nn.ReLU(), nn.Linear(128, 2 * pred_len))

    def forward(self, obs: Float[Tensor, "batch obs 2"]) -> Float[Tensor, "batch pred 2"]:
        velocity = obs[:, 1:] - obs[:, :-1]
        _, (h, _) = self.encoder(torch.relu(self.embed(velocity)))
        flat = self.decoder(h[-1])
        offsets: Float[Tensor, "batch pred 2"] = flat.view(obs.shape[0], 2, self.pred_len)
        return obs[:, -1:] + torch.cumsum(offsets, dim=1)


def ade_fde(pred: Float[Tensor, "batch pred 2"], future: Float[Tensor, "batch pred 2"]):
    dist = (pred - future).norm(dim=-1)
    return dist.mean().item(), dist[:, -1].mean().item()


def synthetic_walks(n: int):
    g = torch.Generator().manual_seed(0)
    start = torch.randn(n, 1, 2, generator=g) * 5
    vel = torch.randn(n, 1, 2, generator=g) * 0.4
    t = torch.arange(OBS_LEN + PRED_LEN, dtype=torch.float32)[None, :, None]
    path = start + vel * t + 0.05 * torch.randn(n, OBS_LEN + PRED_LEN, 2, generator=g)
    return path[:, :OBS_LEN], path[:, OBS_LEN:]


def main():
    model = TrajectoryForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    obs, future = synthetic_walks(64)
    for epoch in range(3):
        for i in range(0, len(obs), 16):
            pred = model(obs[i:i + 16])
            loss = (pred - future[i:i + 16]).norm(dim=-1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            ade, fde = ade_fde(model(obs), future)
        print(f"epoch {epoch} ADE {ade:.3f} FDE {fde:.3f}")


if __name__ == "__main__":
    main()
