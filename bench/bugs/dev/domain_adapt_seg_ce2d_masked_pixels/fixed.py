import torch
import torch.nn.functional as F
from torch import nn


class CrossEntropy2d(nn.Module):
    def __init__(self, size_average: bool = True, ignore_label: int = 255) -> None:
        super().__init__()
        self.size_average = size_average
        self.ignore_label = ignore_label

    def forward(self, predict: torch.Tensor, target: torch.Tensor, weight=None) -> torch.Tensor:
        """predict: (n, c, h, w) logits; target: (n, h, w) class ids, ignore_label where unlabeled."""
        assert predict.dim() == 4 and target.dim() == 3
        n, c, h, w = predict.size()
        target_mask = (target >= 0) * (target != self.ignore_label)
        target = target[target_mask]
        if not target.data.dim():
            return torch.zeros(1)
        predict = predict.transpose(1, 2).transpose(2, 3).contiguous()
        predict = predict[target_mask.view(n, h, w, 1).repeat(1, 1, 1, c)].view(-1, c)
        reduction = "mean" if self.size_average else "sum"
        return F.cross_entropy(predict, target, weight=weight, reduction=reduction)


class SegHead(nn.Module):
    def __init__(self, num_classes: int = 5) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(16, num_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.features(x))


def loss_calc(pred: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
    criterion = CrossEntropy2d()
    return criterion(pred, label.long())


def train_source(steps: int = 2, num_classes: int = 5) -> None:
    model = SegHead(num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    for i_iter in range(steps):
        images = torch.randn(2, 3, 24, 24)
        labels = torch.randint(0, num_classes, (2, 24, 24))
        labels[:, :4] = 255
        pred = model(images)
        loss_seg = loss_calc(pred, labels)
        optimizer.zero_grad()
        loss_seg.backward()
        optimizer.step()
        print(f"iter {i_iter}: loss_seg = {loss_seg.item():.3f}")


if __name__ == "__main__":
    train_source()
