import torch
from torch import nn


class ChannelAttention(nn.Module):
    """Channel attention module (DANet CAM): channels attend to each other over all positions."""

    def __init__(self) -> None:
        super().__init__()
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, c, h, w = x.shape
        q = x.view(b, c, -1)
        energy = torch.einsum("bcn,bdn->bcd", q, q)
        energy = energy.max(dim=-1, keepdim=True).values.expand_as(energy) - energy
        attn = energy.softmax(dim=-1)
        out = torch.einsum("bcd,bdn->bcn", attn, q).view(b, c, h, w)
        return self.gamma * out + x


class DualHead(nn.Module):
    def __init__(self, in_channels: int, num_classes: int) -> None:
        super().__init__()
        inter = in_channels // 4
        self.reduce = nn.Sequential(nn.Conv2d(in_channels, inter, 3, padding=1, bias=False), nn.BatchNorm2d(inter), nn.ReLU())
        self.cam = ChannelAttention()
        self.cls = nn.Conv2d(inter, num_classes, 1)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.cls(self.cam(self.reduce(feats)))


def train(steps: int = 2) -> None:
    head = DualHead(in_channels=64, num_classes=4)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
    feats = torch.randn(2, 64, 16, 16)
    target = torch.randint(0, 4, (2, 16, 16))
    for step in range(steps):
        loss = nn.functional.cross_entropy(head(feats), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
