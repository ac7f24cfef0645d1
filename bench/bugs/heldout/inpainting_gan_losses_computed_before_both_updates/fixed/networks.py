import torch
import torch.nn as nn


class ContextEncoder(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.encode = nn.Sequential(
            nn.Conv2d(3, ch, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(ch, 2 * ch, 4, 2, 1), nn.BatchNorm2d(2 * ch), nn.LeakyReLU(0.2)
        )
        self.decode = nn.Sequential(
            nn.ConvTranspose2d(2 * ch, ch, 4, 2, 1), nn.BatchNorm2d(ch), nn.ReLU(), nn.ConvTranspose2d(ch, 3, 4, 2, 1), nn.Tanh()
        )

    def forward(self, masked):
        return self.decode(self.encode(masked))


class PatchDiscriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(ch, 1, 4, 2, 1))

    def forward(self, x):
        return self.net(x).flatten(1).mean(1)


def apply_center_mask(images, frac=0.5):
    h, w = images.shape[-2:]
    mh, mw = int(h * frac), int(w * frac)
    masked = images.clone()
    masked[..., (h - mh) // 2:(h + mh) // 2, (w - mw) // 2:(w + mw) // 2] = 0
    return masked, torch.zeros_like(images[:, :1]).index_fill_(2, torch.arange((h - mh) // 2, (h + mh) // 2), 1)
