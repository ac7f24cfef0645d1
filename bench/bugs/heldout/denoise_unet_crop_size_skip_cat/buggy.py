from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Options:
    crop_size: int = 90
    batch_size: int = 2
    width: int = 8
    iters: int = 3
    lr: float = 2e-4


def random_crops(opt: Options):
    clean = torch.rand(opt.batch_size, 3, opt.crop_size, opt.crop_size)
    noisy = clean + 0.1 * torch.randn_like(clean)
    return noisy, clean


class UNetConvBlock(nn.Module):
    def __init__(self, in_size, out_size, downsample):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_size, out_size, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(out_size, out_size, 3, padding=1), nn.LeakyReLU(0.2),
        )
        self.downsample = nn.Conv2d(out_size, out_size, 4, stride=2, padding=1) if downsample else None

    def forward(self, x):
        out = self.conv(x)
        if self.downsample is not None:
            return self.downsample(out), out
        return out


class UNetUpBlock(nn.Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_size, out_size, kernel_size=2, stride=2)
        self.conv_block = UNetConvBlock(in_size, out_size, downsample=False)

    def forward(self, x, bridge):
        up = self.up(x)
        out = torch.cat([up, bridge], 1)
        return self.conv_block(out)


class DenoiseNet(nn.Module):
    def __init__(self, wf=8, depth=3):
        super().__init__()
        self.head = nn.Conv2d(3, wf, 3, padding=1)
        self.down = nn.ModuleList(UNetConvBlock((2 ** i) * wf, (2 ** (i + 1)) * wf, i + 1 < depth) for i in range(depth))
        self.up = nn.ModuleList(UNetUpBlock((2 ** (i + 1)) * wf, (2 ** i) * wf) for i in reversed(range(1, depth)))
        self.tail = nn.Conv2d(2 * wf, 3, 3, padding=1)

    def forward(self, x):
        image, bridges = x, []
        x = self.head(x)
        for i, down in enumerate(self.down):
            if i + 1 < len(self.down):
                x, bridge = down(x)
                bridges.append(bridge)
            else:
                x = down(x)
        for up, bridge in zip(self.up, reversed(bridges)):
            x = up(x, bridge)
        return self.tail(x) + image


def train(opt: Options):
    model = DenoiseNet(wf=opt.width)
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr)
    for it in range(opt.iters):
        noisy, clean = random_crops(opt)
        restored = model(noisy)
        loss = F.l1_loss(restored, clean)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    train(Options())
