import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, dim_latent=16, dim_out=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim_latent, 64), nn.LeakyReLU(0.2), nn.Linear(64, dim_out))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, dim_in=32):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(dim_in, 64), nn.LeakyReLU(0.2))
        self.decision = nn.Linear(64, 1)

    def forward(self, x, get_feature=False):
        f = self.features(x)
        out = self.decision(f)
        return (out, f) if get_feature else out


def gdpp_loss(phi_fake, phi_real):
    def eig(phi):
        phi = F.normalize(phi, dim=1)
        return torch.linalg.eigh(phi.T @ phi)

    fake_vals, fake_vecs = eig(phi_fake)
    real_vals, real_vecs = eig(phi_real)
    real_vals = real_vals / real_vals.max()
    fake_vals = fake_vals / fake_vals.max()
    vec_loss = -torch.sum(real_vals * F.cosine_similarity(real_vecs, fake_vecs, dim=0))
    return F.mse_loss(fake_vals, real_vals) + vec_loss


class BaseGAN:
    def __init__(self, lr=1e-3, batch=16):
        self.netG, self.netD = Generator(), Discriminator()
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.0, 0.99))
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.0, 0.99))
        self.batch = batch

    def optimize_parameters(self, real):
        z = torch.randn(self.batch, 16)
        self.optimizerD.zero_grad()
        pred_real_d = self.netD(real)
        pred_fake_d = self.netD(self.netG(z).detach())
        loss_d = F.softplus(-pred_real_d).mean() + F.softplus(pred_fake_d).mean()
        loss_d.backward()
        self.optimizerD.step()

        self.optimizerG.zero_grad()
        pred_fake_g, phi_g_fake = self.netD(self.netG(torch.randn(self.batch, 16)), get_feature=True)
        loss_g_fake = F.softplus(-pred_fake_g).mean()
        loss_g_fake.backward(retain_graph=True)
        _, phi_d_real = self.netD(real, get_feature=True)
        loss_gdpp = gdpp_loss(phi_g_fake, phi_d_real.detach())
        loss_gdpp.backward()
        self.optimizerG.step()
        return loss_d.item(), loss_g_fake.item(), loss_gdpp.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    gan = BaseGAN()
    for it in range(3):
        print(it, gan.optimize_parameters(torch.randn(16, 32)))
