import torch
from torch import nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_channels, hidden_channels, kernel_size=3):
        super().__init__()
        self.hidden_channels = hidden_channels
        self.conv = nn.Conv2d(in_channels + hidden_channels, 4 * hidden_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x, state):
        h, c = state
        i, f, g, o = self.conv(torch.cat([x, h], dim=1)).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class Seq2SeqConvLSTM(nn.Module):
    """Encodes the input frames, then rolls the cell forward to predict the next `out_len` frames."""

    def __init__(self, channels=1, hidden=8, out_len=3):
        super().__init__()
        self.out_len = out_len
        self.cell = ConvLSTMCell(channels, hidden)
        self.readout = nn.Conv2d(hidden, channels, 1)

    def forward(self, frames):
        b, t, _, height, width = frames.shape
        h = frames.new_zeros(b, self.cell.hidden_channels, height, width)
        c = torch.zeros_like(h)
        for step in range(t):
            h, c = self.cell(frames[:, step], (h, c))
        outputs, x = [], frames[:, -1]
        for _ in range(self.out_len):
            h, c = self.cell(x, (h, c))
            x = torch.sigmoid(self.readout(h))
            outputs.append(x)
        return torch.stack(outputs, dim=1)
