import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class R3Lite(nn.Module):
    """Encoder-decoder saliency network with one residual refinement step.

    Training returns logits for the loss; evaluation returns the saliency map in [0, 1].
    """

    def __init__(self, width=16):
        super().__init__()
        self.enc1 = conv_block(3, width)
        self.enc2 = conv_block(width, 2 * width)
        self.predict = nn.Conv2d(2 * width, 1, 1)
        self.refine = nn.Sequential(conv_block(width + 1, width), nn.Conv2d(width, 1, 3, padding=1))

    def forward(self, x):
        low = self.enc1(x)
        high = self.enc2(F.max_pool2d(low, 2))
        coarse = F.interpolate(self.predict(high), size=x.shape[-2:], mode="bilinear", align_corners=False)
        refined = coarse + self.refine(torch.cat([low, coarse], dim=1))
        if self.training:
            return coarse, refined
        return torch.sigmoid(refined)
