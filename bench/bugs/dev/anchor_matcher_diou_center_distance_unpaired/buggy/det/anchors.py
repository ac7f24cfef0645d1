import torch


def grid_anchors(image_size: int, stride: int, sizes=(16, 32)) -> torch.Tensor:
    n = image_size // stride
    centers = (torch.arange(n, dtype=torch.float32) + 0.5) * stride
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    cx, cy = cx.reshape(-1), cy.reshape(-1)
    out = []
    for s in sizes:
        out.append(torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], dim=1))
    return torch.stack(out, dim=1).reshape(-1, 4)
