import torch
import torch.nn as nn


class SeparationLSTM(nn.Module):
    """Predicts a soft vocal mask for every frame of a magnitude spectrogram."""

    def __init__(self, n_bins: int = 65, hidden_size: int = 32, num_layers: int = 2, bidirectional: bool = True):
        super().__init__()
        self.input_norm = nn.BatchNorm1d(n_bins)
        self.lstm = nn.LSTM(n_bins, hidden_size, num_layers=num_layers, batch_first=True,
                            bidirectional=bidirectional, dropout=0.2)
        self.fc = nn.Linear(hidden_size * (2 if bidirectional else 1), n_bins)

    def forward(self, mix: torch.Tensor) -> torch.Tensor:
        # mix: (batch, frames, bins)
        x = self.input_norm(mix.transpose(1, 2)).transpose(1, 2)
        out, _ = self.lstm(x)
        mask = torch.sigmoid(self.fc(out))
        return mask * mix
