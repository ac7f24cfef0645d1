import logging

import torch
import torch.nn.functional as F

from config import Config
from model import Decoder

log = logging.getLogger("rae")


class DecoderTrainer:
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.model = Decoder(cfg.latent_dim, cfg.hidden, cfg.image_dim)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)
        self.micro_step = 0

    def training_step(self, z, target):
        recon = self.model(z)
        loss = F.mse_loss(recon, target) / self.cfg.grad_accum_steps
        loss.backward()
        self.micro_step += 1
        if self.micro_step % self.cfg.grad_accum_steps == 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip)
            self.optimizer.step()
            self.optimizer.zero_grad(set_to_none=True)
        return loss.item() * self.cfg.grad_accum_steps


def latent_batches(cfg: Config, g):
    proj = torch.randn(cfg.latent_dim, cfg.image_dim, generator=g)
    for _ in range(cfg.steps):
        z = torch.randn(cfg.micro_batch, cfg.latent_dim, generator=g)
        yield z, torch.tanh(z @ proj)


def main():
    cfg = Config()
    torch.manual_seed(0)
    trainer = DecoderTrainer(cfg)
    for i, (z, target) in enumerate(latent_batches(cfg, torch.Generator().manual_seed(0))):
        loss = trainer.training_step(z, target)
        if i % 4 == 3:
            log.info("micro-step %d loss %.4f", i, loss)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
