import torch
import torch.nn as nn
import torch.nn.functional as F


class LatentCrossAttention(nn.Module):
    def __init__(self, latent_dim: int = 64, input_dim: int = 16, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.dim_head = latent_dim // heads
        self.to_q = nn.Linear(latent_dim, latent_dim, bias=False)
        self.to_kv = nn.Linear(input_dim, 2 * latent_dim, bias=False)
        self.to_out = nn.Linear(latent_dim, latent_dim)

    def forward(self, latents: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
        b, n, _ = latents.shape
        q = self.to_q(latents).view(b, n, self.heads, self.dim_head).transpose(1, 2)
        k, v = self.to_kv(inputs).chunk(2, dim=-1)
        k = k.reshape(b, -1, self.heads, self.dim_head).transpose(1, 2)
        v = v.reshape(b, -1, self.heads, self.dim_head).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1) * self.dim_head**-0.5).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).view(b, n, -1)
        return self.to_out(out)


class PerceiverRegressor(nn.Module):
    def __init__(self, num_latents: int = 8, latent_dim: int = 64, input_dim: int = 16):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim) * 0.02)
        self.cross = LatentCrossAttention(latent_dim, input_dim)
        self.norm = nn.LayerNorm(latent_dim)
        self.head = nn.Linear(latent_dim, 1)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        latents = self.latents.expand(inputs.size(0), -1, -1)
        latents = latents + self.cross(self.norm(latents), inputs)
        return self.head(latents.mean(dim=1)).squeeze(-1)


def main() -> None:
    torch.manual_seed(0)
    model = PerceiverRegressor()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    inputs = torch.randn(32, 20, 16)
    targets = inputs.sum(dim=(1, 2)) / 20
    for epoch in range(3):
        perm = torch.randperm(len(inputs))
        for i in range(0, len(inputs), 8):
            idx = perm[i : i + 8]
            loss = F.mse_loss(model(inputs[idx]), targets[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
