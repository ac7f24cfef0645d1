from torch import nn


class LeNetEncoder(nn.Module):
    """LeNet encoder for the ADDA digits experiments."""

    def __init__(self):
        super().__init__()
        self.restored = False
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 20, kernel_size=5), nn.MaxPool2d(kernel_size=2), nn.ReLU(),
            nn.Conv2d(20, 50, kernel_size=5), nn.Dropout2d(), nn.MaxPool2d(kernel_size=2), nn.ReLU(),
        )
        self.fc1 = nn.Linear(50 * 4 * 4, 50)

    def forward(self, x):
        conv_out = self.encoder(x)
        return self.fc1(conv_out.view(-1, 50 * 4 * 4))
