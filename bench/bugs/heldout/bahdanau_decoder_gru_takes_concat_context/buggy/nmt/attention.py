import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    """Additive (concat) scoring of one decoder state against every encoder output."""

    def __init__(self, hidden_size):
        super().__init__()
        self.attn = nn.Linear(hidden_size * 2, hidden_size)
        self.v = nn.Parameter(torch.rand(hidden_size) * 0.1)

    def forward(self, hidden, encoder_outputs):
        seq_len = encoder_outputs.size(0)
        h = hidden.repeat(seq_len, 1, 1).transpose(0, 1)
        enc = encoder_outputs.transpose(0, 1)
        energy = torch.tanh(self.attn(torch.cat([h, enc], dim=2)))
        scores = energy.matmul(self.v)
        return F.softmax(scores, dim=1).unsqueeze(1)
