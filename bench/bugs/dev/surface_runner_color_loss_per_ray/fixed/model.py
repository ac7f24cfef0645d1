import torch
import torch.nn as nn


class SDFNetwork(nn.Module):
    """Signed distance plus a feature vector for the colour branch."""

    def __init__(self, hidden=64, feat_dim=8):
        super().__init__()
        self.feat_dim = feat_dim
        self.net = nn.Sequential(
            nn.Linear(3, hidden), nn.Softplus(beta=100),
            nn.Linear(hidden, hidden), nn.Softplus(beta=100),
            nn.Linear(hidden, 1 + feat_dim),
        )

    def forward(self, pts):
        out = self.net(pts)
        return out[..., :1], out[..., 1:]

    def gradient(self, pts):
        pts = pts.requires_grad_(True)
        sdf, _ = self.forward(pts)
        (grad,) = torch.autograd.grad(sdf, pts, torch.ones_like(sdf), create_graph=True)
        return grad


class ColorNetwork(nn.Module):
    def __init__(self, feat_dim=8, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3 + 3 + feat_dim, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, pts, dirs, feats):
        return torch.sigmoid(self.net(torch.cat([pts, dirs, feats], dim=-1)))


def render_rays(sdf_net, color_net, rays_o, rays_d, n_samples, inv_s=20.0):
    t = torch.linspace(0.1, 2.0, n_samples)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * t[None, :, None]
    dirs = rays_d[:, None, :].expand_as(pts)
    sdf, feats = sdf_net(pts)
    rgb = color_net(pts, dirs, feats)
    alpha = torch.sigmoid(-sdf * inv_s).squeeze(-1)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1.0 - alpha + 1e-7], -1), -1)[:, :-1]
    weights = alpha * trans
    color = (weights[..., None] * rgb).sum(dim=1)
    return color, pts.reshape(-1, 3)
