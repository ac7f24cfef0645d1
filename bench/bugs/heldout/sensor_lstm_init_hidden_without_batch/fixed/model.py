import torch
import torch.nn as nn


class SensorLSTM(nn.Module):
    """Stateful forecaster: the state is carried from one window to the next."""

    def __init__(self, n_features: int = 6, hidden_size: int = 32, num_layers: int = 1, n_out: int = 1):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(n_features, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, n_out)

    def init_hidden(self, batch_size: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
        h0 = torch.zeros(self.num_layers, batch_size, self.hidden_size)
        c0 = torch.zeros(self.num_layers, batch_size, self.hidden_size)
        return h0, c0

    def forward(self, x: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor]):
        out, state = self.lstm(x, state)
        return self.fc(out[:, -1]), state
