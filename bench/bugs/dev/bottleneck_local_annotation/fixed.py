import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Linear(64, 48), nn.ReLU())
        self.to_code = nn.Linear(48, 32)
        self.up = nn.Sequential(nn.Linear(32, 48), nn.ReLU(), nn.Linear(48, 64))

    def encode(self, x: Float[Tensor, "B 64"]) -> Tensor:
        code: Float[Tensor, "B 32"] = self.to_code(self.down(x))
        return code

    def forward(self, x: Float[Tensor, "B 64"]) -> Float[Tensor, "B 64"]:
        return self.up(self.encode(x))


if __name__ == "__main__":
    ae = Autoencoder()
    x = torch.randn(10, 64)
    recon = ae(x)
    print(nn.functional.mse_loss(recon, x).item())
