import torch
import torch.nn as nn


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=3, padding=1),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class CourtTrackNet(nn.Module):
    """Predicts one heatmap per court keypoint from a small RGB frame."""

    def __init__(self, in_channels=3, num_keypoints=4, width=8):
        super().__init__()
        self.encoder = nn.Sequential(
            conv_block(in_channels, width),
            nn.MaxPool2d(2),
            conv_block(width, width * 2),
        )
        self.decoder = nn.Sequential(
            nn.Upsample(scale_factor=2, mode="nearest"),
            conv_block(width * 2, width),
            nn.Conv2d(width, num_keypoints, kernel_size=1),
        )

    def forward(self, frames):
        return self.decoder(self.encoder(frames))
