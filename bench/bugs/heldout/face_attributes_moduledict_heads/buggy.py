from typing import Dict

import torch
from torch import nn, Tensor

TASKS = {"age": 1, "gender": 2, "ethnicity": 5}


class MultiTaskFaceNet(nn.Module):
    def __init__(self, feat_dim: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(64, feat_dim), nn.ReLU(),
        )
        self.heads = nn.ModuleDict({
            "age": nn.Linear(256, 1),
            "gender": nn.Linear(256, 2),
            "ethnicity": nn.Linear(128, 5),
        })

    def forward(self, images: Tensor) -> Dict[str, Tensor]:
        feats = self.trunk(images)
        return {task: head(feats) for task, head in self.heads.items()}


def multitask_loss(outputs: Dict[str, Tensor], targets: Dict[str, Tensor]) -> Tensor:
    loss = nn.functional.l1_loss(outputs["age"].squeeze(1), targets["age"])
    loss = loss + nn.functional.cross_entropy(outputs["gender"], targets["gender"])
    return loss + nn.functional.cross_entropy(outputs["ethnicity"], targets["ethnicity"])


if __name__ == "__main__":
    net = MultiTaskFaceNet()
    optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    images = torch.rand(6, 3, 64, 64)
    targets = {
        "age": torch.rand(6) * 80,
        "gender": torch.randint(0, 2, (6,)),
        "ethnicity": torch.randint(0, 5, (6,)),
    }
    loss = multitask_loss(net(images), targets)
    optim.zero_grad()
    loss.backward()
    optim.step()
    print({"loss": loss.item()})
