import torch
from jaxtyping import Float
from torch import Tensor, nn

RGBBatch = Float[Tensor, "B 3 H W"]

IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def normalize(images: RGBBatch) -> RGBBatch:
    return (images - IMAGENET_MEAN) / IMAGENET_STD


def load_xrays(n: int = 4, size: int = 64) -> Float[Tensor, "N 1 H W"]:
    return torch.rand(n, 1, size, size)


backbone = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 2),
)

xrays = load_xrays()
batch = normalize(xrays.expand(-1, 3, -1, -1))
logits = backbone(batch)
print(logits.softmax(-1))
