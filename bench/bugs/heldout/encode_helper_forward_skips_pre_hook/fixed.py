import torch
from torch import nn


class SensorEncoder(nn.Module):
    def __init__(self, n_in: int = 6, dim: int = 16) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def standardize_inputs(mean: torch.Tensor, std: torch.Tensor):
    def hook(module, args):
        (x,) = args
        return ((x - mean) / std,)
    return hook


def embed_all(encoder: SensorEncoder, readings: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return encoder(readings)


readings = torch.randn(40, 6) * 50 + 200
encoder = SensorEncoder()
encoder.register_forward_pre_hook(standardize_inputs(readings.mean(0), readings.std(0)))
emb = embed_all(encoder, readings)
print(emb.abs().mean().item())
