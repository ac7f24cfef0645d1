import torch.nn as nn


class FCN8sLite(nn.Module):
    def __init__(self, n_class=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True), nn.MaxPool2d(2),
        )
        self.drop = nn.Dropout2d(0.5)
        self.score = nn.Conv2d(32, n_class, 1)
        self.upscore = nn.ConvTranspose2d(n_class, n_class, 8, stride=4, padding=2, bias=False)

    def forward(self, x):
        return self.upscore(self.score(self.drop(self.features(x))))
