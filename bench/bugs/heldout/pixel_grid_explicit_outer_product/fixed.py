import torch
import torch.nn.functional as F


def normalized_grid(height: int, width: int) -> torch.Tensor:
    ys = torch.linspace(-1, 1, height).view(height, 1)
    xs = torch.linspace(-1, 1, width).view(1, width)
    grid_y = ys.expand(height, width)
    grid_x = torch.ones(height, 1) * xs
    return torch.stack([grid_x, grid_y], dim=-1)


def shift_image(image: torch.Tensor, dx: float, dy: float) -> torch.Tensor:
    grid = normalized_grid(image.shape[-2], image.shape[-1])
    grid = grid + torch.tensor([dx, dy])
    return F.grid_sample(image, grid[None].expand(image.size(0), -1, -1, -1), align_corners=True)


images = torch.rand(2, 3, 24, 32)
print(shift_image(images, 0.1, -0.05).shape)
