import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAttention(nn.Module):
    """Self attention that ignores tokens whose pixels were masked out of the input."""

    def __init__(self, dim, heads=2):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, token_mask):
        b, n, c = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        attn.masked_fill_(~token_mask[:, None, None, :], 0.0)
        out = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.proj(out)


class MaskedDenoiser(nn.Module):
    def __init__(self, patch=4, dim=24):
        super().__init__()
        self.patch = patch
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.attn = MaskedAttention(dim)
        self.unembed = nn.ConvTranspose2d(dim, 3, patch, stride=patch)

    def forward(self, img, pixel_mask):
        tokens = self.embed(img * pixel_mask)
        b, c, h, w = tokens.shape
        token_mask = F.max_pool2d(pixel_mask[:, :1], self.patch).flatten(1) > 0
        seq = tokens.flatten(2).transpose(1, 2)
        seq = seq + self.attn(seq, token_mask)
        return self.unembed(seq.transpose(1, 2).reshape(b, c, h, w))


def train(steps=3, mask_ratio=0.75):
    model = MaskedDenoiser()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        clean = torch.rand(2, 3, 32, 32)
        noisy = clean + 0.05 * torch.randn_like(clean)
        pixel_mask = (torch.rand(2, 1, 32, 32) > mask_ratio).float().expand(-1, 3, -1, -1)
        loss = F.l1_loss(model(noisy, pixel_mask), clean)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
