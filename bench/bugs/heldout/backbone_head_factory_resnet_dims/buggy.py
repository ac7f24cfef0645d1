"""Fine-tune a small residual backbone with a fresh classification head."""
import torch
from torch import nn


def make_head(in_features: int, num_classes: int, dropout: float = 0.2) -> nn.Sequential:
    return nn.Sequential(nn.Dropout(dropout), nn.Linear(in_features, num_classes))


class BasicBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(out)))


class FlowerClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 512, 7, stride=4, padding=3, bias=False),
            nn.BatchNorm2d(512),
            nn.ReLU(inplace=True),
            BasicBlock(512),
            nn.AdaptiveAvgPool2d((1, 1)),
        )
        self.head = make_head(2048, num_classes=5)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        feats = torch.flatten(self.backbone(images), 1)
        return self.head(feats)


def main() -> None:
    model = FlowerClassifier()
    for p in model.backbone.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.SGD(model.head.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(4, 3, 32, 32)
    labels = torch.randint(0, 5, (4,))
    model.train()
    logits = model(images)
    loss = nn.functional.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
