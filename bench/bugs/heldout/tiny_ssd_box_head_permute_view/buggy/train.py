"""Train the single-scale SSD on random images with random anchor targets (a smoke run of the pipeline)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from detector import SSDHead, build_backbone


class TinySSD(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.backbone, channels = build_backbone()
        self.head = SSDHead(channels, num_classes=num_classes)

    def forward(self, images):
        return self.head(self.backbone(images))


def multibox_loss(boxes, scores, gt_boxes, gt_labels):
    pos = gt_labels > 0
    loc_loss = F.smooth_l1_loss(boxes[pos], gt_boxes[pos])
    conf_loss = F.cross_entropy(scores.reshape(-1, scores.shape[-1]), gt_labels.reshape(-1))
    return loc_loss + conf_loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--image-size", type=int, default=64)
    parser.add_argument("--iters", type=int, default=3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = TinySSD()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    cells = (args.image_size // 8) ** 2 * model.head.num_anchors
    for it in range(args.iters):
        images = torch.randn(2, 3, args.image_size, args.image_size)
        gt_boxes = torch.rand(2, cells, 4)
        gt_labels = torch.randint(0, 4, (2, cells))
        boxes, scores = model(images)
        loss = multibox_loss(boxes, scores, gt_boxes, gt_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
