import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1)
        self.act = nn.ELU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.conv(x))


class DepthEncoder(nn.Module):
    def __init__(self, chans: tuple[int, ...] = (16, 32, 64, 96)) -> None:
        super().__init__()
        self.stages = nn.ModuleList()
        cin = 3
        for cout in chans:
            self.stages.append(ConvBlock(cin, cout, stride=2))
            cin = cout
        self.num_ch = chans

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class DepthDecoder(nn.Module):
    def __init__(self, enc_ch: tuple[int, ...], dec_ch: tuple[int, ...] = (8, 16, 32, 48)) -> None:
        super().__init__()
        self.upconvs = nn.ModuleList()
        self.fuse = nn.ModuleList()
        cin = enc_ch[-1]
        for i in range(len(enc_ch) - 1, -1, -1):
            self.upconvs.append(ConvBlock(cin, dec_ch[i]))
            skip = enc_ch[i - 1] if i > 0 else 0
            self.fuse.append(ConvBlock(dec_ch[i] + skip, dec_ch[i]))
            cin = dec_ch[i]
        self.disp = nn.Conv2d(dec_ch[0], 1, 3, padding=1)

    def forward(self, feats: list[torch.Tensor]) -> torch.Tensor:
        x = feats[-1]
        for level, (up, fuse) in enumerate(zip(self.upconvs, self.fuse)):
            x = F.interpolate(up(x), scale_factor=2, mode="nearest")
            idx = len(feats) - 2 - level
            if idx >= 0:
                x = torch.cat([x, feats[idx]], dim=1)
            x = fuse(x)
        return torch.sigmoid(self.disp(x))


class MonoDepth(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = DepthEncoder()
        self.decoder = DepthDecoder(self.encoder.num_ch)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.encoder(image))
