import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthNet(nn.Module):
    """Encoder-decoder predicting inverse depth in (0, 1) at input resolution."""

    def __init__(self, width=16):
        super().__init__()
        self.enc1 = nn.Conv2d(3, width, 3, stride=2, padding=1)
        self.enc2 = nn.Conv2d(width, 2 * width, 3, stride=2, padding=1)
        self.dec = nn.Conv2d(2 * width, width, 3, padding=1)
        self.out = nn.Conv2d(width, 1, 3, padding=1)

    def forward(self, rgb):
        h = F.elu(self.enc2(F.elu(self.enc1(rgb))))
        h = F.interpolate(F.elu(self.dec(h)), scale_factor=4, mode="bilinear", align_corners=False)
        return torch.sigmoid(self.out(h))


def smoothness_loss(inv_depth, image):
    dx = (inv_depth[..., :, 1:] - inv_depth[..., :, :-1]).abs()
    dy = (inv_depth[..., 1:, :] - inv_depth[..., :-1, :]).abs()
    wx = torch.exp(-(image[..., :, 1:] - image[..., :, :-1]).abs().mean(1, keepdim=True))
    wy = torch.exp(-(image[..., 1:, :] - image[..., :-1, :]).abs().mean(1, keepdim=True))
    return (dx * wx).mean() + (dy * wy).mean()


class SelfSupModel(nn.Module):
    def __init__(self, smooth_weight=1e-3):
        super().__init__()
        self.depth_net = DepthNet()
        self.smooth_weight = smooth_weight

    def forward(self, batch):
        inv_depth = self.depth_net(batch["rgb"])
        photometric = (inv_depth - batch["proxy_depth"]).abs().mean()
        loss = photometric + self.smooth_weight * smoothness_loss(inv_depth, batch["rgb"])
        return {"loss": loss, "metrics": {"photometric": photometric.detach()}}
