import torch
import torch.nn as nn
import torch.nn.functional as F


class SRResNet(nn.Module):
    def __init__(self, nf=16, upscale=2):
        super().__init__()
        self.conv_first = nn.Conv2d(3, nf, 3, padding=1)
        self.body = nn.Sequential(*[nn.Sequential(nn.Conv2d(nf, nf, 3, padding=1), nn.ReLU()) for _ in range(2)])
        self.upconv = nn.Conv2d(nf, nf * upscale ** 2, 3, padding=1)
        self.pixel_shuffle = nn.PixelShuffle(upscale)
        self.conv_last = nn.Conv2d(nf, 3, 3, padding=1)

    def forward(self, x):
        fea = self.conv_first(x)
        fea = fea + self.body(fea)
        out = self.conv_last(self.pixel_shuffle(self.upconv(fea)))
        return out + F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)


class BaseModel:
    def __init__(self, opt):
        self.opt = opt
        self.optimizers, self.schedulers = [], []

    def update_learning_rate(self, cur_iter, warmup_iter=-1):
        for scheduler in self.schedulers:
            scheduler.step()
        if cur_iter < warmup_iter:
            for optimizer in self.optimizers:
                for group in optimizer.param_groups:
                    group["lr"] = group["initial_lr"] * cur_iter / warmup_iter

    def get_current_learning_rate(self):
        return self.optimizers[0].param_groups[0]["lr"]


class SRModel(BaseModel):
    def __init__(self, opt):
        super().__init__(opt)
        self.netG = SRResNet()
        self.cri_pix = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt["lr_G"], betas=(0.9, 0.99))
        self.optimizers.append(self.optimizer_G)
        self.schedulers.append(torch.optim.lr_scheduler.MultiStepLR(self.optimizer_G, opt["lr_steps"], gamma=0.5))

    def feed_data(self, data):
        self.var_L, self.real_H = data["LQ"], data["GT"]

    def optimize_parameters(self, step):
        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)
        l_pix = self.cri_pix(self.fake_H, self.real_H)
        l_pix.backward()
        self.optimizer_G.step()
        self.log_dict = {"l_pix": l_pix.item()}
