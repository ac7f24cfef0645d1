"""Discriminator for 64x64 sprites, layer widths read from a list."""
import torch
from torch import nn

IMAGE_SIZE = 64
CHANNELS = (64, 128, 256)


class Discriminator(nn.Module):
    def __init__(self, nc=3, widths=CHANNELS):
        super().__init__()
        blocks = []
        c_in = nc
        for i, c_out in enumerate(widths):
            blocks.append(nn.Conv2d(c_in, c_out, 4, stride=2, padding=1, bias=i == 0))
            if i > 0:
                blocks.append(nn.BatchNorm2d(c_out))
            blocks.append(nn.LeakyReLU(0.2, inplace=True))
            c_in = c_out
        self.conv = nn.Sequential(*blocks)
        # three stride-2 convs: 32 -> 4
        self.fc = nn.Linear(widths[-1] * 4 * 4, 1)

    def forward(self, img):
        h = self.conv(img)
        return self.fc(h.flatten(start_dim=1))


def discriminator_step(D, opt_d, real, fake):
    bce = nn.BCEWithLogitsLoss()
    opt_d.zero_grad()
    d_real = D(real)
    d_fake = D(fake.detach())
    loss = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
    loss.backward()
    opt_d.step()
    return loss.item()


if __name__ == "__main__":
    D = Discriminator()
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real = torch.rand(8, 3, IMAGE_SIZE, IMAGE_SIZE) * 2 - 1
    fake = torch.rand(8, 3, IMAGE_SIZE, IMAGE_SIZE) * 2 - 1
    print("d loss", discriminator_step(D, opt_d, real, fake))
