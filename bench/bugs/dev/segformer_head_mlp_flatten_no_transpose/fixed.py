import argparse

import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    """Linear embedding of a feature map's pixels, as in SegFormer's all-MLP decoder."""

    def __init__(self, input_dim: int, embed_dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(input_dim, embed_dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.flatten(2).transpose(1, 2)
        return self.proj(x)


class TinyBackbone(nn.Module):
    def __init__(self, widths=(32, 64, 128)) -> None:
        super().__init__()
        stages, c_in = [], 3
        for c_out in widths:
            stages.append(nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()))
            c_in = c_out
        self.stages = nn.ModuleList(stages)

    def forward(self, x: torch.Tensor) -> list:
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class SegHead(nn.Module):
    def __init__(self, in_channels=(32, 64, 128), embed_dim: int = 64, num_classes: int = 5) -> None:
        super().__init__()
        self.linears = nn.ModuleList(MLP(c, embed_dim) for c in in_channels)
        self.fuse = nn.Conv2d(embed_dim * len(in_channels), embed_dim, 1)
        self.classifier = nn.Conv2d(embed_dim, num_classes, 1)

    def forward(self, feats: list) -> torch.Tensor:
        n, _, h, w = feats[0].shape
        ups = []
        for feat, mlp in zip(feats, self.linears):
            e = mlp(feat).permute(0, 2, 1).reshape(n, -1, feat.shape[2], feat.shape[3])
            ups.append(F.interpolate(e, size=(h, w), mode="bilinear", align_corners=False))
        return self.classifier(self.fuse(torch.cat(ups, dim=1)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--classes", type=int, default=5)
    args = parser.parse_args([])
    backbone, head = TinyBackbone(), SegHead(num_classes=args.classes)
    params = list(backbone.parameters()) + list(head.parameters())
    optimizer = torch.optim.AdamW(params, lr=6e-5)
    images = torch.randn(2, 3, args.size, args.size)
    masks = torch.randint(0, args.classes, (2, args.size, args.size))
    for step in range(2):
        logits = head(backbone(images))
        logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
        loss = F.cross_entropy(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
