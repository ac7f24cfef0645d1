import torch.nn as nn


class ConvLayer(nn.Sequential):
    def __init__(self, c_in, c_out, kernel, stride):
        super().__init__(nn.ReflectionPad2d(kernel // 2), nn.Conv2d(c_in, c_out, kernel, stride))


class ResidualBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1, self.in1 = ConvLayer(ch, ch, 3, 1), nn.InstanceNorm2d(ch, affine=True)
        self.conv2, self.in2 = ConvLayer(ch, ch, 3, 1), nn.InstanceNorm2d(ch, affine=True)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.relu(self.in1(self.conv1(x)))
        return x + self.in2(self.conv2(out))


class TransformerNet(nn.Module):
    def __init__(self, ch=16, n_res=2):
        super().__init__()
        self.down = nn.Sequential(ConvLayer(3, ch, 9, 1), nn.ReLU(), ConvLayer(ch, 2 * ch, 3, 2), nn.ReLU())
        self.res = nn.Sequential(*[ResidualBlock(2 * ch) for _ in range(n_res)])
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), ConvLayer(2 * ch, ch, 3, 1), nn.ReLU())
        self.deconv3 = ConvLayer(ch, 3, 9, 1)
        self.out_act = nn.Tanh()

    def forward(self, x):
        y = self.up(self.res(self.down(x)))
        y = self.out_act(self.deconv3(y))
        y.add_(1.0).mul_(127.5)
        return y
