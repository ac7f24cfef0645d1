import torch
import torch.nn as nn


class ConvBlock(nn.Sequential):
    def __init__(self, in_channel, out_channel, ker_size=3, padd=1):
        super().__init__()
        self.add_module("conv", nn.Conv2d(in_channel, out_channel, kernel_size=ker_size, padding=padd))
        self.add_module("norm", nn.BatchNorm2d(out_channel))
        self.add_module("LeakyRelu", nn.LeakyReLU(0.2, inplace=True))


class WDiscriminator(nn.Module):
    def __init__(self, nfc=8):
        super().__init__()
        self.body = nn.Sequential(ConvBlock(3, nfc), ConvBlock(nfc, nfc))
        self.tail = nn.Conv2d(nfc, 1, kernel_size=3, padding=1)

    def forward(self, x):
        return self.tail(self.body(x))


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, nfc=8):
        super().__init__()
        self.body = nn.Sequential(ConvBlock(3, nfc), ConvBlock(nfc, nfc))
        self.tail = nn.Sequential(nn.Conv2d(nfc, 3, kernel_size=3, padding=1), nn.Tanh())

    def forward(self, x, y):
        return self.tail(self.body(x)) + y


def train_single_scale(netD, netG, real, opt):
    optimizerD = torch.optim.Adam(netD.parameters(), lr=opt["lr_d"], betas=(0.5, 0.999))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=opt["lr_g"], betas=(0.5, 0.999))
    z_opt = torch.randn_like(real)
    prev = torch.zeros_like(real)
    mse = nn.MSELoss()
    for epoch in range(opt["niter"]):
        noise = torch.randn_like(real)
        # (1) update D: maximize D(x) + D(G(z))
        for j in range(opt["Dsteps"]):
            netD.zero_grad()
            errD_real = -netD(real).mean()
            errD_real.backward(retain_graph=True)
            fake = netG(noise, prev)
            errD_fake = netD(fake.detach()).mean()
            errD_fake.backward(retain_graph=True)
            optimizerD.step()
        # (2) update G: maximize D(G(z)), plus reconstruction
        for j in range(opt["Gsteps"]):
            netG.zero_grad()
            output = netD(fake)
            errG = -output.mean()
            errG.backward(retain_graph=True)
            rec_loss = opt["alpha"] * mse(netG(z_opt, prev), real)
            rec_loss.backward(retain_graph=True)
            optimizerG.step()
        print(epoch, errD_real.item() + errD_fake.item(), errG.item(), rec_loss.item())


if __name__ == "__main__":
    opt = {"niter": 2, "Dsteps": 3, "Gsteps": 3, "lr_d": 5e-4, "lr_g": 5e-4, "alpha": 10.0}
    real = torch.rand(1, 3, 24, 24) * 2 - 1
    train_single_scale(WDiscriminator(), GeneratorConcatSkip2CleanAdd(), real, opt)
