import torch


def pixel_grid(height, width):
    """Homogeneous pixel coordinates, (3, H*W)."""
    ys, xs = torch.meshgrid(torch.arange(height, dtype=torch.float32),
                            torch.arange(width, dtype=torch.float32), indexing="ij")
    ones = torch.ones_like(xs)
    return torch.stack([xs, ys, ones], dim=0).view(3, -1)


def depth_warping(depth, intrinsics, rotation, translation, epsilon=1e-6):
    """Where each pixel of the source frame lands in the target frame, as a sampling grid in [-1, 1]."""
    batch, _, height, width = depth.shape
    pix = pixel_grid(height, width).unsqueeze(0).expand(batch, -1, -1)
    cam_points = torch.bmm(torch.inverse(intrinsics), pix) * depth.view(batch, 1, -1)
    moved = torch.bmm(rotation, cam_points) + translation.view(batch, 3, 1)
    projected = torch.bmm(intrinsics, moved).permute(0, 2, 1)
    flat = projected.reshape(-1, 3)
    u = flat[:, 0] / (flat[:, 2] + epsilon)
    v = flat[:, 1] / (flat[:, 2] + epsilon)
    u_norm = 2.0 * u / (width - 1) - 1.0
    v_norm = 2.0 * v / (height - 1) - 1.0
    return torch.stack([u_norm, v_norm], dim=-1).view(batch, height, width, 2)
