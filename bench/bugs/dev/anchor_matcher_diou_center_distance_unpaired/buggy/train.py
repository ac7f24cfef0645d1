import logging
import random

import torch
import torch.nn.functional as F

from det.anchors import grid_anchors
from det.matcher import DIoUMatcher
from det.model import TinyDetector

log = logging.getLogger("det")
IMAGE_SIZE, STRIDE, NUM_CLASSES = 64, 8, 3


def synthetic_batch(batch_size: int):
    """Images with 1-4 bright rectangles each; targets are per-image dicts of different lengths."""
    images = torch.rand(batch_size, 3, IMAGE_SIZE, IMAGE_SIZE) * 0.2
    targets = []
    for i in range(batch_size):
        boxes, labels = [], []
        for _ in range(random.randint(1, 4)):
            x0, y0 = random.uniform(0, 40), random.uniform(0, 40)
            w, h = random.uniform(10, 24), random.uniform(10, 24)
            c = random.randrange(NUM_CLASSES)
            images[i, c, int(y0):int(y0 + h), int(x0):int(x0 + w)] = 1.0
            boxes.append([x0, y0, x0 + w, y0 + h])
            labels.append(c)
        targets.append({"boxes": torch.tensor(boxes), "labels": torch.tensor(labels)})
    return images, targets


def detection_loss(cls_out, box_out, anchors, targets, matcher):
    cls_losses, box_losses = [], []
    for cls_i, box_i, target in zip(cls_out, box_out, targets):
        labels, deltas = matcher(anchors, target["boxes"], target["labels"])
        cls_losses.append(F.cross_entropy(cls_i, labels))
        fg = labels > 0
        if fg.any():
            box_losses.append(F.smooth_l1_loss(box_i[fg], deltas[fg]))
    return torch.stack(cls_losses).mean() + torch.stack(box_losses).mean()


def main():
    logging.basicConfig(level=logging.INFO)
    random.seed(0)
    torch.manual_seed(0)
    anchors = grid_anchors(IMAGE_SIZE, STRIDE)
    model = TinyDetector(NUM_CLASSES)
    matcher = DIoUMatcher()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for step in range(10):
        images, targets = synthetic_batch(4)
        cls_out, box_out = model(images)
        loss = detection_loss(cls_out, box_out, anchors, targets, matcher)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
