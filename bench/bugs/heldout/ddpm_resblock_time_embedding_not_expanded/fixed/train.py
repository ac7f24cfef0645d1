import logging

import torch
import torch.nn.functional as F

from config import DiffusionConfig
from unet import SmallUNet

log = logging.getLogger("ddpm")


class NoiseSchedule:
    def __init__(self, cfg: DiffusionConfig):
        self.betas = torch.linspace(cfg.beta_start, cfg.beta_end, cfg.timesteps)
        self.alpha_bar = torch.cumprod(1.0 - self.betas, dim=0)

    def q_sample(self, x0, t, noise):
        a = self.alpha_bar[t].sqrt()[:, None, None, None]
        s = (1 - self.alpha_bar[t]).sqrt()[:, None, None, None]
        return a * x0 + s * noise


def synthetic_digits(cfg: DiffusionConfig, n: int) -> torch.Tensor:
    yy, xx = torch.meshgrid(torch.arange(cfg.image_size), torch.arange(cfg.image_size), indexing="ij")
    centers = torch.randint(4, cfg.image_size - 4, (n, 2))
    d = (yy[None] - centers[:, 0, None, None]) ** 2 + (xx[None] - centers[:, 1, None, None]) ** 2
    return (torch.exp(-d.float() / 8.0) * 2 - 1)[:, None]


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = DiffusionConfig()
    model = SmallUNet(cfg)
    schedule = NoiseSchedule(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    data = synthetic_digits(cfg, 32)
    for step in range(cfg.steps):
        x0 = data[torch.randint(0, len(data), (cfg.batch_size,))]
        t = torch.randint(0, cfg.timesteps, (cfg.batch_size,))
        noise = torch.randn_like(x0)
        pred = model(schedule.q_sample(x0, t, noise), t)
        loss = F.mse_loss(pred, noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
