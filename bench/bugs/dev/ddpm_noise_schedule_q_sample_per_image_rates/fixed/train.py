import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import TRAIN
from schedule import LinearSchedule
from unet import TinyUNet

logger = logging.getLogger("ddpm")


def make_digits(n: int, size: int, channels: int) -> torch.Tensor:
    """Blobby synthetic 'digits' in [-1, 1]."""
    g = torch.Generator().manual_seed(0)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="ij")
    centres = torch.rand(n, 2, generator=g) * 1.2 - 0.6
    d = (yy[None] - centres[:, 0, None, None]) ** 2 + (xx[None] - centres[:, 1, None, None]) ** 2
    imgs = torch.exp(-d / 0.08) * 2 - 1
    return imgs[:, None].expand(n, channels, size, size).contiguous()


def train_step(model, schedule, batch, optimizer):
    t = schedule.sample_timesteps(batch.shape[0])
    noise = torch.randn_like(batch)
    x_t = schedule.q_sample(batch, t, noise)
    loss = F.mse_loss(model(x_t, t), noise)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = TRAIN
    images = make_digits(64, cfg["image_size"], cfg["channels"])
    loader = DataLoader(TensorDataset(images), batch_size=cfg["batch_size"], shuffle=True, drop_last=True)
    schedule = LinearSchedule(cfg["timesteps"], cfg["beta_start"], cfg["beta_end"])
    model = TinyUNet(cfg["channels"], cfg["base_width"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        losses = [train_step(model, schedule, x, optimizer) for (x,) in loader]
        logger.info("epoch %d mse %.4f", epoch, sum(losses) / len(losses))


if __name__ == "__main__":
    main()
