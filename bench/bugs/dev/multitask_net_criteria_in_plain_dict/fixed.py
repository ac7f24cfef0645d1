from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TaskConfig:
    seg_classes: int = 4
    width: int = 16
    loss_weights: dict = field(default_factory=lambda: {"seg": 1.0, "depth": 1.0})


class SharedEncoder(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        )

    def forward(self, x):
        return self.net(x)


class MultiTaskNet(nn.Module):
    def __init__(self, cfg: TaskConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = SharedEncoder(cfg.width)
        self.heads = nn.ModuleDict({"seg": nn.Conv2d(cfg.width, cfg.seg_classes, 1), "depth": nn.Conv2d(cfg.width, 1, 1)})
        self.criteria = {"seg": nn.CrossEntropyLoss(), "depth": nn.L1Loss()}

    def forward(self, images):
        feats = self.encoder(images)
        return {name: head(feats) for name, head in self.heads.items()}

    def compute_loss(self, outputs, targets):
        losses = {name: self.criteria[name](outputs[name], targets[name]) for name in outputs}
        total = sum(self.cfg.loss_weights[name] * loss for name, loss in losses.items())
        return total, {name: loss.item() for name, loss in losses.items()}


def main():
    torch.manual_seed(0)
    cfg = TaskConfig()
    images = torch.randn(24, 3, 16, 16)
    seg = torch.randint(0, cfg.seg_classes, (24, 16, 16))
    depth = torch.rand(24, 1, 16, 16)
    loader = DataLoader(TensorDataset(images, seg, depth), batch_size=8, shuffle=True)
    model = MultiTaskNet(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(2):
        model.train()
        for x, seg_t, depth_t in loader:
            outputs = model(x)
            total, parts = model.compute_loss(outputs, {"seg": seg_t, "depth": depth_t})
            optimizer.zero_grad()
            total.backward()
            optimizer.step()
        print(f"epoch {epoch} " + " ".join(f"{k}={v:.3f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
