import torch.nn as nn


class DarknetLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bnorm=True, leaky=True):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=not bnorm)
        self.bnorm = nn.BatchNorm2d(out_channels, eps=1e-3) if bnorm else None
        self.leaky = nn.LeakyReLU(0.1) if leaky else None

    def forward(self, x):
        x = self.conv(x)
        if self.bnorm is not None:
            x = self.bnorm(x)
        if self.leaky is not None:
            x = self.leaky(x)
        return x


class DarknetBlock(nn.Module):
    def __init__(self, layers, skip=True):
        super().__init__()
        self.skip = skip
        self.block = nn.ModuleDict()
        for spec in layers:
            self.block[spec["id"]] = DarknetLayer(spec["in_channels"], spec["out_channels"], spec["kernel_size"],
                                                  spec["stride"], spec["padding"], spec["bnorm"], spec["leaky"])

    def forward(self, x):
        count = 0
        for layer in self.block.values():
            if count == len(self.block) - 2 and self.skip:
                skip_connection = x
            count += 1
            x = layer(x)
        return x + skip_connection if self.skip else x


def layer_spec(idx, c_in, c_out, k, stride=1):
    return {"id": f"layer_{idx}", "in_channels": c_in, "out_channels": c_out, "kernel_size": k,
            "stride": stride, "padding": k // 2, "bnorm": True, "leaky": True}


class TinyDarknet(nn.Module):
    def __init__(self, num_outputs=3 * (5 + 2)):
        super().__init__()
        self.stem = DarknetLayer(3, 16, 3, 1, 1)
        self.stage = DarknetBlock([layer_spec(0, 16, 32, 3, 2), layer_spec(1, 32, 16, 1), layer_spec(2, 16, 32, 3)])
        self.head = nn.Conv2d(32, num_outputs, 1)

    def forward(self, x):
        return self.head(self.stage(self.stem(x)))
