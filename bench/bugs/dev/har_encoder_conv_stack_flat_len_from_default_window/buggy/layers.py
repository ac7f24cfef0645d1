import torch.nn as nn

from config import EncoderConfig


class ConvStack(nn.Sequential):
    """conv -> BN -> ReLU -> maxpool blocks, one per entry of cfg.channels."""

    def __init__(self, cfg: EncoderConfig):
        layers = []
        c_in = cfg.in_channels
        for i, c_out in enumerate(cfg.channels):
            layers += [
                nn.Conv1d(c_in, c_out, kernel_size=cfg.kernel_size, stride=1, padding=cfg.kernel_size // 2, bias=False),
                nn.BatchNorm1d(c_out),
                nn.ReLU(),
                nn.MaxPool1d(kernel_size=2, stride=2, padding=1),
            ]
            if i == 0:
                layers.append(nn.Dropout(cfg.dropout))
            c_in = c_out
        super().__init__(*layers)
