import torch
from torch import nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(4))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        fmap = self.features(x)
        return self.fc(fmap.mean(dim=(2, 3))), fmap


def class_activation_map(model: SmallCNN, image: torch.Tensor, target: int) -> torch.Tensor:
    logits, fmap = model(image.unsqueeze(0))
    weights = model.fc.weight[target]
    cam = torch.relu((weights[:, None, None] * fmap[0]).sum(0, keepdim=True))
    cam = F.interpolate(cam, size=image.shape[-2:], mode="bilinear", align_corners=False)
    return (cam / cam.max()).squeeze()


model = SmallCNN().eval()
image = torch.rand(3, 32, 32)
with torch.no_grad():
    heat = class_activation_map(model, image, target=3)
print(heat.shape)
