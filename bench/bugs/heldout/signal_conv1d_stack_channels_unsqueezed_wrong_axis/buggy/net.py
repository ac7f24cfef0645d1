import torch.nn as nn


class NeuralNet(nn.Module):
    def __init__(self, config, n_outputs=3, kernel_size=1):
        super().__init__()
        self.config = config
        self.layers = nn.ModuleList([
            nn.Sequential(nn.Conv1d(config[i], config[i + 1], kernel_size=kernel_size), nn.ReLU())
            for i in range(len(config) - 1)
        ])
        self.layers.append(nn.Flatten())
        self.layers.append(nn.Linear(config[-1], n_outputs))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
