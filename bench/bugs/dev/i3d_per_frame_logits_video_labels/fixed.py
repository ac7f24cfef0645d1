import torch
import torch.nn.functional as F
from torch import nn


class TinyI3D(nn.Module):
    """3D conv trunk with per-frame class logits, as in I3D's logits layer before temporal pooling."""

    def __init__(self, num_classes: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv3d(3, 16, (3, 3, 3), padding=1), nn.ReLU(),
            nn.MaxPool3d((1, 2, 2)),
            nn.Conv3d(16, 32, (3, 3, 3), padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool3d((None, 1, 1)),
        )
        self.logits = nn.Conv3d(32, num_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.logits(self.trunk(x)).squeeze(-1).squeeze(-1)


def make_batch(batch: int, frames: int, num_classes: int):
    videos = torch.randn(batch, 3, frames, 32, 32)
    gloss = torch.randint(0, num_classes, (batch,))
    labels = F.one_hot(gloss, num_classes).float()
    return videos, labels


def run(num_classes: int = 20, frames: int = 8, steps: int = 2) -> None:
    i3d = TinyI3D(num_classes)
    optimizer = torch.optim.SGD(i3d.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-7)
    for step in range(steps):
        inputs, labels = make_batch(2, frames, num_classes)
        per_frame_logits = i3d(inputs)
        loc_loss = F.binary_cross_entropy_with_logits(per_frame_logits, labels.unsqueeze(2).expand_as(per_frame_logits))
        cls_loss = F.binary_cross_entropy_with_logits(per_frame_logits.max(dim=2).values, labels)
        loss = 0.5 * loc_loss + 0.5 * cls_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    run()
