import torch.nn as nn


class NLinear(nn.Module):
    def __init__(self, seq_len: int = 48, pred_len: int = 12, **_):
        super().__init__()
        self.proj = nn.Linear(seq_len, pred_len)

    def forward(self, x):
        last = x[:, -1:, :].detach()
        return self.proj((x - last).transpose(1, 2)).transpose(1, 2) + last
