from typing import Tuple

import torch
from torch import nn, Tensor
from torch.nn import functional as F


class BoxRegressionHead(nn.Module):
    def __init__(self, in_channels: int = 64) -> None:
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(in_channels, 4)

    def forward(self, feats: Tensor) -> Tensor:
        return self.fc(self.pool(feats).flatten(1))

    def loss(self, pred_boxes: Tensor, gt_boxes: Tensor) -> Tensor:
        return F.smooth_l1_loss(pred_boxes, gt_boxes, beta=1.0 / 9)


class SingleObjectLocalizer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU())
        self.box_head = BoxRegressionHead(64)

    def forward(self, images: Tensor) -> Tensor:
        return self.box_head(self.backbone(images))

    def compute_loss(self, images: Tensor, targets: Tensor) -> Tensor:
        pred = self(images)
        return self.box_head.loss(pred, targets)


def load_batch(n: int = 6) -> Tuple[Tensor, Tensor]:
    images = torch.rand(n, 3, 64, 64)
    # annotations come as one box per image, stacked from per-image (1, 4) arrays
    boxes = torch.cat([torch.rand(1, 4) for _ in range(n)])
    return images, boxes


model = SingleObjectLocalizer()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
images, boxes = load_batch()
loss = model.compute_loss(images, boxes)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("box loss", float(loss))
