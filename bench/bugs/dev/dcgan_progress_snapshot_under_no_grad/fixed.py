import torch
import torch.nn as nn

nz, ngf = 16, 8
netG = nn.Sequential(
    nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 4, 3, 4, 2, 1, bias=False), nn.Tanh(),
)
netD = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 0), nn.Flatten())
criterion = nn.BCEWithLogitsLoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
fixed_noise = torch.randn(4, nz, 1, 1)
img_list, iters = [], 0

for epoch in range(2):
    for i in range(3):
        real = torch.rand(8, 3, 8, 8) * 2 - 1
        netD.zero_grad()
        out_real = netD(real).view(-1)
        errD_real = criterion(out_real, torch.ones_like(out_real))
        errD_real.backward()
        fake = netG(torch.randn(8, nz, 1, 1))
        out_fake = netD(fake.detach()).view(-1)
        errD_fake = criterion(out_fake, torch.zeros_like(out_fake))
        errD_fake.backward()
        optimizerD.step()

        netG.zero_grad()
        out = netD(fake).view(-1)
        errG = criterion(out, torch.ones_like(out))
        errG.backward()
        optimizerG.step()

        if (iters % 2 == 0) or (epoch == 1 and i == 2):
            with torch.no_grad():
                fake = netG(fixed_noise).detach().cpu()
            img_list.append(fake)
        iters += 1
    print(f"[{epoch}] Loss_D {errD_real.item() + errD_fake.item():.3f} Loss_G {errG.item():.3f}")
print(len(img_list), "snapshots")
