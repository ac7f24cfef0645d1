from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, num_classes=4, anchors=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU())
        self.cls_head = nn.Conv2d(32, anchors * num_classes, 1)
        self.box_head = nn.Conv2d(32, anchors * 4, 1)

    def forward(self, images):
        f = self.backbone(images)
        return self.cls_head(f), self.box_head(f)


class DetectionLoss:
    def __init__(self, box_weight=7.5, cls_weight=0.5):
        self.box_weight, self.cls_weight = box_weight, cls_weight

    def __call__(self, outputs, targets):
        cls_pred, box_pred = outputs
        cls_target, box_target = targets
        loss_cls = F.binary_cross_entropy_with_logits(cls_pred, cls_target)
        loss_box = F.smooth_l1_loss(box_pred, box_target)
        return {"BoxLoss": self.box_weight * loss_box, "ClsLoss": self.cls_weight * loss_cls}


class ModelTrainer:
    def __init__(self, model):
        self.model = model
        self.loss_fn = DetectionLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)

    def train_one_batch(self, images, targets):
        loss_each = self.loss_fn(self.model(images), targets)
        loss_each["TotalLoss"] = sum(loss_each.values())
        self.optimizer.zero_grad()
        loss_each["TotalLoss"].backward()
        self.optimizer.step()
        return loss_each

    def train_one_epoch(self, dataloader):
        self.model.train()
        total_loss = defaultdict(float)
        for images, targets in dataloader:
            loss_each = self.train_one_batch(images, targets)
            for loss_name, loss_val in loss_each.items():
                total_loss[loss_name] += loss_val.item() * len(images)
        return {name: value / (len(dataloader) * 4) for name, value in total_loss.items()}


def fake_loader(n=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.rand(4, 3, 32, 32, generator=g),
             ((torch.rand(4, 12, 8, 8, generator=g) > 0.9).float(), torch.rand(4, 12, 8, 8, generator=g)))
            for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = ModelTrainer(TinyDetector())
    for epoch in range(2):
        print(epoch, {k: float(v) for k, v in trainer.train_one_epoch(fake_loader()).items()})
