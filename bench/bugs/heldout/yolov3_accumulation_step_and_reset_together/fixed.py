"""YOLOv3-style training script with gradient accumulation (a tiny single-scale detector on synthetic boxes)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class YOLOLayer(nn.Module):
    def __init__(self, anchors, num_classes):
        super().__init__()
        self.anchors = torch.tensor(anchors, dtype=torch.float32)
        self.na = len(anchors)
        self.num_classes = num_classes

    def forward(self, x, targets=None):
        b, _, ny, nx = x.shape
        pred = x.view(b, self.na, self.num_classes + 5, ny, nx).permute(0, 1, 3, 4, 2)
        if targets is None:
            return torch.sigmoid(pred[..., 4]), 0
        obj_mask = targets["obj"]
        loss_conf = F.binary_cross_entropy_with_logits(pred[..., 4], obj_mask)
        loss_xy = F.mse_loss(torch.sigmoid(pred[..., :2])[obj_mask.bool()], targets["xy"][obj_mask.bool()])
        loss_cls = F.cross_entropy(pred[..., 5:][obj_mask.bool()], targets["cls"][obj_mask.bool()])
        return pred, loss_conf + loss_xy + loss_cls


class Darknet(nn.Module):
    def __init__(self, num_classes=3, anchors=((10, 13), (16, 30), (33, 23))):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
        )
        self.head = nn.Conv2d(32, len(anchors) * (num_classes + 5), 1)
        self.yolo = YOLOLayer(anchors, num_classes)

    def forward(self, x, targets=None):
        out, loss = self.yolo(self.head(self.backbone(x)), targets)
        return (loss, out) if targets is not None else out


def synthetic_batch(batch_size, generator, grid=8, na=3, nc=3):
    imgs = torch.rand(batch_size, 3, grid * 4, grid * 4, generator=generator)
    obj = (torch.rand(batch_size, na, grid, grid, generator=generator) > 0.95).float()
    obj[:, 0, 0, 0] = 1
    return imgs, {"obj": obj, "xy": torch.rand(batch_size, na, grid, grid, 2, generator=generator),
                  "cls": torch.randint(0, nc, (batch_size, na, grid, grid), generator=generator)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2, help="number of epochs")
    parser.add_argument("--batch_size", type=int, default=2, help="size of each image batch")
    parser.add_argument("--gradient_accumulations", type=int, default=4, help="number of gradient accums before step")
    opt = parser.parse_args([])
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = Darknet()
    optimizer = torch.optim.Adam(model.parameters())
    dataloader = [synthetic_batch(opt.batch_size, g) for _ in range(4)]
    for epoch in range(opt.epochs):
        model.train()
        for batch_i, (imgs, targets) in enumerate(dataloader):
            batches_done = len(dataloader) * epoch + batch_i
            loss, outputs = model(imgs, targets)
            loss.backward()
            if batches_done % opt.gradient_accumulations == 0:
                # Accumulates gradient before each step
                optimizer.step()
                optimizer.zero_grad()
            print(f"[Epoch {epoch}/{opt.epochs}, Batch {batch_i}/{len(dataloader)}] loss {loss.item():.4f}")
