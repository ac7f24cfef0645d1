import torch

from det.boxes import box_diou, encode


class DIoUMatcher:
    """Assign every anchor the ground-truth box it overlaps best; background under a threshold."""

    def __init__(self, fg_thresh: float = 0.35):
        self.fg_thresh = fg_thresh

    def __call__(self, anchors: torch.Tensor, gt_boxes: torch.Tensor, gt_labels: torch.Tensor):
        if gt_boxes.numel() == 0:
            return torch.zeros(len(anchors), dtype=torch.long), torch.zeros(len(anchors), 4)
        quality = box_diou(anchors, gt_boxes)
        best, idx = quality.max(dim=1)
        labels = gt_labels[idx] + 1
        labels[best < self.fg_thresh] = 0
        labels[quality.argmax(dim=0)] = gt_labels + 1
        return labels, encode(anchors, gt_boxes[idx])
