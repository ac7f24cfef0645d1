import torch.nn as nn


class PositionwiseFeedForward(nn.Module):
    """Two-layer feed-forward applied per token; padded tokens are zeroed so they carry nothing forward."""

    def __init__(self, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.activation = nn.ReLU()
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, token_mask=None):
        hidden = self.activation(self.w_1(x))
        if token_mask is not None:
            hidden.mul_(token_mask.unsqueeze(-1).to(hidden.dtype))
        return self.w_2(self.dropout(hidden))
