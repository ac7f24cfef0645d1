import logging

import torch
import torch.nn.functional as F
import torch.optim as optim

from config import FactorVAEConfig
from model import Discriminator, FactorVAE, permute_dims

log = logging.getLogger(__name__)


def recon_loss(x, x_recon):
    n = x.size(0)
    return F.binary_cross_entropy_with_logits(x_recon, x, reduction="sum").div(n)


def kl_divergence(mu, logvar):
    return 0.5 * (-1 - logvar + mu.pow(2) + logvar.exp()).sum(1).mean()


class Solver:
    def __init__(self, cfg: FactorVAEConfig, data_loader):
        self.cfg = cfg
        self.data_loader = data_loader
        self.global_iter = 0
        self.max_iter = cfg.max_iter
        self.gamma = cfg.gamma

        self.VAE = FactorVAE(cfg.x_dim, cfg.z_dim, cfg.hidden)
        self.optim_VAE = optim.Adam(self.VAE.parameters(), lr=cfg.lr_vae, betas=(0.9, 0.999))

        self.D = Discriminator(cfg.z_dim)
        self.optim_D = optim.Adam(self.D.parameters(), lr=cfg.lr_D, betas=(cfg.beta1_D, cfg.beta2_D))
        self.history = {"recon": [], "kld": [], "tc": [], "D_acc": []}

    def net_mode(self, train):
        for net in (self.VAE, self.D):
            net.train(train)

    def train(self):
        self.net_mode(train=True)
        bs = self.cfg.batch_size
        ones = torch.ones(bs, dtype=torch.long)
        zeros = torch.zeros(bs, dtype=torch.long)

        out = False
        while not out:
            for x_true1, x_true2 in self.data_loader:
                self.global_iter += 1

                x_recon, mu, logvar, z = self.VAE(x_true1)
                vae_recon_loss = recon_loss(x_true1, x_recon)
                vae_kld = kl_divergence(mu, logvar)

                D_z = self.D(z)
                vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()

                vae_loss = vae_recon_loss + vae_kld + self.gamma * vae_tc_loss

                self.optim_VAE.zero_grad()
                vae_loss.backward(retain_graph=True)
                self.optim_VAE.step()

                z_prime = self.VAE(x_true2, no_dec=True)
                z_pperm = permute_dims(z_prime).detach()
                D_z_pperm = self.D(z_pperm)
                D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

                self.optim_D.zero_grad()
                D_tc_loss.backward()
                self.optim_D.step()

                if self.global_iter % self.cfg.print_iter == 0:
                    soft_D_z = F.softmax(D_z, 1)[:, :1].detach()
                    soft_D_z_pperm = F.softmax(D_z_pperm, 1)[:, :1].detach()
                    D_acc = ((soft_D_z >= 0.5).sum() + (soft_D_z_pperm < 0.5).sum()).float() / (2 * bs)
                    self.history["recon"].append(vae_recon_loss.item())
                    self.history["kld"].append(vae_kld.item())
                    self.history["tc"].append(vae_tc_loss.item())
                    self.history["D_acc"].append(D_acc.item())
                    log.info(
                        "[%d] vae_recon_loss:%.3f vae_kld:%.3f vae_tc_loss:%.3f D_tc_loss:%.3f D_acc:%.3f",
                        self.global_iter, vae_recon_loss.item(), vae_kld.item(), vae_tc_loss.item(),
                        D_tc_loss.item(), D_acc.item(),
                    )

                if self.global_iter >= self.max_iter:
                    out = True
                    break
        return self.history
