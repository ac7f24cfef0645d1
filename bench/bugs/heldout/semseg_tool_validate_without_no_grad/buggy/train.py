import torch
import torch.nn as nn

from util import AverageMeter, intersection_and_union

CLASSES, IGNORE = 4, 255


class PSPLite(nn.Module):
    def __init__(self, classes=CLASSES):
        super().__init__()
        self.layer0 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.ppm = nn.ModuleList(nn.Sequential(nn.AdaptiveAvgPool2d(b), nn.Conv2d(16, 4, 1)) for b in (1, 2, 4))
        self.cls = nn.Sequential(nn.Conv2d(28, 16, 3, padding=1), nn.ReLU(), nn.Dropout2d(0.1), nn.Conv2d(16, classes, 1))

    def forward(self, x):
        x = self.layer0(x)
        size = x.shape[-2:]
        pooled = [nn.functional.interpolate(p(x), size, mode="bilinear", align_corners=True) for p in self.ppm]
        return self.cls(torch.cat([x, *pooled], dim=1))


def loader(batches=2, batch_size=2, size=32):
    return [(torch.rand(batch_size, 3, size, size), torch.randint(0, CLASSES, (batch_size, size, size))) for _ in range(batches)]


def train(train_loader, model, criterion, optimizer):
    model.train()
    for input, target in train_loader:
        output = model(input)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(val_loader, model, criterion):
    loss_meter = AverageMeter()
    intersection_meter, union_meter = AverageMeter(), AverageMeter()
    model.eval()
    for i, (input, target) in enumerate(val_loader):
        output = model(input)
        loss = criterion(output, target)
        output = output.max(1)[1]
        intersection, union, _ = intersection_and_union(output, target, CLASSES, IGNORE)
        intersection_meter.update(intersection), union_meter.update(union)
        loss_meter.update(loss.item(), input.size(0))
    iou_class = intersection_meter.sum / (union_meter.sum + 1e-10)
    return loss_meter.avg, iou_class.mean().item()


def main():
    model = PSPLite()
    criterion = nn.CrossEntropyLoss(ignore_index=IGNORE)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    for epoch in range(2):
        train(loader(), model, criterion, optimizer)
        loss_val, miou_val = validate(loader(1), model, criterion)
        print(f"epoch {epoch}: val loss {loss_val:.4f} mIoU {miou_val:.4f}")


if __name__ == "__main__":
    main()
