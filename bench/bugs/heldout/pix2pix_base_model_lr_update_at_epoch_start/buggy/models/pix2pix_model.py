import torch
import torch.nn as nn

from .base_model import BaseModel


class Pix2PixModel(BaseModel):
    def __init__(self, opt):
        super().__init__(opt)
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = nn.Sequential(nn.Conv2d(6, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
        self.criterionGAN = nn.BCEWithLogitsLoss()
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))
        self.optimizers = [self.optimizer_G, self.optimizer_D]

    def set_input(self, data):
        self.real_A, self.real_B = data["A"], data["B"]

    def optimize_parameters(self):
        fake_B = self.netG(self.real_A)
        self.optimizer_D.zero_grad()
        pred_fake = self.netD(torch.cat([self.real_A, fake_B.detach()], 1))
        pred_real = self.netD(torch.cat([self.real_A, self.real_B], 1))
        loss_D = 0.5 * (
            self.criterionGAN(pred_fake, torch.zeros_like(pred_fake)) + self.criterionGAN(pred_real, torch.ones_like(pred_real))
        )
        loss_D.backward()
        self.optimizer_D.step()

        self.optimizer_G.zero_grad()
        pred_fake = self.netD(torch.cat([self.real_A, fake_B], 1))
        loss_G = self.criterionGAN(pred_fake, torch.ones_like(pred_fake)) + self.opt.lambda_L1 * self.criterionL1(fake_B, self.real_B)
        loss_G.backward()
        self.optimizer_G.step()
        return loss_D.item(), loss_G.item()
