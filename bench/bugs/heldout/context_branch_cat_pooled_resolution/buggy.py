import torch
import torch.nn as nn
import torch.nn.functional as F


class DynamicConvBlock(nn.Module):
    """Depthwise conv on the main path, fused with a coarse context map."""

    def __init__(self, dim: int, ctx_dim: int):
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, kernel_size=3, padding=1, groups=dim)
        self.fuse = nn.Conv2d(dim + ctx_dim, dim, kernel_size=1)
        self.norm = nn.BatchNorm2d(dim)

    def forward(self, x: torch.Tensor, ctx: torch.Tensor) -> torch.Tensor:
        h = torch.cat([self.dw(x), ctx], dim=1)
        return x + self.norm(self.fuse(h))


class OverviewNet(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, kernel_size=3, stride=2), nn.BatchNorm2d(32), nn.GELU())
        self.down = nn.Sequential(nn.Conv2d(32, 64, kernel_size=3, stride=2, padding=1), nn.BatchNorm2d(64), nn.GELU())
        self.ctx_proj = nn.Conv2d(32, 16, kernel_size=1)
        self.block = DynamicConvBlock(64, 16)
        self.head = nn.Linear(64, num_classes)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        feat = self.stem(img)
        ctx = self.ctx_proj(F.avg_pool2d(feat, 2))
        x = self.down(feat)
        x = self.block(x, ctx)
        return self.head(x.mean(dim=(2, 3)))


def main() -> None:
    torch.manual_seed(0)
    model = OverviewNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    images = torch.randn(16, 3, 72, 72)
    labels = torch.randint(0, 10, (16,))
    for step in range(3):
        for i in range(0, len(images), 8):
            logits = model(images[i : i + 8])
            loss = F.cross_entropy(logits, labels[i : i + 8])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
