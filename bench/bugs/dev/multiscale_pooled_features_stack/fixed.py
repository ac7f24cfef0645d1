import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiScaleEncoder(nn.Module):
    def __init__(self, num_classes=8):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.ReLU()),
        ])
        self.fc = nn.Linear(32 + 64 + 128, num_classes)

    def forward(self, x):
        pooled = []
        for stage in self.stages:
            x = stage(x)
            pooled.append(F.adaptive_avg_pool2d(x, 1).flatten(1))
        feats = torch.cat(pooled, dim=1)
        return self.fc(feats)


model = MultiScaleEncoder()
print(model(torch.randn(4, 3, 32, 32)).shape)
