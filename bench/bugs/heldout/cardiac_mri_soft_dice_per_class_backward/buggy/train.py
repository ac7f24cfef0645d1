import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from losses import SoftDiceLoss

STRUCTURES = ["background", "rv", "myo", "lv"]


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.InstanceNorm2d(cout), nn.LeakyReLU(0.01))


class SmallUNet(nn.Module):
    def __init__(self, n_classes=len(STRUCTURES), base=16):
        super().__init__()
        self.enc1, self.enc2 = block(1, base), block(base, 2 * base)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec = block(3 * base, base)
        self.out = nn.Conv2d(base, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(nn.functional.max_pool2d(e1, 2))
        return self.out(self.dec(torch.cat([self.up(e2), e1], dim=1)))


def synthetic_slices(n=32, size=48):
    g = torch.Generator().manual_seed(0)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    r = ((yy - size / 2) ** 2 + (xx - size / 2) ** 2).sqrt()
    mask = torch.zeros(size, size, dtype=torch.long)
    mask[r < 14], mask[r < 10], mask[(r < 8) & (xx < size / 2 - 2)] = 1, 2, 3
    masks = mask.repeat(n, 1, 1)
    images = masks.float().unsqueeze(1) / 3 + 0.2 * torch.randn(n, 1, size, size, generator=g)
    return TensorDataset(images, masks)


def main():
    loader = DataLoader(synthetic_slices(), batch_size=8, shuffle=True)
    model = SmallUNet()
    dice = SoftDiceLoss(len(STRUCTURES))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for images, masks in loader:
            per_class = dice(model(images), masks)
            optimizer.zero_grad()
            per_class.backward()
            optimizer.step()
        scores = ", ".join(f"{name} {1 - d:.3f}" for name, d in zip(STRUCTURES[1:], per_class.tolist()))
        print(f"epoch {epoch} dice: {scores}")


if __name__ == "__main__":
    main()
