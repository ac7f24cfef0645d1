import torch.nn as nn


class CompositeField(nn.Module):
    """Backbone plus a head predicting a confidence map and offsets for each keypoint."""

    def __init__(self, n_keypoints=17, ch=16):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
                                  nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU())
        self.conf = nn.Conv2d(ch, n_keypoints, 1)
        self.reg = nn.Conv2d(ch, n_keypoints * 2, 1)

    def forward(self, x):
        f = self.base(x)
        return self.conf(f), self.reg(f)
