"""A two-stage window-attention classifier (Swin-style, no shifting) on small images."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.view(b, h // ws, ws, w // ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws * ws, c)


def window_reverse(windows, ws, h, w):
    b = windows.shape[0] // ((h // ws) * (w // ws))
    x = windows.view(b, h // ws, w // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b_, n, c = x.shape
        qkv = self.qkv(x).reshape(b_, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        x = (attn.softmax(dim=-1) @ v).transpose(1, 2).reshape(b_, n, c)
        return self.proj(x)


class SwinBlock(nn.Module):
    def __init__(self, dim, heads, ws):
        super().__init__()
        self.ws = ws
        self.norm1, self.attn = nn.LayerNorm(dim), WindowAttention(dim, heads)
        self.norm2, self.mlp = nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        b, h, w, c = x.shape
        windows = self.attn(window_partition(self.norm1(x), self.ws))
        x = x + window_reverse(windows, self.ws, h, w)
        return x + self.mlp(self.norm2(x))


class TinySwin(nn.Module):
    def __init__(self, n_classes=10, dim=32, ws=4):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 2, stride=2)
        self.stage1 = SwinBlock(dim, 2, ws)
        self.merge = nn.Linear(4 * dim, 2 * dim)
        self.stage2 = SwinBlock(2 * dim, 4, ws)
        self.head = nn.Linear(2 * dim, n_classes)

    def forward(self, img):
        x = self.stage1(self.patch(img).permute(0, 2, 3, 1))
        x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], dim=-1)
        x = self.stage2(self.merge(x))
        return self.head(x.mean(dim=(1, 2)))


if __name__ == "__main__":
    model = TinySwin()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    images, labels = torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))
    for step in range(3):
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.3f}")
