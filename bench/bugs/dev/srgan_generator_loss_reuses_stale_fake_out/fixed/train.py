import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import Discriminator, Generator


class PatchPairs(Dataset):
    def __init__(self, n=12, crop=16, upscale=2):
        self.hr = torch.rand(n, 3, crop, crop)
        self.lr = nn.functional.avg_pool2d(self.hr, upscale)

    def __len__(self):
        return len(self.hr)

    def __getitem__(self, i):
        return self.lr[i], self.hr[i]


class GeneratorLoss(nn.Module):
    def __init__(self, adversarial_weight=1e-3):
        super().__init__()
        self.mse = nn.MSELoss()
        self.adversarial_weight = adversarial_weight

    def forward(self, fake_out, fake_img, real_img):
        adversarial = torch.mean(1 - fake_out)
        return self.mse(fake_img, real_img) + self.adversarial_weight * adversarial


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upscale", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    opt = parser.parse_args([])
    loader = DataLoader(PatchPairs(upscale=opt.upscale), batch_size=4, shuffle=True)
    netG, netD = Generator(opt.upscale), Discriminator()
    generator_criterion = GeneratorLoss()
    optimizerG = torch.optim.Adam(netG.parameters())
    optimizerD = torch.optim.Adam(netD.parameters())
    for epoch in range(opt.epochs):
        netG.train()
        netD.train()
        for lr_img, hr_img in loader:
            fake_img = netG(lr_img)
            netD.zero_grad()
            real_out = netD(hr_img).mean()
            fake_out = netD(fake_img).mean()
            d_loss = 1 - real_out + fake_out
            d_loss.backward(retain_graph=True)
            optimizerD.step()

            netG.zero_grad()
            fake_out = netD(fake_img).mean()
            g_loss = generator_criterion(fake_out, fake_img, hr_img)
            g_loss.backward()
            optimizerG.step()
        print(f"epoch {epoch}: d {d_loss.item():.4f} g {g_loss.item():.4f}")


if __name__ == "__main__":
    main()
