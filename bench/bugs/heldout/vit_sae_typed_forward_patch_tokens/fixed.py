import torch
from jaxtyping import Float
from torch import Tensor, nn


class FrozenViT(nn.Module):
    """Stands in for a pretrained ViT whose residual stream we record."""

    def __init__(self, d_vit=32, n_patches=16, patch_dim=48):
        super().__init__()
        self.embed = nn.Linear(patch_dim, d_vit)
        self.pos = nn.Parameter(torch.randn(1, n_patches, d_vit) * 0.02)
        self.block = nn.TransformerEncoderLayer(d_vit, nhead=4, dim_feedforward=64, batch_first=True)

    @torch.no_grad()
    def activations(self, patches: Float[Tensor, "batch n_patches patch_dim"]) -> Float[Tensor, "batch n_patches d_vit"]:
        return self.block(self.embed(patches) + self.pos)


class SparseAutoencoder(nn.Module):
    def __init__(self, d_vit: int = 32, d_sae: int = 128):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(d_vit, d_sae) * 0.05)
        self.b_enc = nn.Parameter(torch.zeros(d_sae))
        self.W_dec = nn.Parameter(torch.randn(d_sae, d_vit) * 0.05)
        self.b_dec = nn.Parameter(torch.zeros(d_vit))

    def forward(self, x: Float[Tensor, "batch d_vit"]) -> tuple[Float[Tensor, "batch d_vit"], Float[Tensor, "batch d_sae"]]:
        f_x = torch.relu((x - self.b_dec) @ self.W_enc + self.b_enc)
        x_hat = f_x @ self.W_dec + self.b_dec
        return x_hat, f_x


def sae_loss(x, x_hat, f_x, l1_coeff=4e-4):
    mse = (x_hat - x).pow(2).mean()
    sparsity = f_x.abs().sum(dim=-1).mean()
    return mse + l1_coeff * sparsity


def train(steps=3, batch_size=4):
    vit, sae = FrozenViT(), SparseAutoencoder()
    optimizer = torch.optim.Adam(sae.parameters(), lr=4e-4)
    for step in range(steps):
        patches = torch.randn(batch_size, 16, 48)
        acts = vit.activations(patches).flatten(0, 1)
        x_hat, f_x = sae(acts)
        loss = sae_loss(acts, x_hat, f_x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
