import torch.nn as nn


class VGG3DRegressor(nn.Module):
    def __init__(self, in_channels=1, base_filters=8, n_outputs=1):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(in_channels, base_filters, 3, padding=1), nn.InstanceNorm3d(base_filters), nn.LeakyReLU(),
            nn.MaxPool3d(2),
            nn.Conv3d(base_filters, base_filters * 2, 3, padding=1), nn.InstanceNorm3d(base_filters * 2), nn.LeakyReLU(),
            nn.AdaptiveAvgPool3d(1), nn.Flatten(),
        )
        self.regressor = nn.Linear(base_filters * 2, n_outputs)

    def forward(self, x):
        return self.regressor(self.features(x))
