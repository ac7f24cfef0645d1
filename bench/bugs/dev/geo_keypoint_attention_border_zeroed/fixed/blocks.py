import torch
import torch.nn as nn


class KeypointAttention(nn.Module):
    """Unit subtraction attention: highlights salient locations of a feature map."""

    def __init__(self, channels, polish=True):
        super().__init__()
        self.polish = polish
        self.reduce = nn.Conv2d(channels, channels // 2, 1)
        self.score = nn.Conv2d(channels // 2, 1, 3, padding=1)

    def forward(self, x):
        local = self.reduce(x)
        context = local - nn.functional.avg_pool2d(local, 3, stride=1, padding=1)
        att = torch.sigmoid(self.score(context))
        if self.polish:
            att = att.clone()
            # border responses come from zero padding, not from the scene
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
        return x * att + x
