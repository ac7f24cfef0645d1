import torch.nn as nn

ARCH_SETTINGS = {
    "tiny": {"depths": [1, 1, 1, 1], "channels": [96, 192, 384, 768]},
    "base": {"depths": [1, 1, 1, 1], "channels": [128, 256, 512, 1024]},
}


def downsample(c_in, c_out, stride):
    return nn.Sequential(nn.Conv2d(c_in, c_out, kernel_size=stride, stride=stride), nn.GroupNorm(1, c_out))


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.pwconv = nn.Sequential(nn.Conv2d(dim, dim * 2, 1), nn.GELU(), nn.Conv2d(dim * 2, dim, 1))

    def forward(self, x):
        return x + self.pwconv(self.dwconv(x))


class ConvNeXt(nn.Module):
    def __init__(self, arch="tiny", in_chans=3, out_indices=(3,)):
        super().__init__()
        setting = ARCH_SETTINGS[arch]
        self.out_indices = out_indices
        channels = setting["channels"]
        self.downsample_layers = nn.ModuleList()
        self.stages = nn.ModuleList()
        prev = in_chans
        for i, (depth, dim) in enumerate(zip(setting["depths"], channels)):
            self.downsample_layers.append(downsample(prev, dim, 4 if i == 0 else 2))
            self.stages.append(nn.Sequential(*[Block(dim) for _ in range(depth)]))
            prev = dim

    def forward(self, x):
        outs = []
        for i, (down, stage) in enumerate(zip(self.downsample_layers, self.stages)):
            x = stage(down(x))
            if i in self.out_indices:
                outs.append(x)
        return outs
