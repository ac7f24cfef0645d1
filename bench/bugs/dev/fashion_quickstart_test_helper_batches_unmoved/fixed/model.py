from torch import nn


class NeuralNetwork(nn.Module):
    def __init__(self, in_pixels=28 * 28, hidden=64, n_classes=10):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(in_pixels, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))
