import torch
from torch import nn


class SegHead(nn.Module):
    def __init__(self, channels: int = 16, classes: int = 4) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU(),
                                  nn.Dropout2d(0.2), nn.Conv2d(channels, classes, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def enable_dropout(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, nn.Dropout2d):
            m.train()


def mc_predict(model: nn.Module, images: torch.Tensor, samples: int = 8):
    model.eval()
    enable_dropout(model)
    with torch.no_grad():
        probs = torch.stack([torch.softmax(model(images), dim=1) for _ in range(samples)])
    return probs.mean(0), probs.var(0).sum(1)


model = SegHead()
mean, uncertainty = mc_predict(model, torch.rand(2, 3, 16, 16))
print(mean.shape, uncertainty.mean().item())
