import torch.nn as nn

from config import ModelConfig


class ConvEmotionNet(nn.Sequential):
    """Conv stack over a (1, n_mfcc, n_frames) MFCC image followed by a linear classifier."""

    def __init__(self, cfg: ModelConfig = ModelConfig()):
        layers, c_in = [], 1
        h, w = cfg.n_mfcc, cfg.n_frames
        for c_out in cfg.conv_channels:
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2)]
            c_in, h, w = c_out, h // 2, w // 2
        layers += [nn.Flatten(), nn.Dropout(cfg.dropout), nn.Linear(c_in * h * w, cfg.n_emotions)]
        super().__init__(*layers)
