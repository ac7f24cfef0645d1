import torch.nn as nn


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(),
        nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(),
        nn.AvgPool2d(2),
    )


class TaggerCNN(nn.Module):
    """Multi-label audio tagger over log-mel patches (batch, 1, mels, frames)."""

    def __init__(self, n_classes=8, widths=(16, 32)):
        super().__init__()
        blocks, c_in = [], 1
        for w in widths:
            blocks.append(conv_block(c_in, w))
            c_in = w
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(c_in, n_classes))

    def forward(self, x):
        h = self.features(x)
        h = h.mean(dim=3).max(dim=2).values
        return self.head(h)
