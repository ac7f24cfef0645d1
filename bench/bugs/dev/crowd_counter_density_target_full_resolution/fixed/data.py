import torch
import torch.nn.functional as F
from torch.utils.data import Dataset


def gaussian_kernel(size: int = 7, sigma: float = 1.5) -> torch.Tensor:
    ax = torch.arange(size, dtype=torch.float32) - size // 2
    g = torch.exp(-(ax ** 2) / (2 * sigma ** 2))
    k = torch.outer(g, g)
    return k / k.sum()


def density_from_points(points: torch.Tensor, height: int, width: int) -> torch.Tensor:
    dots = torch.zeros(1, 1, height, width)
    for x, y in points.long().tolist():
        dots[0, 0, min(y, height - 1), min(x, width - 1)] += 1.0
    kernel = gaussian_kernel()[None, None]
    return F.conv2d(dots, kernel, padding=kernel.shape[-1] // 2)[0]


class CrowdScenes(Dataset):
    def __init__(self, n: int, size: int, max_people: int = 30) -> None:
        g = torch.Generator().manual_seed(3)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.points = [torch.rand(int(torch.randint(1, max_people, (1,), generator=g)), 2, generator=g) * size
                       for _ in range(n)]
        self.size = size

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        density = density_from_points(self.points[idx], self.size, self.size)
        # the network predicts at 1/8 resolution; sum-pool so the count is kept
        density = F.avg_pool2d(density, 8) * 64
        return self.images[idx], density
