import torch
import torch.nn as nn

from .blocks import FTB


class PHASEN(nn.Module):
    def __init__(self, n_freqs=33, channels=4, rnn_hidden=32):
        super().__init__()
        self.rnn_hidden = rnn_hidden
        self.stem = nn.Conv2d(2, channels, (5, 5), padding=2)
        self.ftb = FTB(channels, n_freqs)
        self.rnn = nn.GRU(channels * n_freqs, rnn_hidden, batch_first=True)
        self.mask = nn.Sequential(nn.Linear(rnn_hidden, n_freqs), nn.Sigmoid())

    def init_state(self, batch_size):
        return torch.zeros(1, batch_size, self.rnn_hidden)

    def forward(self, spec):
        # spec: (B, 2, T, F) real/imag parts
        B, _, T, F = spec.shape
        x = self.ftb(self.stem(spec))
        x = x.permute(0, 2, 1, 3).reshape(B, T, -1)
        h, _ = self.rnn(x, self.init_state(B))
        amp_mask = self.mask(h)
        return spec * amp_mask.unsqueeze(1)
