import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class PascalLike(Dataset):
    def __init__(self, n: int, img_size: int, n_classes: int) -> None:
        self.images = torch.randn(n, 3, img_size, img_size)
        self.labels = torch.randint(0, n_classes, (n, img_size, img_size))

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        return self.images[i], self.labels[i]


class FCN8Lite(nn.Module):
    def __init__(self, n_classes: int = 21) -> None:
        super().__init__()
        layers, c = [], 3
        for width in (16, 32, 64):
            layers += [nn.Conv2d(c, width, 3, stride=2, padding=1), nn.ReLU(inplace=True)]
            c = width
        self.features = nn.Sequential(*layers)
        self.score = nn.Conv2d(c, n_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        score = self.score(self.features(x))
        return F.interpolate(score, size=x.shape[-2:], mode="bilinear", align_corners=False)


def cross_entropy2d(input: torch.Tensor, target: torch.Tensor, ignore_index: int = 250) -> torch.Tensor:
    n, c, h, w = input.size()
    input = input.transpose(1, 2).transpose(2, 3).contiguous().view(-1, c)
    target = target.view(-1)
    return F.cross_entropy(input, target, ignore_index=ignore_index)


def train(cfg: dict) -> None:
    loader = DataLoader(PascalLike(4, cfg["img_size"], cfg["n_classes"]), batch_size=cfg["batch_size"])
    model = FCN8Lite(cfg["n_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.99, weight_decay=5e-4)
    for i, (images, labels) in enumerate(loader):
        outputs = model(images)
        loss = cross_entropy2d(input=outputs, target=labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {i}: {loss.item():.4f}")


if __name__ == "__main__":
    train({"img_size": 100, "n_classes": 21, "batch_size": 2, "lr": 1e-10})
