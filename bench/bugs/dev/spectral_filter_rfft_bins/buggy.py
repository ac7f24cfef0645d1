import torch
import torch.nn as nn


class GlobalFilter(nn.Module):
    """Learned filter applied in the frequency domain along the time axis."""

    def __init__(self, seq_len=96, channels=7):
        super().__init__()
        self.seq_len = seq_len
        self.weight = nn.Parameter(torch.randn(seq_len, channels, dtype=torch.cfloat) * 0.02)

    def forward(self, x):
        spec = torch.fft.rfft(x, dim=1)
        spec = spec * self.weight
        return torch.fft.irfft(spec, n=self.seq_len, dim=1)


layer = GlobalFilter()
series = torch.randn(8, 96, 7)
print(layer(series).shape)
