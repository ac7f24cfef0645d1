import torch.nn as nn


def conv_block(c_in: int, c_out: int, k: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv1d(c_in, c_out, k, padding=k // 2), nn.BatchNorm1d(c_out), nn.ReLU(), nn.MaxPool1d(2))


class ActivityCNN(nn.Module):
    def __init__(self, channels: list[int], kernel_size: int, num_classes: int):
        super().__init__()
        layers = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            layers.append(conv_block(c_in, c_out, kernel_size))
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(channels[-1], num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).mean(dim=-1))
