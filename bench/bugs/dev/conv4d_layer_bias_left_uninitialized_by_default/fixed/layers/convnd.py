import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv4d(nn.Module):
    """4-D convolution over (T, D, H, W) built from one Conv3d per tap of the kernel's first axis.

    Initializers may be given for the weights and the bias, e.g. `bias_initializer=nn.init.zeros_`.
    """

    def __init__(self, in_channels, out_channels, kernel_size, padding=0, bias=True,
                 kernel_initializer=None, bias_initializer=None):
        super().__init__()
        self.kt = kernel_size
        self.padding = padding
        self.convs = nn.ModuleList(
            nn.Conv3d(in_channels, out_channels, kernel_size, padding=padding, bias=False) for _ in range(kernel_size)
        )
        if kernel_initializer is not None:
            for conv in self.convs:
                kernel_initializer(conv.weight)
        if bias:
            self.bias = nn.Parameter(torch.zeros(out_channels))
            if bias_initializer is not None:
                bias_initializer(self.bias)
        else:
            self.register_parameter("bias", None)

    def forward(self, x):
        # x: (N, C, T, D, H, W)
        if self.padding:
            x = F.pad(x, (0, 0, 0, 0, 0, 0, self.padding, self.padding))
        t_out = x.shape[2] - self.kt + 1
        frames = []
        for t in range(t_out):
            frames.append(sum(self.convs[i](x[:, :, t + i]) for i in range(self.kt)))
        out = torch.stack(frames, dim=2)
        if self.bias is not None:
            out = out + self.bias.view(1, -1, 1, 1, 1, 1)
        return out

    def extra_repr(self):
        return f"kernel={self.kt}, padding={self.padding}, bias={self.bias is not None}"
