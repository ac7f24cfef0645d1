"""Flip test-time/training views of an image batch, with shape-annotated helpers."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor

Images = Float[Tensor, "B C H W"]


def normalize(x: Images, mean: float = 0.5, std: float = 0.25) -> Images:
    return (x - mean) / std


def with_flips(x: Images) -> Float[Tensor, "2 B C H W"]:
    """The batch and its horizontal mirror image, stacked on a new leading view axis."""
    return torch.stack([x, x.flip(-1)])


def merge_views(views: Float[Tensor, "V B C H W"]) -> Float[Tensor, "VB C H W"]:
    return views.flatten(0, 1)


def repeat_labels(y: Int[Tensor, " B"], n_views: int) -> Int[Tensor, " VB"]:
    return y.repeat(n_views)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1)
        )
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def main(steps=3):
    torch.manual_seed(0)
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        images = torch.rand(4, 3, 12, 12)
        labels = torch.randint(0, 5, (4,))
        views = with_flips(normalize(images))
        x = merge_views(views)
        y = repeat_labels(labels, views.shape[0])
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f} on {x.shape[0]} views")


if __name__ == "__main__":
    main()
