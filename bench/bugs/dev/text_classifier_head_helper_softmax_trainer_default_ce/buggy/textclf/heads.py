from torch import nn


def build_head(hidden_size, num_labels, dropout=0.1, hidden_layers=0):
    layers = [nn.Dropout(dropout)]
    in_features = hidden_size
    for _ in range(hidden_layers):
        layers += [nn.Linear(in_features, hidden_size), nn.Tanh(), nn.Dropout(dropout)]
        in_features = hidden_size
    layers.append(nn.Linear(in_features, num_labels))
    layers.append(nn.Softmax(dim=1))
    return nn.Sequential(*layers)
