import torch
import torch.nn as nn


class TinyDetector(nn.Module):
    def __init__(self, num_classes: int, anchors_per_cell: int = 2, width: int = 32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.cls_head = nn.Conv2d(width, anchors_per_cell * (num_classes + 1), 3, padding=1)
        self.box_head = nn.Conv2d(width, anchors_per_cell * 4, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, images: torch.Tensor):
        f = self.backbone(images)
        b = images.shape[0]
        cls = self.cls_head(f).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes + 1)
        box = self.box_head(f).permute(0, 2, 3, 1).reshape(b, -1, 4)
        return cls, box
