import torch
import torch.nn as nn


class ConvForecaster(nn.Module):
    """Token convolution over the variables, then a linear map from the input window to the horizon."""

    def __init__(self, enc_in: int = 7, d_model: int = 32, seq_len: int = 96, pred_len: int = 24, dropout: float = 0.1):
        super().__init__()
        self.token_conv = nn.Conv1d(enc_in, d_model, kernel_size=3, padding=1, padding_mode="circular")
        self.dropout = nn.Dropout(dropout)
        self.temporal = nn.Linear(seq_len, pred_len)
        self.out = nn.Conv1d(d_model, enc_in, kernel_size=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (batch, seq_len, n_vars)
        h = self.dropout(self.token_conv(x.permute(0, 2, 1)))
        h = self.temporal(h)
        return self.out(h).permute(0, 2, 1)
