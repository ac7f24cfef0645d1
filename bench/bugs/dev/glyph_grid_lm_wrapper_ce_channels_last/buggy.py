import torch
import torch.nn.functional as F
from torch import nn


class GridTransformer(nn.Module):
    """Predicts a token per cell of an (h, w) glyph grid; logits come out as (b, num_tokens, h, w)."""

    def __init__(self, num_tokens: int = 64, dim: int = 32, heads: int = 4, depth: int = 2) -> None:
        super().__init__()
        self.num_tokens = num_tokens
        self.token_emb = nn.Embedding(num_tokens, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.to_logits = nn.Conv2d(dim, num_tokens, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, h, w = x.shape
        tokens = self.token_emb(x).view(b, h * w, -1)
        tokens = self.encoder(tokens)
        grid = tokens.transpose(1, 2).reshape(b, -1, h, w)
        return self.to_logits(grid)


class AutoregressiveWrapper(nn.Module):
    def __init__(self, net: GridTransformer, mask_prob: float = 0.15) -> None:
        super().__init__()
        self.net = net
        self.mask_prob = mask_prob

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        labels = x.clone()
        mask = torch.rand(x.shape) < self.mask_prob
        x_in = x.masked_fill(mask, 0)
        logits = self.net(x_in)
        return F.cross_entropy(logits.permute(0, 2, 3, 1), labels)


def train(steps: int = 2, batch: int = 4, grid: int = 12) -> None:
    model = AutoregressiveWrapper(GridTransformer())
    optim = torch.optim.Adam(model.parameters(), lr=3e-4)
    for i in range(steps):
        batch_grid = torch.randint(0, 64, (batch, grid, grid))
        loss = model(batch_grid)
        optim.zero_grad()
        loss.backward()
        optim.step()
        print(f"training loss: {loss.item():.4f}")


if __name__ == "__main__":
    train()
