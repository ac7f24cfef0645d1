import logging

import torch
import torch.nn as nn

from nets import Discriminator, Generator

log = logging.getLogger("dcgan")


class GANTrainer:
    def __init__(self, netG: Generator, netD: Discriminator, nz=16, lr=2e-4):
        self.netG, self.netD, self.nz = netG, netD, nz
        self.optG = torch.optim.Adam(netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optD = torch.optim.Adam(netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.criterion = nn.BCEWithLogitsLoss()

    def step(self, real):
        b = real.size(0)
        ones, zeros = torch.ones(b), torch.zeros(b)

        self.optD.zero_grad()
        errD_real = self.criterion(self.netD(real), ones)
        noise = torch.randn(b, self.nz, 1, 1)
        fake = self.netG(noise)
        errD_fake = self.criterion(self.netD(fake.detach()), zeros)
        errD = errD_real + errD_fake
        errD.backward()
        self.optD.step()

        self.optG.zero_grad()
        output = self.netD(fake)
        errG = self.criterion(output, ones)
        errG.backward()
        self.optG.step()
        return errD.item(), errG.item()


def main(iters=4, batch=4):
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(999)
    trainer = GANTrainer(Generator(), Discriminator())
    fixed_noise = torch.randn(8, 16, 1, 1)
    for i in range(iters):
        real = torch.rand(batch, 1, 16, 16) * 2 - 1
        errD, errG = trainer.step(real)
        log.info("[%d/%d] Loss_D %.4f Loss_G %.4f", i, iters, errD, errG)
        if i % 2 == 0:
            with torch.no_grad():
                samples = trainer.netG(fixed_noise)
            log.info("sample range %.3f..%.3f", samples.min().item(), samples.max().item())


if __name__ == "__main__":
    main()
