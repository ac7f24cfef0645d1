import torch
import torch.nn as nn
import torch.nn.functional as F


class Downsampler(nn.Module):
    def __init__(self, channels=16, seq_len=64, n_pools=2):
        super().__init__()
        self.n_pools = n_pools
        self.conv = nn.Conv1d(channels, channels, 3, padding=1)
        self.pos = nn.Parameter(torch.zeros(1, channels, seq_len // 2))

    def forward(self, x):
        for _ in range(self.n_pools):
            x = F.avg_pool1d(F.gelu(self.conv(x)), 2)
        return x + self.pos


model = Downsampler()
print(model(torch.randn(3, 16, 64)).shape)
