import torch.nn as nn


def conv_block(c_in, c_out, k):
    return nn.Sequential(
        nn.Conv1d(c_in, c_out, kernel_size=k, padding=k // 2),
        nn.BatchNorm1d(c_out),
        nn.ReLU(inplace=True),
    )


class HARNet(nn.Module):
    """1-D CNN over accelerometer + gyroscope windows."""

    def __init__(self, n_sensors=6, n_activities=6, width=32):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(n_sensors, width, 5),
            nn.MaxPool1d(2),
            conv_block(width, 2 * width, 3),
            nn.AdaptiveAvgPool1d(1),
        )
        self.classifier = nn.Linear(2 * width, n_activities)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
