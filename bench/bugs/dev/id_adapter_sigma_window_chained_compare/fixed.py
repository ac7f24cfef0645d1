import torch
from torch import nn


class DenoiserBlock(nn.Module):
    def __init__(self, dim: int = 16) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 32), nn.SiLU(), nn.Linear(32, dim))

    def forward(self, x: torch.Tensor, timesteps: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([x, timesteps[:, None]], dim=-1))


class IDAdapter(nn.Module):
    """Adds an identity embedding to the hidden state, only inside a window of noise levels."""

    def __init__(self, dim: int = 16, id_dim: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(id_dim, dim)
        self.node_data = {"sigma_start": 0.9, "sigma_end": 0.2, "weight": 1.0}

    def forward(self, hidden: torch.Tensor, id_embedding: torch.Tensor, timesteps: torch.Tensor) -> torch.Tensor:
        node_data = self.node_data
        if node_data["sigma_start"] >= timesteps[0] >= node_data["sigma_end"]:
            hidden = hidden + node_data["weight"] * self.proj(id_embedding)
        return hidden


class PatchedModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block = DenoiserBlock()
        self.adapter = IDAdapter()

    def forward(self, x, timesteps, id_embedding):
        h = self.block(x, timesteps)
        return self.adapter(h, id_embedding, timesteps)


@torch.no_grad()
def sample_euler(model: PatchedModel, x: torch.Tensor, sigmas: torch.Tensor, id_embedding: torch.Tensor) -> torch.Tensor:
    for i in range(len(sigmas) - 1):
        timesteps = sigmas[i] * x.new_ones(x.shape[0])
        denoised = model(x, timesteps, id_embedding)
        d = (x - denoised) / sigmas[i]
        x = x + d * (sigmas[i + 1] - sigmas[i])
    return x


if __name__ == "__main__":
    batch = 2
    sigmas = torch.linspace(1.0, 0.0, 6)[:-1]
    out = sample_euler(PatchedModel(), torch.randn(batch, 16), sigmas, torch.randn(batch, 8))
    print(out.shape)
