import torch
import torch.nn as nn

from model import PatchDiscriminator, PyramidGenerator


class DehazeTrainer:
    def __init__(self, gen: PyramidGenerator, disc: PatchDiscriminator, lr: float = 2e-4, l1_weight: float = 10.0):
        self.gen, self.disc = gen, disc
        self.opt_g = torch.optim.Adam(gen.parameters(), lr=lr, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(disc.parameters(), lr=lr, betas=(0.5, 0.999))
        self.adv = nn.BCEWithLogitsLoss()
        self.l1 = nn.L1Loss()
        self.l1_weight = l1_weight

    def step(self, hazy: torch.Tensor, clear: torch.Tensor) -> dict:
        fake = self.gen(hazy)
        d_real = self.disc(clear)
        d_fake = self.disc(fake.detach())
        d_loss = 0.5 * (self.adv(d_real, torch.ones_like(d_real)) + self.adv(d_fake, torch.zeros_like(d_fake)))

        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        g_fake = self.disc(fake)
        g_loss = self.adv(g_fake, torch.ones_like(g_fake)) + self.l1_weight * self.l1(fake, clear)

        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return {"d": d_loss.item(), "g": g_loss.item()}
