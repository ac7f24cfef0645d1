import torch
from torch import nn


class Critic(nn.Module):
    def __init__(self, channels: int = 32, n_down: int = 3, image_size: int = 64) -> None:
        super().__init__()
        self.n_down = n_down
        self.stem = nn.Conv2d(3, channels, 3, padding=1)
        self.down = nn.Sequential(nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.LeakyReLU(0.2))
        final = image_size // 2 ** n_down
        self.fc = nn.Linear(channels * final * final, 1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        h = self.stem(images)
        for _ in range(self.n_down):
            h = self.down(h)
        return self.fc(h.flatten(1))


critic = Critic()
real = torch.randn(4, 3, 64, 64)
print(critic(real).mean().item())
