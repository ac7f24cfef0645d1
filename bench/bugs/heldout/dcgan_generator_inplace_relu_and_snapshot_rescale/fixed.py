import torch
import torch.nn as nn


def up_block(c_in, c_out):
    return nn.Sequential(
        nn.ConvTranspose2d(c_in, c_out, 4, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class Generator(nn.Module):
    def __init__(self, nz=16, ngf=16):
        super().__init__()
        self.fc = nn.Linear(nz, ngf * 4 * 4 * 4)
        self.ngf = ngf
        self.blocks = nn.Sequential(up_block(ngf * 4, ngf * 2), up_block(ngf * 2, ngf))
        self.to_rgb = nn.Conv2d(ngf, 3, 3, padding=1)

    def forward(self, z):
        h = self.fc(z).view(-1, self.ngf * 4, 4, 4)
        return torch.tanh(self.to_rgb(self.blocks(h)))


class Discriminator(nn.Module):
    def __init__(self, ndf=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ndf, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True),
            nn.Flatten(), nn.Linear(ndf * 2 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x).view(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    G, D = Generator(), Discriminator()
    optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    fixed_noise = torch.randn(4, 16)
    snapshots = []
    for it in range(3):
        real = torch.rand(4, 3, 16, 16) * 2 - 1
        noise = torch.randn(4, 16)
        noise.mul_(1.0)
        fake = G(noise)
        d_loss = bce(D(real), torch.ones(4)) + bce(D(fake.detach()), torch.zeros(4))
        optD.zero_grad()
        d_loss.backward()
        optD.step()
        g_loss = bce(D(fake), torch.ones(4))
        optG.zero_grad()
        g_loss.backward()
        optG.step()
        with torch.no_grad():
            samples = G(fixed_noise)
            samples.add_(1).div_(2)
            snapshots.append(samples.cpu())
        print(it, d_loss.item(), g_loss.item())
