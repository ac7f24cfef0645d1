from torch import nn


class DescriptorFFN(nn.Module):
    def __init__(self, in_features, hidden_size, depth, dropout, n_tasks):
        super().__init__()
        layers, width = [], in_features
        for _ in range(depth):
            layers += [nn.Linear(width, hidden_size), nn.ReLU(), nn.Dropout(dropout)]
            width = hidden_size
        layers.append(nn.Linear(width, n_tasks))
        self.ffn = nn.Sequential(*layers)

    def forward(self, x):
        return self.ffn(x)
