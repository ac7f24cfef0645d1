from collections import OrderedDict

import torch
import torch.nn as nn
from torch.optim import lr_scheduler


class SRResNet(nn.Module):
    def __init__(self, nf=16, nb=2, upscale=2):
        super().__init__()
        self.conv_first = nn.Conv2d(3, nf, 3, padding=1)
        self.body = nn.Sequential(*[nn.Sequential(nn.Conv2d(nf, nf, 3, padding=1), nn.ReLU()) for _ in range(nb)])
        self.upconv = nn.Conv2d(nf, 3 * upscale**2, 3, padding=1)
        self.shuffle = nn.PixelShuffle(upscale)

    def forward(self, x):
        feat = self.conv_first(x)
        return self.shuffle(self.upconv(feat + self.body(feat)))


class BaseModel:
    def __init__(self, opt):
        self.opt = opt
        self.schedulers = []
        self.optimizers = []

    def _set_lr(self, lr_groups_l):
        for optimizer, lr_groups in zip(self.optimizers, lr_groups_l):
            for param_group, lr in zip(optimizer.param_groups, lr_groups):
                param_group["lr"] = lr

    def _get_init_lr(self):
        return [[group["initial_lr"] for group in optimizer.param_groups] for optimizer in self.optimizers]

    def update_learning_rate(self, cur_iter, warmup_iter=-1):
        for scheduler in self.schedulers:
            scheduler.step()
        if cur_iter < warmup_iter:
            init_lr_g_l = self._get_init_lr()
            self._set_lr([[v / warmup_iter * cur_iter for v in init_lr_g] for init_lr_g in init_lr_g_l])

    def get_current_learning_rate(self):
        return self.optimizers[0].param_groups[0]["lr"]


class SRModel(BaseModel):
    def __init__(self, opt):
        super().__init__(opt)
        train_opt = opt["train"]
        self.netG = SRResNet(**opt["network_G"])
        self.cri_pix = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=train_opt["lr_G"], betas=(0.9, 0.99))
        self.optimizers.append(self.optimizer_G)
        self.schedulers.append(lr_scheduler.MultiStepLR(self.optimizer_G, train_opt["lr_steps"], train_opt["lr_gamma"]))
        self.log_dict = OrderedDict()

    def feed_data(self, data):
        self.var_L, self.real_H = data

    def optimize_parameters(self, step):
        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)
        l_pix = self.cri_pix(self.fake_H, self.real_H)
        l_pix.backward()
        self.optimizer_G.step()
        self.log_dict["l_pix"] = l_pix.item()
