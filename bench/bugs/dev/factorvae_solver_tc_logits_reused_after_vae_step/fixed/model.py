"""FactorVAE (Kim & Mnih, 2018): a VAE whose total correlation is estimated by a discriminator."""
import torch
import torch.nn as nn
import torch.nn.init as init


def kaiming_init(m):
    if isinstance(m, nn.Linear):
        init.kaiming_normal_(m.weight)
        if m.bias is not None:
            m.bias.data.fill_(0)


class Discriminator(nn.Module):
    def __init__(self, z_dim, hidden=256):
        super().__init__()
        self.z_dim = z_dim
        self.net = nn.Sequential(
            nn.Linear(z_dim, hidden),
            nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, hidden),
            nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, 2),
        )
        self.apply(kaiming_init)

    def forward(self, z):
        return self.net(z).squeeze()


class FactorVAE(nn.Module):
    """Fully connected encoder/decoder for flattened inputs."""

    def __init__(self, x_dim, z_dim=10, hidden=128):
        super().__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(
            nn.Linear(x_dim, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, 2 * z_dim),
        )
        self.decode = nn.Sequential(
            nn.Linear(z_dim, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, x_dim),
        )
        self.apply(kaiming_init)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp()
        eps = torch.randn_like(std)
        return eps.mul(std).add(mu)

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu = stats[:, : self.z_dim]
        logvar = stats[:, self.z_dim :]
        z = self.reparametrize(mu, logvar)
        if no_dec:
            return z.squeeze()
        x_recon = self.decode(z)
        return x_recon, mu, logvar, z.squeeze()


def permute_dims(z):
    assert z.dim() == 2
    B, _ = z.size()
    perm_z = []
    for z_j in z.split(1, 1):
        perm = torch.randperm(B)
        perm_z.append(z_j[perm])
    return torch.cat(perm_z, 1)
