import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralConv1d(nn.Module):
    """Multiplies the lowest `modes` Fourier coefficients by learned complex weights."""

    def __init__(self, in_channels, out_channels, modes):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.modes = modes
        scale = 1 / (in_channels * out_channels)
        self.weights = nn.Parameter(scale * torch.rand(in_channels, out_channels, modes, dtype=torch.cfloat))

    def compl_mul1d(self, x_ft, weights):
        return torch.einsum("bix,iox->box", x_ft, weights)

    def forward(self, x):
        batch, _, n = x.shape
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(batch, self.out_channels, n // 2 + 1, dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = self.compl_mul1d(x_ft[:, :, :self.modes], self.weights)
        return torch.fft.irfft(out_ft, n=n)


class FNO1d(nn.Module):
    def __init__(self, modes=8, width=16, in_channels=2):
        super().__init__()
        self.lift = SpectralConv1d(in_channels, width, modes)
        self.skip = nn.Conv1d(in_channels, width, 1)
        self.conv = SpectralConv1d(width, width, modes)
        self.w = nn.Conv1d(width, width, 1)
        self.proj = nn.Linear(width, 1)

    def forward(self, u, grid):
        x = torch.stack([u, grid], dim=1)
        x = F.gelu(self.lift(x) + self.skip(x))
        x = F.gelu(self.conv(x) + self.w(x))
        return self.proj(x.permute(0, 2, 1)).squeeze(-1)


def burgers_batch(batch, n, generator):
    grid = torch.linspace(0, 1, n).expand(batch, n)
    phase = torch.rand(batch, 1, generator=generator) * 2 * math.pi
    u0 = torch.sin(2 * math.pi * grid + phase)
    return u0, grid, 0.5 * u0 + 0.1 * torch.sin(4 * math.pi * grid + phase)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = FNO1d()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        u0, grid, target = burgers_batch(8, 64, g)
        loss = F.mse_loss(model(u0, grid), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
