import numpy as np
import torch
from torch import nn


class ConvBNAct(nn.Sequential):
    def __init__(self, c_in: int, c_out: int, kernel: int = 3, stride: int = 1) -> None:
        super().__init__(
            nn.Conv2d(c_in, c_out, kernel, stride, padding=kernel // 2, bias=False),
            nn.BatchNorm2d(c_out),
            nn.SiLU(inplace=True),
        )


class TinySegmenter(nn.Module):
    def __init__(self, num_classes: int = 2) -> None:
        super().__init__()
        self.stem = ConvBNAct(3, 16, stride=2)
        self.body = nn.Sequential(ConvBNAct(16, 32), ConvBNAct(32, 32))
        self.head = nn.Conv2d(32, num_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        size = x.shape[-2:]
        logits = self.head(self.body(self.stem(x)))
        return nn.functional.interpolate(logits, size=size, mode="bilinear", align_corners=False)


def load_tiles(n: int = 8, size: int = 48):
    """Image tiles as the PNG decoder returns them: height, width, RGB, uint8."""
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
    masks = rng.integers(0, 2, size=(n, size, size), dtype=np.int64)
    return images, masks


def main() -> None:
    images, masks = load_tiles()
    model = TinySegmenter()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(0, 8, 4):
        batch = torch.from_numpy(images[i:i + 4]).float() / 255.0
        target = torch.from_numpy(masks[i:i + 4])
        logits = model(batch)
        loss = nn.functional.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {i // 4}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
