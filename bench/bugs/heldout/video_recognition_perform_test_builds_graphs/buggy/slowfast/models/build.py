import torch.nn as nn


class ResNet3DBasic(nn.Module):
    def __init__(self, num_classes, width=8, dropout_rate=0.5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv3d(3, width, (3, 7, 7), (1, 2, 2), (1, 3, 3), bias=False),
                                  nn.BatchNorm3d(width), nn.ReLU(inplace=True))
        self.res2 = nn.Sequential(nn.Conv3d(width, width * 2, 3, 2, 1, bias=False), nn.BatchNorm3d(width * 2),
                                  nn.ReLU(inplace=True))
        self.head = nn.Sequential(nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Dropout(dropout_rate),
                                  nn.Linear(width * 2, num_classes))

    def forward(self, x):
        return self.head(self.res2(self.stem(x)))


def build_model(cfg):
    return ResNet3DBasic(cfg["MODEL"]["NUM_CLASSES"], dropout_rate=cfg["MODEL"]["DROPOUT_RATE"])
