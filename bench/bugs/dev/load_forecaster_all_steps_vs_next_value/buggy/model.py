import torch.nn as nn


class LSTMForecaster(nn.Module):
    def __init__(self, input_size=1, hidden_size=32, num_layers=1, dropout=0.0):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, dropout=dropout)
        self.decoder = nn.Linear(hidden_size, 1)

    def forward(self, src):
        output, _ = self.lstm(src)
        return self.decoder(output).squeeze(-1)
