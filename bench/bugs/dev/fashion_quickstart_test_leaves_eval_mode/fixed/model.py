from torch import nn


class NeuralNetwork(nn.Module):
    def __init__(self, in_features=28 * 28, hidden=64, num_classes=10, p_drop=0.3):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Dropout(p_drop),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Dropout(p_drop),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)
