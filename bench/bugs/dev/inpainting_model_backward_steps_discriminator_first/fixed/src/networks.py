import torch
import torch.nn as nn


class BaseNetwork(nn.Module):
    def init_weights(self, gain=0.02):
        def init_func(m):
            if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
                nn.init.normal_(m.weight.data, 0.0, gain)
                if m.bias is not None:
                    nn.init.constant_(m.bias.data, 0.0)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.normal_(m.weight.data, 1.0, gain)
                nn.init.constant_(m.bias.data, 0.0)

        self.apply(init_func)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dilation=1):
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.ReflectionPad2d(dilation),
            nn.Conv2d(dim, dim, kernel_size=3, dilation=dilation),
            nn.InstanceNorm2d(dim, track_running_stats=False),
            nn.ReLU(True),
            nn.ReflectionPad2d(1),
            nn.Conv2d(dim, dim, kernel_size=3),
            nn.InstanceNorm2d(dim, track_running_stats=False),
        )

    def forward(self, x):
        return x + self.conv_block(x)


class InpaintGenerator(BaseNetwork):
    def __init__(self, residual_blocks=2, ch=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.ReflectionPad2d(3),
            nn.Conv2d(4, ch, kernel_size=7),
            nn.InstanceNorm2d(ch, track_running_stats=False),
            nn.ReLU(True),
            nn.Conv2d(ch, ch * 2, kernel_size=4, stride=2, padding=1),
            nn.InstanceNorm2d(ch * 2, track_running_stats=False),
            nn.ReLU(True),
        )
        self.middle = nn.Sequential(*[ResnetBlock(ch * 2, 2) for _ in range(residual_blocks)])
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(ch * 2, ch, kernel_size=4, stride=2, padding=1),
            nn.InstanceNorm2d(ch, track_running_stats=False),
            nn.ReLU(True),
            nn.ReflectionPad2d(3),
            nn.Conv2d(ch, 3, kernel_size=7),
        )
        self.init_weights()

    def forward(self, x):
        x = self.encoder(x)
        x = self.middle(x)
        x = self.decoder(x)
        return (torch.tanh(x) + 1) / 2


class Discriminator(BaseNetwork):
    def __init__(self, in_channels=3, ch=16, use_sigmoid=True):
        super().__init__()
        self.use_sigmoid = use_sigmoid
        self.conv1 = nn.Sequential(nn.Conv2d(in_channels, ch, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True))
        self.conv2 = nn.Sequential(nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True))
        self.conv3 = nn.Sequential(nn.Conv2d(ch * 2, 1, 4, 1, 1))
        self.init_weights()

    def forward(self, x):
        conv1 = self.conv1(x)
        conv2 = self.conv2(conv1)
        conv3 = self.conv3(conv2)
        outputs = torch.sigmoid(conv3) if self.use_sigmoid else conv3
        return outputs, [conv1, conv2, conv3]
