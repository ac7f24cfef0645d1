import torch
import torch.nn as nn


class Down(nn.Module):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(cin, cout, 15, padding=7), nn.BatchNorm1d(cout), nn.LeakyReLU(0.1))
        self.pool = nn.MaxPool1d(2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        skip = self.conv(x)
        return self.pool(skip), skip


class Up(nn.Module):
    def __init__(self, cin: int, cskip: int, cout: int) -> None:
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="linear", align_corners=True)
        self.conv = nn.Sequential(nn.Conv1d(cin + cskip, cout, 5, padding=2), nn.BatchNorm1d(cout), nn.LeakyReLU(0.1))

    def forward(self, x: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        return self.conv(torch.cat([self.up(x), skip], dim=1))


class WaveUNet(nn.Module):
    def __init__(self, base: int = 8, depth: int = 3) -> None:
        super().__init__()
        chans = [1] + [base * 2 ** i for i in range(depth)]
        self.downs = nn.ModuleList(Down(chans[i], chans[i + 1]) for i in range(depth))
        self.bottleneck = nn.Conv1d(chans[-1], chans[-1], 15, padding=7)
        self.ups = nn.ModuleList(Up(chans[i + 1], chans[i + 1], chans[i] if i else base) for i in reversed(range(depth)))
        self.out = nn.Conv1d(base + 1, 1, 1)

    def forward(self, noisy: torch.Tensor) -> torch.Tensor:
        x, skips = noisy, []
        for down in self.downs:
            x, skip = down(x)
            skips.append(skip)
        x = self.bottleneck(x)
        for up, skip in zip(self.ups, reversed(skips)):
            x = up(x, skip)
        return torch.tanh(self.out(torch.cat([x, noisy], dim=1)))
