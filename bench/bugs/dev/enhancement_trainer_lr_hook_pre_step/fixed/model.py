import torch
import torch.nn as nn


class MaskEstimator(nn.Module):
    """Predicts a time-frequency mask from a magnitude spectrogram (B, T, F)."""

    def __init__(self, n_freq=33, hidden=48):
        super().__init__()
        self.blstm = nn.LSTM(n_freq, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_freq)

    def forward(self, spec):
        h, _ = self.blstm(spec)
        return torch.sigmoid(self.out(h))
