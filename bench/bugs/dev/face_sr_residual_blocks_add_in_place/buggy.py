import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class FaceSR(nn.Module):
    def __init__(self, n_blocks=3, channels=16, scale=2):
        super().__init__()
        self.scale = scale
        self.head = nn.Conv2d(3, channels, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(channels) for _ in range(n_blocks)])
        self.upsample = nn.Sequential(nn.Conv2d(channels, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, lr):
        feat = self.head(lr)
        feat = feat + self.body(feat)
        out = self.upsample(feat)
        out += F.interpolate(lr, scale_factor=self.scale, mode="bilinear", align_corners=False)
        return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-4)
    args = parser.parse_args([])
    torch.manual_seed(0)
    hr = torch.rand(24, 3, 32, 32)
    lr_imgs = F.avg_pool2d(hr, 2)
    loader = DataLoader(TensorDataset(lr_imgs, hr), batch_size=8, shuffle=True)
    model = FaceSR()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for lr_batch, hr_batch in loader:
            sr = model(lr_batch)
            loss = F.l1_loss(sr, hr_batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} l1 {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        preview = model(lr_imgs[:4]).clamp_(0, 1)
    print(tuple(preview.shape))


if __name__ == "__main__":
    main()
