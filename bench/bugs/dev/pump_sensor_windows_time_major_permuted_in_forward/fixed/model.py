import torch.nn as nn


class ConvLSTMDetector(nn.Module):
    """DeepConvLSTM-style: temporal convolutions over the sensor channels, then an LSTM over time."""

    def __init__(self, n_sensors: int, n_filters: int = 32, kernel: int = 5, hidden: int = 48, n_classes: int = 2):
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv1d(n_sensors, n_filters, kernel, padding=kernel // 2),
            nn.ReLU(),
            nn.Conv1d(n_filters, n_filters, kernel, padding=kernel // 2),
            nn.ReLU(),
        )
        self.lstm = nn.LSTM(n_filters, hidden, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.classifier = nn.Linear(hidden, n_classes)

    def forward(self, x):
        # x: (batch, time, sensors)
        feats = self.convs(x.permute(0, 2, 1))          # (batch, filters, time)
        out, _ = self.lstm(feats.permute(0, 2, 1))      # (batch, time, hidden)
        return self.classifier(self.dropout(out[:, -1]))
