from torch import nn


class Discriminator(nn.Module):
    """Domain critic: source features vs target features."""

    def __init__(self, input_dims, hidden_dims, output_dims):
        super().__init__()
        self.restored = False
        self.layer = nn.Sequential(
            nn.Linear(input_dims, hidden_dims), nn.ReLU(),
            nn.Linear(hidden_dims, hidden_dims), nn.ReLU(),
            nn.Linear(hidden_dims, output_dims), nn.LogSoftmax(dim=1),
        )

    def forward(self, x):
        return self.layer(x)
