import logging

import torch

from losses import color_loss, eikonal_loss
from model import ColorNetwork, SDFNetwork, render_rays

log = logging.getLogger(__name__)


class Runner:
    def __init__(self, cfg):
        self.cfg = cfg
        self.sdf_network = SDFNetwork(hidden=cfg.hidden)
        self.color_network = ColorNetwork(hidden=cfg.hidden)
        params = list(self.sdf_network.parameters()) + list(self.color_network.parameters())
        self.optimizer = torch.optim.Adam(params, lr=cfg.lr)
        self.iter_step = 0

    def sample_batch(self):
        rays_o = torch.randn(self.cfg.n_rays, 3) * 0.1
        rays_d = torch.nn.functional.normalize(torch.randn(self.cfg.n_rays, 3), dim=-1)
        gt = torch.rand(self.cfg.n_rays, 3)
        mask = (torch.rand(self.cfg.n_rays, 1) > 0.2).float()
        return rays_o, rays_d, gt, mask

    def train(self):
        for _ in range(self.cfg.iters):
            rays_o, rays_d, gt, mask = self.sample_batch()
            color, pts = render_rays(self.sdf_network, self.color_network, rays_o, rays_d, self.cfg.n_samples)
            grad = self.sdf_network.gradient(pts[:256].detach())
            color_fine_loss = color_loss(color, gt, mask)
            eik = eikonal_loss(grad)
            loss = color_fine_loss + eik * self.cfg.eikonal_weight

            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.iter_step += 1
            if self.iter_step % self.cfg.log_every == 0:
                log.info("iter %d eikonal %.4f", self.iter_step, eik.item())
